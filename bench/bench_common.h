#pragma once
// Shared pieces of the side-by-side benchmarks (engine vs LibTorch).
//
// Naming: every benchmark is "BM_<Op>/<backend>[/<arg>]" with backend one of
//   engine                  the stridecheck engine (sc::engine)
//   libtorch                LibTorch as the harness uses it (normal mode)
//   libtorch_inference      LibTorch under c10::InferenceMode (view ops only)
//   memcpy                  std::memcpy of the bytes the copy writes (the
//                           bandwidth limit), allocating as the pair does
//   differential            both backends and the diff (fuzz_exec_bench.cpp)
// so scripts/bench.sh can pair "BM_X/engine/A" with "BM_X/libtorch/A" and
// print engine/LibTorch ratios (and engine/memcpy bandwidth).
//
// Threads: main() (bench_main.cpp) sets both sides to one thread
// (at::set_num_threads(1), engine::cpu::set_num_threads(1)); the
// "<Op>_AllThreads" pairs switch both to every hardware thread for their run
// (ThreadsGuard). The thread counts are printed in the run's context.
#include <ATen/ATen.h>
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/storage.h"
#include "engine/tensor.h"

namespace sc::bench {

inline constexpr std::string_view kEngine = "engine";
inline constexpr std::string_view kTorch = "libtorch";
inline constexpr std::string_view kTorchInference = "libtorch_inference";
inline constexpr std::string_view kMemcpy = "memcpy";

// Both sides on `n` threads while alive (n <= 0: every hardware thread),
// one thread again after.
class ThreadsGuard {
 public:
  explicit ThreadsGuard(int n);
  ~ThreadsGuard();
  ThreadsGuard(const ThreadsGuard&) = delete;
  ThreadsGuard& operator=(const ThreadsGuard&) = delete;
};
int hardware_threads();

// The engine as a library allocates without poisoning fresh storage (Note
// [Poisoned fresh storage], engine/storage.h); bench_main registers the
// harness's engine backend, which switches poisoning on for the FuzzExec and
// interpreter benchmarks. A pair's engine side runs with it off, as LibTorch's
// empty() writes nothing either (with it on, add's 4 MiB result was memset
// every iteration: a fifth of Add_Broadcast_AllThreads' engine time, perf).
class NoPoisonGuard {
 public:
  NoPoisonGuard() : before_(engine::poison_fresh_storage()) { engine::set_poison_fresh_storage(false); }
  ~NoPoisonGuard() { engine::set_poison_fresh_storage(before_); }
  NoPoisonGuard(const NoPoisonGuard&) = delete;
  NoPoisonGuard& operator=(const NoPoisonGuard&) = delete;

