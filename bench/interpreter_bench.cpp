// A whole program through TracedBackend (program/traced_backend.h):
// make_backend("engine:cpu") vs make_backend("libtorch:cpu") running a
// 10-step view chain over a 1 KiB and a 16 KiB storage, with full storage
// contents kept after every step (record_contents, as `stridecheck replay`
// records them) and with hashes only (as the fuzzer runs). Each iteration is one Backend::run: a fresh
// environment, the creation step's allocation, every view, and the
// Observation trace (facts, versions, storage hashes or contents).
//
// BM_FuzzerExec is one fuzzer execution's work on this program: both
// backends and the diff (compare_backends with the fuzzer's options); it has
// no pair, and bounds the fuzzer's executions per second from above.
#include "bench/bench_common.h"
#include "program/backend.h"
#include "program/compare.h"
#include "program/parser.h"

namespace sc::bench {
namespace {

// arange n, then nine views (n = 256 or 4096: a 1 KiB or 16 KiB storage).
std::string view_chain(int64_t n) {
  const std::string w = std::to_string(n / 16), h = std::to_string(n / 32);
  return "a = arange " + std::to_string(n) +
         "\n"
         "b = view a [16," + w + "]\n"
         "c = transpose b 0 1\n"
         "d = slice c 0 0 " + w + " 2\n"
         "e = unsqueeze d 0\n"
         "f = expand e [4," + h + ",16]\n"
         "g = permute f [2,0,1]\n"
         "h = select g 0 3\n"
         "i = unfold h 1 8 8\n"
         "j = diagonal i 0 0 1\n";
}

RunOptions options(bool record_contents) {
  RunOptions o;
  o.record_contents = record_contents;
  o.budget_bytes = int64_t{64} << 20;  // the fuzzer's budget
  return o;
}

void run_program(benchmark::State& state, const std::string& backend_name, int64_t n, bool record_contents) {
  const Program program = parse_program(view_chain(n), "view_chain");
  auto backend = make_backend(backend_name);
  const RunOptions o = options(record_contents);
  {
    // Every step must run (no error, nothing skipped) or the timing means little.
    const Trace t = backend->run(program, o);
    for (size_t i = 0; i < t.steps.size(); ++i)
      if (t.steps[i].outcome != Outcome::Ok) {
        state.SkipWithError(("step " + std::to_string(i + 1) + " of the view chain did not run: " +
                             std::string(outcome_name(t.steps[i].outcome)) + " " + t.steps[i].error_message)
                                .c_str());
        return;
      }
  }
  for (auto _ : state) {
    Trace t = backend->run(program, o);
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(program.steps.size()));
  state.counters["programs_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                        benchmark::Counter::kIsRate);
}

const bool registered = [] {
  for (int64_t n : {256, 4096})
    for (bool contents : {true, false}) {
      const std::string arg = std::string(contents ? "contents" : "hashes") + "/" + std::to_string(n);
      add("Interpreter_ViewChain10", kEngine, arg,
          [=](benchmark::State& s) { run_program(s, "engine:cpu", n, contents); })
          ->Unit(benchmark::kMicrosecond);
      add("Interpreter_ViewChain10", kTorch, arg,
          [=](benchmark::State& s) { run_program(s, "libtorch:cpu", n, contents); })
          ->Unit(benchmark::kMicrosecond);
    }
  benchmark::RegisterBenchmark("BM_FuzzerExec/engine_vs_libtorch/ViewChain10/4096", [](benchmark::State& state) {
    const Program program = parse_program(view_chain(4096), "view_chain");
    auto engine = make_backend("engine:cpu");
    auto torch = make_backend("libtorch:cpu");
    const RunOptions o = options(false);
    if (compare_backends(program, *engine, *torch, o).diff.verdict == Verdict::Fail) {
      state.SkipWithError("the backends diverge on the view chain");
      return;
    }
    for (auto _ : state) {
      Comparison c = compare_backends(program, *engine, *torch, o);
      benchmark::DoNotOptimize(c);
    }
    state.counters["execs_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  })->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace
}  // namespace sc::bench
