// libFuzzer target: bytes -> choices -> a view-chain program -> run on the
// engine (on 1..4 threads, every loop split: the thread count is drawn from
// the input too, Note [Searched engine threads], program/engine_threads.h)
// and on LibTorch -> diff, and the engine's UNDEFINED claims checked by
// brute force (program/undefined_check.h). A divergence or a wrong claim
// aborts, so libFuzzer saves the input; the program text and the report are
// printed first.
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
#include <memory>

#include "oracle/oracle.h"
#include "program/backend.h"
#include "program/choice_mutator.h"
#include "program/compare.h"
#include "program/engine_threads.h"
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
  sc::Program program = sc::fuzz_input_program(data, size, setup.policy);
  sc::engine::ClaimLog claims;
  sc::Comparison c = sc::compare_backends(program, *setup.engine, *setup.oracle, setup.options);
  sc::UndefinedCheck u = sc::check_undefined(claims.claims(), c.left);
  if (!u.ok()) {
    std::fprintf(stderr, "\n=== wrong UNDEFINED claim ===\n%s\n%s", sc::print_program(program).c_str(),
                 sc::format_undefined_check(u).c_str());
    std::abort();
  }
  if (c.diff.verdict == sc::Verdict::Fail) {
    std::fprintf(stderr, "\n=== divergence ===\n%s\n%s\n", sc::print_program(program).c_str(),
                 sc::format_diff(program, c.left, c.right, c.diff).c_str());
    std::abort();
  }
  return 0;
}
