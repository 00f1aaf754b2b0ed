#pragma once
// The LibTorch oracle: registers the backends libtorch:cpu, libtorch:meta and
// (where LibTorch has CUDA and a GPU is present) libtorch:cuda.
#include <string>

namespace sc::oracle {

void register_backends();
// "1.13.1" as LibTorch reports it (TORCH_VERSION).
std::string libtorch_version();
// The version and, when a Debian package provides LibTorch, the package and its
// version (Debian's libtorch-dev 1.13.1 reports 1.13.0 in its headers).
std::string libtorch_description();

}  // namespace sc::oracle
