#pragma once
// The LibTorch oracle: registers the backends libtorch:cpu, libtorch:meta and
// (where LibTorch has CUDA and a GPU is present) libtorch:cuda.
#include <string>

namespace sc::oracle {

void register_backends();
// "1.13.1" as LibTorch reports it (TORCH_VERSION).
std::string libtorch_version();

}  // namespace sc::oracle
