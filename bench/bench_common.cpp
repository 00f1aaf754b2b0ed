#include "bench/bench_common.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>
#include <vector>

#include "engine/kernels/cpu/parallel.h"

#include "engine/creation.h"
#include "engine/views.h"

namespace sc::bench {

std::string pair_name(std::string_view op, std::string_view backend, std::string_view arg) {
  std::string n = "BM_";
  n.append(op).append("/").append(backend);
  if (!arg.empty()) n.append("/").append(arg);
  return n;
}

benchmark::internal::Benchmark* add(std::string_view op, std::string_view backend, std::string_view arg,
                                    std::function<void(benchmark::State&)> fn) {
  const std::string name = pair_name(op, backend, arg);
  return benchmark::RegisterBenchmark(name.c_str(), [fn = std::move(fn)](benchmark::State& s) { fn(s); });
}

namespace {
int64_t product(const engine::Shape& s) {
  int64_t n = 1;
  for (int64_t v : s) n *= v;
  return n;
}
}  // namespace

engine::Tensor engine_iota(const engine::Shape& sizes, engine::DType dtype) {
  return engine::view(engine::arange(product(sizes), dtype), sizes);
}

at::Tensor torch_iota(const engine::Shape& sizes, at::ScalarType dtype) {
  return at::arange(product(sizes), at::TensorOptions().dtype(dtype)).view(sizes);
}

std::string geometry_mismatch(const engine::Tensor& e, const at::Tensor& t) {
  const std::vector<int64_t> ts(t.sizes().begin(), t.sizes().end());
  const std::vector<int64_t> tst(t.strides().begin(), t.strides().end());
  if (e.sizes == ts && e.strides == tst && e.storage_offset == t.storage_offset()) return "";
  std::ostringstream o;
  o << "engine sizes " << engine::format_int_list(e.sizes) << " strides " << engine::format_int_list(e.strides)
    << " offset " << e.storage_offset << " vs LibTorch sizes " << engine::format_int_list(ts) << " strides "
    << engine::format_int_list(tst) << " offset " << t.storage_offset();
  return o.str();
}

bool check_same_geometry(benchmark::State& state, const engine::Tensor& e, const at::Tensor& t) {
  const std::string m = geometry_mismatch(e, t);
  if (m.empty()) return true;
  state.SkipWithError(("the two sides differ: " + m).c_str());
  return false;
}

int hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

ThreadsGuard::ThreadsGuard(int n) {
  if (n <= 0) n = hardware_threads();
  at::set_num_threads(n);
  engine::cpu::set_num_threads(n);
}

ThreadsGuard::~ThreadsGuard() {
  at::set_num_threads(1);
  engine::cpu::set_num_threads(1);
}

void add_memcpy(std::string_view op, std::string_view arg, const PairOptions& o) {
  auto b = add(op, kMemcpy, arg, [o](benchmark::State& state) {
    const size_t n = static_cast<size_t>(o.memcpy_bytes);
    const size_t rounded = (n + 63) / 64 * 64;
    std::vector<std::byte> src(n);
    for (size_t i = 0; i < n; ++i) src[i] = static_cast<std::byte>(i * 131);
    // memcpy is one thread whatever all_threads says: it is the one-thread
    // limit the all-thread variants are read against too.
    if (o.memcpy_allocates) {
      for (auto _ : state) {
        void* dst = std::aligned_alloc(64, rounded);
        std::memcpy(dst, src.data(), n);
        benchmark::DoNotOptimize(dst);
        benchmark::ClobberMemory();
        std::free(dst);
      }
    } else {
      void* dst = std::aligned_alloc(64, rounded);
      for (auto _ : state) {
        std::memcpy(dst, src.data(), n);
        benchmark::DoNotOptimize(dst);
        benchmark::ClobberMemory();
      }
      std::free(dst);
    }
    if (o.elements > 0) set_traffic(state, o.elements, o.bytes);
  });
  b->Unit(o.unit);
  if (o.min_time > 0) b->MinTime(o.min_time);
}

namespace {
std::vector<std::function<void()>>& deferred() {
  static std::vector<std::function<void()>> d;
  return d;
}
}  // namespace

void register_last(std::function<void()> registration) { deferred().push_back(std::move(registration)); }

void register_all_threads_pairs() {
  for (auto& r : deferred()) r();
  deferred().clear();
}

void set_traffic(benchmark::State& state, int64_t elements, int64_t bytes_per_iteration) {
  state.SetItemsProcessed(state.iterations() * elements);
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

}  // namespace sc::bench
