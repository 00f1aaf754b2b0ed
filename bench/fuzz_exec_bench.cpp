// One fuzzer execution's work on generated programs (the fuzzer's
// generator, policy, budget and hash-only recording, without libFuzzer):
//
//   BM_FuzzExec/differential/gen64   engine:cpu and libtorch:cpu each run the
//                                    program, then the diff (compare_backends)
//   BM_FuzzExec/libtorch/gen64       libtorch:cpu alone runs the same program
//                                    through the same interpreter (the
//                                    ceiling: a differential run costs at
//                                    least this)
//   BM_FuzzExec/engine/gen64         engine:cpu alone, for the split
//
// Each iteration runs the same 64 programs (Choices::from_seed(1..64));
// ratio_table.py prints differential / libtorch. execs_per_s counts programs.
#include "bench/bench_common.h"
#include "program/backend.h"
#include "program/compare.h"
#include "program/generator.h"

namespace sc::bench {
namespace {

constexpr int kPrograms = 64;

const std::vector<Program>& programs() {
  static const std::vector<Program> ps = [] {
    std::vector<Program> out;
    GeneratorPolicy policy;
    for (int k = 1; k <= kPrograms; ++k) {
      Choices c = Choices::from_seed(static_cast<uint64_t>(k));
      out.push_back(generate_program(c, policy));
    }
    return out;
  }();
  return ps;
}

RunOptions fuzzer_options() {
  RunOptions o;
  o.record_contents = false;  // hashes; contents are re-run on a difference
  // as compare_backends reads storages back for hashes (Note [Observing only
  // the storages a step may write]), so the alone runs do the same work
  o.observe_written_only = true;
  o.budget_bytes = int64_t{64} << 20;
  return o;
}

void finish(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * kPrograms);
  state.counters["execs_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kPrograms), benchmark::Counter::kIsRate);
}

void run_alone(benchmark::State& state, const std::string& backend_name) {
  auto backend = make_backend(backend_name);
  const RunOptions o = fuzzer_options();
  for (auto _ : state)
    for (const Program& p : programs()) {
      Trace t = backend->run(p, o);
      benchmark::DoNotOptimize(t);
    }
  finish(state);
}

const bool registered = [] {
  add("FuzzExec", "differential", "gen64", [](benchmark::State& state) {
    auto engine = make_backend("engine:cpu");
    auto torch = make_backend("libtorch:cpu");
    const RunOptions o = fuzzer_options();
    for (auto _ : state)
      for (const Program& p : programs()) {
        Comparison c = compare_backends(p, *engine, *torch, o);
        benchmark::DoNotOptimize(c);
      }
    finish(state);
  })->Unit(benchmark::kMillisecond);
  add("FuzzExec", kTorch, "gen64", [](benchmark::State& s) { run_alone(s, "libtorch:cpu"); })
      ->Unit(benchmark::kMillisecond);
  add("FuzzExec", kEngine, "gen64", [](benchmark::State& s) { run_alone(s, "engine:cpu"); })
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace sc::bench
