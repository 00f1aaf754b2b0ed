#include "bench/bench_common.h"

#include <sstream>

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

void set_traffic(benchmark::State& state, int64_t elements, int64_t bytes_per_iteration) {
  state.SetItemsProcessed(state.iterations() * elements);
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

}  // namespace sc::bench
