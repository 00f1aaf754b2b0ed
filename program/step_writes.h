#pragma once
// The program values a step may write, as LibTorch defines its op (Note
// [Observing only the storages a step may write], program/traced_backend.h).
#include <array>
#include <string>

#include "program/ir.h"

namespace sc {

struct StepWrites {
  // An in-place op's self (its first argument) and an out= tensor; null where there is none.
  std::array<const std::string*, 2> names{nullptr, nullptr};
  bool unknown_op = false;  // not in the op table: it may write anything
};

StepWrites written_inputs(const Step& s);

}  // namespace sc
