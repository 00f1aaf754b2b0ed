// The differential property: on every generated view chain, the engine and
// LibTorch produce the same Observation trace (or the program is reported as
// undefined or skipped, never silently passed), and every UNDEFINED claim the
// engine takes on the way holds under brute force (program/undefined_check.h).
// The engine runs each program on the thread count drawn with it (1..4, every
// loop split: Note [Searched engine threads], program/engine_threads.h),
// LibTorch on one thread.
// A counterexample is shrunk by RapidCheck and printed as a program file
// (its first line, `#! engine-threads N`, keeps the thread count).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties/generators.h"
#include "program/backend.h"
#include "program/compare.h"
#include "program/printer.h"
#include "program/undefined_check.h"

#ifdef STRIDECHECK_HAVE_TORCH
#include "oracle/oracle.h"

namespace sc::properties {
namespace {

struct Backends {
  std::unique_ptr<Backend> engine, oracle;
  Backends() {
    register_engine_backend();
    oracle::register_backends();
    engine = make_backend("engine:cpu");
    oracle = make_backend("libtorch:cpu");
  }
};

Backends& backends() {
  static Backends b;
  return b;
}

// The law itself, on one program.
void engine_matches_libtorch(const GeneratedProgram& g) {
  RunOptions options;
  options.record_contents = false;
  options.budget_bytes = int64_t{16} << 20;
  const ClaimCheckedComparison checked =
      compare_checking_claims([&] { return compare_backends(g.program, *backends().engine, *backends().oracle, options); });
  const Comparison& c = checked.comparison;
  const UndefinedCheck& u = checked.claims;
  if (!u.ok()) RC_FAIL(print_program(g.program) + format_undefined_check(u));
  RC_CLASSIFY(c.diff.verdict == Verdict::Undefined, "undefined");
  RC_CLASSIFY(c.diff.verdict == Verdict::Skipped, "skipped");
  RC_CLASSIFY(u.too_big > 0, "an UNDEFINED claim too big to enumerate");
  RC_CLASSIFY(g.program.engine_threads > 1, "engine on 2-4 threads");
  if (c.diff.verdict == Verdict::Fail) RC_FAIL(format_diff(g.program, c.left, c.right, c.diff));
}

RC_GTEST_PROP(EngineMatchesLibTorch, OnGeneratedViewChains, (const GeneratedProgram& g)) { engine_matches_libtorch(g); }

// The same law on swarm programs only (Note [Swarm programs],
// program/generator.h): a few ops chained deep with the rarer classes of what
// they kept. A sanitized campaign's sweeper, which draws half its programs so,
// found an overflow in the engine's claim code that default programs did not
// reach, and the three engine bugs of the swarm sweeps of 2026-12-01
// (corpus/regressions/index_select_dim1_copies_self_first.prog,
// fill_stale_numel_one.prog, budget_counts_promoted_inputs.prog) came from them too.
RC_GTEST_PROP(EngineMatchesLibTorch, OnSwarmViewChains, ()) {
  GeneratorPolicy swarm;
  swarm.swarm_percent = 100;
  engine_matches_libtorch(*gen_program(swarm));
}

}  // namespace
}  // namespace sc::properties
#endif