 private:
  bool before_;
};

// "BM_<op>/<backend>" or "BM_<op>/<backend>/<arg>".
std::string pair_name(std::string_view op, std::string_view backend, std::string_view arg = {});

// Registers one benchmark under pair_name(op, backend, arg).
benchmark::internal::Benchmark* add(std::string_view op, std::string_view backend, std::string_view arg,
                                    std::function<void(benchmark::State&)> fn);

// A contiguous float32 tensor of `sizes` holding 0, 1, 2, ... on each side.
engine::Tensor engine_iota(const engine::Shape& sizes, engine::DType dtype = engine::DType::Float32);
at::Tensor torch_iota(const engine::Shape& sizes, at::ScalarType dtype = at::kFloat);

// Both sides must measure the same operation: the same sizes, strides and
// storage_offset. Returns "" when they agree, else a description of the difference.
std::string geometry_mismatch(const engine::Tensor& e, const at::Tensor& t);

// Skips the benchmark (state.SkipWithError) when geometry_mismatch says they
// differ; returns false then.
bool check_same_geometry(benchmark::State& state, const engine::Tensor& e, const at::Tensor& t);

// Counters common to data-moving benchmarks: bytes processed per iteration
// (read + written) and elements per iteration.
void set_traffic(benchmark::State& state, int64_t elements, int64_t bytes_per_iteration);

struct PairOptions {
  // Per-iteration work, for the items/s and bytes/s counters (0: none).
  int64_t elements = 0;
  int64_t bytes = 0;  // read + written
  // Also register a LibTorch side run under c10::InferenceMode (view ops).
  bool inference_variant = false;
  // Seconds; 0 leaves it to --benchmark_min_time. Large copies set a floor so
  // they get more than one iteration.
  double min_time = 0;
  benchmark::TimeUnit unit = benchmark::kMicrosecond;
  // > 0: also register "BM_<op>/memcpy/<arg>", a memcpy of this many bytes;
  // memcpy_allocates: into a fresh 64-byte-aligned block each iteration
  // (freed inside the loop, as the pair's result is), else into one block
  // allocated outside the timed loop.
  int64_t memcpy_bytes = 0;
  bool memcpy_allocates = false;
  // Run both sides (and memcpy) on every hardware thread (ThreadsGuard).
  bool all_threads = false;
};

// The _AllThreads pairs run after every one-thread benchmark: their
// registrations wait here until main() calls register_all_threads_pairs()
// (LibTorch's OpenMP workers keep spinning for a while after a parallel
// region, which slowed the one-thread pairs that came after them).
void register_last(std::function<void()> registration);
void register_all_threads_pairs();

// Registers "BM_<op>/memcpy/<arg>" as PairOptions describe.
void add_memcpy(std::string_view op, std::string_view arg, const PairOptions& o);

namespace detail {
struct PairCheck {
  std::once_flag once;
  std::string mismatch;
};
}  // namespace detail

// Registers "BM_<op>/engine/<arg>" and "BM_<op>/libtorch/<arg>" (and
// ".../libtorch_inference/<arg>" when asked). make_e()/make_t() build a side's
// inputs outside the timed loop (any type); op_e(in)/op_t(in) run the
// operation once and return its result tensor, which is destroyed inside the
// timed loop on both sides. Before the first timing, both sides run once and
// their results' sizes, strides and storage_offset must agree, or both
// benchmarks are skipped with the difference as the error.
template <class MakeE, class OpE, class MakeT, class OpT>
void add_pair(std::string_view op, std::string_view arg, MakeE make_e, OpE op_e, MakeT make_t, OpT op_t,
              PairOptions o = {}) {
  auto check = std::make_shared<detail::PairCheck>();
  auto verified = [=](benchmark::State& state) {
    std::call_once(check->once, [&] {
      auto in_e = make_e();
      auto in_t = make_t();
      check->mismatch = geometry_mismatch(op_e(in_e), op_t(in_t));
    });
    if (check->mismatch.empty()) return true;
    state.SkipWithError(("the two sides differ: " + check->mismatch).c_str());
    return false;
  };
  auto finish = [o](benchmark::State& state) {
    if (o.elements > 0) set_traffic(state, o.elements, o.bytes);
  };
  auto configure = [o](benchmark::internal::Benchmark* b) {
    b->Unit(o.unit);
    if (o.min_time > 0) b->MinTime(o.min_time);
  };
  auto register_pair = [=, op = std::string(op), arg = std::string(arg)] {  // (deferred: own the names)
    configure(add(op, kEngine, arg, [=](benchmark::State& state) {
      if (!verified(state)) return;
      ThreadsGuard threads(o.all_threads ? 0 : 1);
      NoPoisonGuard no_poison;
      auto in = make_e();
      for (auto _ : state) {
        auto r = op_e(in);
        benchmark::DoNotOptimize(r);
      }
      finish(state);
    }));
    configure(add(op, kTorch, arg, [=](benchmark::State& state) {
      if (!verified(state)) return;
      ThreadsGuard threads(o.all_threads ? 0 : 1);
      auto in = make_t();
      for (auto _ : state) {
        auto r = op_t(in);
        benchmark::DoNotOptimize(r);
      }
      finish(state);
    }));
    if (o.inference_variant)
      configure(add(op, kTorchInference, arg, [=](benchmark::State& state) {
        if (!verified(state)) return;
        ThreadsGuard threads(o.all_threads ? 0 : 1);
        auto in = make_t();  // normal tensors, as the harness has; only the ops run in inference mode
        c10::InferenceMode guard;
        for (auto _ : state) {
          auto r = op_t(in);
          benchmark::DoNotOptimize(r);
        }
        finish(state);
      }));
    if (o.memcpy_bytes > 0) add_memcpy(op, arg, o);
  };
  if (o.all_threads) register_last(register_pair);
  else register_pair();
}

}  // namespace sc::bench
