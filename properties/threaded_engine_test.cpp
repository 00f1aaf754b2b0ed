// The engine's threads change no trace (Note [Searched engine threads],
// program/engine_threads.h): on every generated view chain, the engine on the
// program's drawn thread count (1..4, every loop split) records the trace it
// records on one thread. Engine against engine, so it runs without LibTorch
// (and under the sanitizers); the differential property compares the
// threaded engine with LibTorch as well. A wrong piece boundary in the
// parallel split (engine/kernels/cpu/loop.h, Note [Pieces of a run]) or a
// lost last range of parallel_for fails it within the ctest sample.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties/generators.h"
#include "program/backend.h"
#include "program/diff.h"

namespace sc::properties {
namespace {

Backend& engine() {
  static std::unique_ptr<Backend> b = [] {
    register_engine_backend();
    return make_backend("engine:cpu");
  }();
  return *b;
}

RC_GTEST_PROP(ThreadedEngine, TraceIsTheOneThreadTrace, (const GeneratedProgram& g)) {
  RunOptions options;
  options.record_contents = false;
  options.budget_bytes = int64_t{16} << 20;
  Program one = g.program;
  one.engine_threads = 1;
  const Trace threaded = engine().run(g.program, options);
  const Trace single = engine().run(one, options);
  const DiffResult d = diff_traces(g.program, threaded, single);
  RC_CLASSIFY(g.program.engine_threads > 1, "engine on 2-4 threads");
  if (d.verdict != Verdict::Fail) return;
  options.record_contents = true;  // again with contents, so the diff names the first wrong element
  const Trace threaded_full = engine().run(g.program, options);
  const Trace single_full = engine().run(one, options);
  RC_FAIL(format_diff(g.program, threaded_full, single_full, diff_traces(g.program, threaded_full, single_full)));
}

}  // namespace
}  // namespace sc::properties
