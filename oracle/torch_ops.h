#pragma once
// The oracle's op table: each op family registers how a step's arguments map
// onto the LibTorch C++ API (oracle/torch_view_ops.cpp, oracle/torch_data_ops.cpp).
// The mirror of program/engine_ops.h; arguments are read through the same
// ArgReader, so defaults come from program/ops.h on both sides.
#include <ATen/core/Tensor.h>

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/dtype.h"
#include "program/ops.h"
#include "program/traced_backend.h"

namespace sc::oracle {

struct TorchStepContext {
  at::Device device = at::kCPU;
  at::TensorOptions options(at::ScalarType dtype) const { return at::TensorOptions().device(device).dtype(dtype); }
};

using TorchOp =
    std::function<std::vector<at::Tensor>(const ArgReader&, const Lookup<at::Tensor>&, TorchStepContext&)>;
using TorchOpTable = std::unordered_map<std::string, TorchOp>;

// Shorthands of the op files' lambdas: t["view"] = [](Args a, Env env, Ctx c) {...}.
namespace op_files {
using T = at::Tensor;
using Args = const ArgReader&;
using Env = const Lookup<at::Tensor>&;
using Ctx = TorchStepContext&;
inline std::vector<T> one(T t) { return {std::move(t)}; }
}  // namespace op_files

void add_torch_view_ops(TorchOpTable&);
void add_torch_data_ops(TorchOpTable&);
// Both families, built once.
const TorchOpTable& torch_op_table();

// Conversions between the program language and LibTorch (oracle/torch_convert.cpp).
at::ScalarType to_scalar_type(engine::DType);
// nullopt for ScalarTypes outside the language (complex, quantized, ...).
std::optional<engine::DType> to_engine_dtype(at::ScalarType);
// The program's dtype name ("float32"); LibTorch's own name for types outside the language.
std::string dtype_name(at::ScalarType);
// dtype= of the step, else `fallback`.
at::ScalarType dtype_or(const ArgReader&, at::ScalarType fallback);
std::optional<at::ScalarType> kw_dtype(const ArgReader&);
// LibTorch's Scalar keeps the kind: `1` is integral, `1.0` floating, `true` boolean.
at::Scalar to_scalar(const Number&);
at::MemoryFormat to_memory_format(FormatArg);
c10::optional<at::MemoryFormat> kw_memory_format(const ArgReader&);

// LibTorch 1.13's c10::optional is its own type (2.x: std::optional).
template <class V>
c10::optional<V> to_c10(const std::optional<V>& o) {
  if (o) return *o;
  return c10::nullopt;
}

}  // namespace sc::oracle
