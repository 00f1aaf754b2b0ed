// libFuzzer target: bytes -> choices -> a view-chain program -> run on the
// engine and on LibTorch -> diff, and the engine's UNDEFINED claims checked by
// brute force (program/undefined_check.h). A divergence or a wrong claim
// aborts, so libFuzzer saves the input; the program text and the report are
// printed first.
//
// Deterministic, accepts any input, one-time setup in a function-local static
// (STYLE: structure-aware libFuzzer).
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "oracle/oracle.h"
#include "program/backend.h"
#include "program/compare.h"
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Setup setup;
  sc::Choices choices = sc::Choices::from_bytes(data, size);
  sc::Program program = sc::generate_program(choices, setup.policy);
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
