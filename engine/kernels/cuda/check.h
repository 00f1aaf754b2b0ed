#pragma once
// CUDA runtime errors: a failed call or launch throws std::runtime_error
// naming the call and CUDA's message (out of memory, no device, a bad launch).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace sc::engine::cuda {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorName(e) + ": " +
                             cudaGetErrorString(e));
}

// After a kernel launch: launch-configuration errors surface here.
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace sc::engine::cuda
