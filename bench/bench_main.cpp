// main() of stridecheck_bench: fixes both sides' thread counts before any
// benchmark runs and records them (and the oracle's version) in the context
// Google Benchmark prints and writes to its JSON output.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <thread>

#include "engine/kernels/cpu/half_convert.h"
#include "engine/kernels/cpu/parallel.h"
#include "oracle/oracle.h"
#include "bench/bench_common.h"
#include "program/backend.h"

namespace {

// The vector ISA LibTorch's CPU kernels dispatch to at run time (its
// "CPU capability usage: AVX2" line of at::show_config(); the enum getter is
// not exported by the shared library). The engine is compiled for the
// compiler's default target (x86-64 baseline) unless CXXFLAGS say otherwise.
std::string cpu_capability() {
  const std::string config = at::show_config();
  const std::string key = "CPU capability usage: ";
  const size_t at = config.find(key);
  if (at == std::string::npos) return "unknown";
  const size_t from = at + key.size();
  return config.substr(from, config.find('\n', from) - from);
}

// Note [shared_ptr counts in a single-threaded process]: libstdc++'s
// shared_ptr (the engine's storage handle) counts without the lock prefix
// while the process has never started a thread (__libc_single_threaded), as
// the harness runs by default (--engine-threads 1, LibTorch on one thread);
// c10::intrusive_ptr (LibTorch's tensors) always locks. A view op copies
// and drops one handle: 7-8 ns more per view on the engine's side once any
// thread has run (measured: View 8.5 -> 16.2 ns, Transpose 9.7 -> 16.6 ns). --threaded_process starts (and joins) one thread
// first, to measure that case; the run's context says which it was.
bool take_flag(int& argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], flag) == 0) {
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      return true;
    }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const bool threaded = take_flag(argc, argv, "--threaded_process");
  if (threaded) std::thread([] {}).join();
  benchmark::AddCustomContext("process", threaded ? "multi-threaded (--threaded_process: shared_ptr counts locked)"
                                                  : "single-threaded until the _AllThreads pairs (shared_ptr "
                                                    "counts unlocked: Note [shared_ptr counts in a "
                                                    "single-threaded process])");
  // One thread each side (the _AllThreads pairs switch both, bench_common.h).
  at::set_num_threads(1);
  sc::engine::cpu::set_num_threads(1);
  sc::register_engine_backend();
  sc::oracle::register_backends();
  benchmark::AddCustomContext("threads", "engine " + std::to_string(sc::engine::cpu::num_threads()) + ", LibTorch " +
                                             std::to_string(at::get_num_threads()) + "; _AllThreads pairs: both " +
                                             std::to_string(sc::bench::hardware_threads()));
  benchmark::AddCustomContext("engine_half_conversion",
                              sc::engine::cpu::half_conversions().isa);
  benchmark::AddCustomContext("libtorch", sc::oracle::libtorch_description());
  benchmark::AddCustomContext("libtorch_cpu_capability", cpu_capability());
  benchmark::AddCustomContext("build_type", STRIDECHECK_BENCH_BUILD_TYPE);
  sc::bench::register_all_threads_pairs();  // after every one-thread benchmark
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
