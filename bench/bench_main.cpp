// main() of stridecheck_bench: fixes both sides' thread counts before any
// benchmark runs and records them (and the oracle's version) in the context
// Google Benchmark prints and writes to its JSON output.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <benchmark/benchmark.h>

#include <string>

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

}  // namespace

int main(int argc, char** argv) {
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
