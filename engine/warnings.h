#pragma once
// Warnings raised by engine ops (TORCH_WARN), collected per thread and taken by
// the interpreter after each step. LibTorch's TORCH_WARN_ONCE warnings are
// compared as if warn_always were on (the oracle sets it).
#include <string>
#include <vector>

namespace sc::engine {

void warn(std::string message);
std::vector<std::string> take_warnings();

}  // namespace sc::engine
