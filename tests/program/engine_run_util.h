// Runs a program text through the interpreter on the CPU engine backend
// (program/backend.h), as the program tests that need no LibTorch do.
#pragma once

#include <string>

#include "program/backend.h"
#include "program/parser.h"

namespace sc::testing {

inline Trace run_on_engine(const std::string& text, const RunOptions& options = {}) {
  register_engine_backend();
  return make_backend("engine:cpu")->run(parse_program(text, "test.prog"), options);
}

}  // namespace sc::testing
