#pragma once
// SC_HOST_DEVICE marks a function nvcc compiles for the host and the device
// (the element conversions and the launch arithmetic shared by engine/kernels/cpu
// and engine/kernels/cuda, so the two cannot drift). Plain C++ compilers see nothing.
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define SC_HOST_DEVICE __host__ __device__
#else
#define SC_HOST_DEVICE
#endif

namespace sc::engine {

// The bits of a float and back (std::bit_cast, usable in device code).
SC_HOST_DEVICE inline float bits_to_float(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}
SC_HOST_DEVICE inline uint32_t float_to_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}

}  // namespace sc::engine
