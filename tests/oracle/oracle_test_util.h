#pragma once
// Shared by the oracle's tests: run a program text on a LibTorch backend.
#include <string>
#include <string_view>

#include "oracle/oracle.h"
#include "program/backend.h"
#include "program/parser.h"

namespace sc::oracle::test_util {

inline Trace run(std::string_view text, std::string_view device = "cpu") {
  register_backends();
  auto backend = make_backend("libtorch:" + std::string(device));
  return backend->run(parse_program(text), RunOptions{});
}

}  // namespace sc::oracle::test_util
