// Engine backend: creation, copy, in-place and elementwise ops.
#include "engine/creation.h"
#include "engine/error.h"
#include "program/engine_ops.h"

namespace sc {
namespace {

using engine::DType;
using engine::Tensor;

std::vector<engine::Scalar> scalars(const std::vector<Number>& v) {
  std::vector<engine::Scalar> out;
  for (const Number& n : v) out.push_back(to_scalar(n));
  return out;
}

// torch.tensor's dtype inference: any float -> float32, else any int -> int64, else bool.
DType infer_values_dtype(const std::vector<Number>& v) {
  bool any_float = false, any_int = false;
  for (const Number& n : v) {
    any_float |= n.is_float();
    any_int |= n.is_int();
  }
  if (any_float) return DType::Float32;
  if (any_int || v.empty()) return v.empty() ? DType::Float32 : DType::Int64;
  return DType::Bool;
}

}  // namespace

void add_engine_data_ops(EngineOpTable& t) {
  t["arange"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return std::vector<Tensor>{engine::arange(a.int_(0), dtype_or(a, DType::Float32), c.device)};
  };
  t["zeros"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return std::vector<Tensor>{engine::zeros(a.int_list(0), dtype_or(a, DType::Float32), c.device)};
  };
  t["ones"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return std::vector<Tensor>{engine::ones(a.int_list(0), dtype_or(a, DType::Float32), c.device)};
  };
  t["full"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return std::vector<Tensor>{
        engine::full(a.int_list(0), to_scalar(a.scalar(1)), dtype_or(a, DType::Float32), c.device)};
  };
  t["tensor"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    auto values = a.values(0);
    return std::vector<Tensor>{engine::tensor(scalars(values), a.values_is_scalar(0),
                                              dtype_or(a, infer_values_dtype(values)), c.device)};
  };
  t["empty_strided"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return std::vector<Tensor>{
        engine::empty_strided_iota(a.int_list(0), a.int_list(1), dtype_or(a, DType::Float32), c.device)};
  };
}

}  // namespace sc
