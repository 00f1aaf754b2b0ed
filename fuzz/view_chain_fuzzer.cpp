// libFuzzer target: bytes -> choices -> a view-chain program -> run on the
// engine (on 1..4 threads, every loop split: the thread count is drawn from
// the input too, Note [Searched engine threads], program/engine_threads.h)
// and on LibTorch -> diff, and the engine's UNDEFINED claims checked by
// brute force (program/undefined_check.h). A divergence or a wrong claim
// aborts, so libFuzzer saves the input; the program text and the report are
// printed first. With STRIDECHECK_FINDINGS_DIR set (scripts/fuzz.sh sets it),
// it does not abort: the input is written there and fuzzing goes on in the same
// process (Note [Findings without aborting]).
//
// Mutations: half are libFuzzer's own (bytes, cross-over), half structure-aware
// (program/choice_mutator.h: delete, duplicate, insert, replace or swap one
// step's choices, change one argument). STRIDECHECK_MUTATOR=bytes uses
// libFuzzer's only, =units the structure-aware ones only (to compare them).
//
// Deterministic, accepts any input, one-time setup in a function-local static
// (STYLE: structure-aware libFuzzer).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include "oracle/oracle.h"
#include "program/backend.h"
#include "program/choice_mutator.h"
#include "program/compare.h"
#include "program/engine_threads.h"
#include "program/findings/signature.h"
#include "program/generator.h"
#include "program/printer.h"
#include "program/undefined_check.h"

namespace {

struct Setup {
  std::unique_ptr<sc::Backend> engine, oracle;
  sc::RunOptions options;
  sc::GeneratorPolicy policy;
  Setup() {
    sc::register_engine_backend();
    sc::oracle::register_backends();
    engine = sc::make_backend("engine:cpu");
    oracle = sc::make_backend("libtorch:cpu");
    options.record_contents = false;  // hashes; contents are re-run on a difference
    options.budget_bytes = int64_t{64} << 20;
  }
};

// Note [Findings without aborting]
// libFuzzer saves an input only when the target crashes, and a crashed process
// is gone: in fork mode (-fork -ignore_crashes) a new child starts, loads
// LibTorch and re-runs its share of the corpus, and the children's jobs are
// short early on (job k runs k seconds). Measured on one core: 1,971 programs
// in 40 s in fork mode against 10,186 in one process. So when a campaign names
// a findings folder, a divergence is written there as `divergence-<hash>` (the
// raw input, which `stridecheck decode` reads like a crash file) and the target
// returns -1, which keeps the input out of the corpus; the process fuzzes on.
// At most kPerSignature inputs of one failure signature are written per process
// (the campaign's triage groups them anyway, and one bug is met again and
// again); real crashes and hangs still end the process, and the campaign
// restarts it.
class FindingSink {
 public:
  static constexpr int kPerSignature = 3;
  explicit FindingSink(const char* dir) : dir_(dir ? dir : "") {}
  bool enabled() const { return !dir_.empty(); }

  void save(const uint8_t* data, size_t size, const std::string& signature) {
    int& n = written_[signature];
    if (n >= kPerSignature) return;
    ++n;
    uint64_t h = 1469598103934665603ull;  // FNV-1a, 64 bits
    for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
    char name[32];
    std::snprintf(name, sizeof name, "divergence-%016llx", static_cast<unsigned long long>(h));
    const std::string path = dir_ + "/" + name, tmp = dir_ + "/." + name + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) {
      std::fprintf(stderr, "view_chain_fuzzer: cannot write %s\n", tmp.c_str());
      std::abort();
    }
    const bool ok = std::fwrite(data, 1, size, f) == size;
    if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
      std::fprintf(stderr, "view_chain_fuzzer: cannot write %s\n", path.c_str());
      std::abort();
    }
    std::fprintf(stderr, "\n=== finding: %s (%s) ===\n", signature.c_str(), path.c_str());
  }

 private:
  std::string dir_;
  std::map<std::string, int> written_;
};

enum class Mutator { Mixed, Bytes, Units };

Mutator mutator_from_env() {
  const char* m = std::getenv("STRIDECHECK_MUTATOR");
  if (m && std::strcmp(m, "bytes") == 0) return Mutator::Bytes;
  if (m && std::strcmp(m, "units") == 0) return Mutator::Units;
  return Mutator::Mixed;
}

}  // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  static const Mutator mode = mutator_from_env();
  static const sc::GeneratorPolicy policy;
  const bool units = mode == Mutator::Units || (mode == Mutator::Mixed && seed % 2 == 1);
  if (units && max_size >= 2) {
    size_t n = sc::mutate_choices(data, size, max_size, seed / 2, policy).size;
    if (n > 0) return n;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Setup setup;
  static FindingSink sink(std::getenv("STRIDECHECK_FINDINGS_DIR"));
  sc::Program program = sc::fuzz_input_program(data, size, setup.policy);
  const sc::ClaimCheckedComparison checked = sc::compare_checking_claims(
      [&] { return sc::compare_backends(program, *setup.engine, *setup.oracle, setup.options); });
  const sc::Comparison& c = checked.comparison;
  const sc::UndefinedCheck& u = checked.claims;
  if (!u.ok() && sink.enabled()) {
    sink.save(data, size, "wrong UNDEFINED claim");
    return -1;
  }
  if (!u.ok()) {
    std::fprintf(stderr, "\n=== wrong UNDEFINED claim ===\n%s\n%s", sc::print_program(program).c_str(),
                 sc::format_undefined_check(u).c_str());
    std::abort();
  }
  if (c.diff.verdict == sc::Verdict::Fail && sink.enabled()) {
    sink.save(data, size, sc::failure_signature(program, c));
    return -1;
  }
  if (c.diff.verdict == sc::Verdict::Fail) {
    std::fprintf(stderr, "\n=== divergence ===\n%s\n%s\n", sc::print_program(program).c_str(),
                 sc::format_diff(program, c.left, c.right, c.diff).c_str());
    std::abort();
  }
  return 0;
}
