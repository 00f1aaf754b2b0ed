#pragma once
// The engine backend's op table: each op family registers how a step's
// arguments map onto engine calls (program/engine_view_ops.cpp,
// program/engine_data_ops.cpp).
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/checked.h"
#include "engine/scalar.h"
#include "engine/tensor.h"
#include "program/ops.h"
#include "program/traced_backend.h"

namespace sc {

struct EngineStepContext {
  engine::Device device = engine::Device::CPU;
  // Set by an op whose result LibTorch documents as undefined (in-place op on
  // a tensor whose elements overlap): the reason, for the Observation.
  std::optional<std::string> undefined;
  // Set by an op whose outcome (error or not) depends on bytes LibTorch leaves
  // undefined: the engine backend reports the step as refused, with this reason.
  std::optional<std::string> refused;
  // Set by an op that returned its error instead of throwing it (Note [errors
  // returned, not thrown], engine/checked.h): the step raised this, and the
  // op's results are empty.
  std::optional<engine::TorchError> error;
};

using EngineOp = std::function<std::vector<engine::Tensor>(const ArgReader&, const Lookup<engine::Tensor>&,
                                                           EngineStepContext&)>;
using EngineOpTable = std::unordered_map<std::string, EngineOp>;

// Every op the engine implements (view and data families together).
const EngineOpTable& engine_op_table();

void add_engine_view_ops(EngineOpTable&);
void add_engine_data_ops(EngineOpTable&);

// Helpers shared by the op files.
engine::Scalar to_scalar(const Number&);
engine::DType dtype_or(const ArgReader&, engine::DType fallback);

}  // namespace sc
