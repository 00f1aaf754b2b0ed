#pragma once
// The kernels' dispatch points: the device-independent engine code (copy.cpp,
// elementwise.cpp, inplace.cpp, creation.cpp) decides shapes, dtypes, layouts,
// errors and overlap, then calls these, which run engine/kernels/cpu or the
// device's kernels by the destination's device. Operands share the
// destination's device, except a wrapped number (a 0-d CPU tensor) given to a
// CUDA binary kernel, as LibTorch passes CPU scalars to its CUDA kernels.
#include <cstddef>
#include <optional>
#include <string>

#include "engine/kernels/cpu/kernels.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine {

using cpu::BinaryOp;

// The kernels and memory of one non-CPU device, as its kernel library
// (engine/kernels/cuda) registers them; the engine itself never links that library.
struct DeviceKernels {
  const char* name;  // "cuda"
  // Number of usable devices; 0 with `why` set when there is none.
  int (*device_count)(std::string* why);
  std::byte* (*allocate_zeroed)(int64_t nbytes);
  std::byte* (*allocate)(int64_t nbytes);  // contents unspecified
  void (*free)(std::byte* p);
  void (*to_host)(std::byte* host, const std::byte* device, int64_t nbytes);
  void (*from_host)(std::byte* device, const std::byte* host, int64_t nbytes);
  void (*device_to_device)(std::byte* dst, const std::byte* src, int64_t nbytes);
  void (*copy)(const Tensor& dst, const Tensor& src);
  void (*fill)(const Tensor& dst, const Scalar& value);
  void (*binary)(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b);
  void (*neg)(const Tensor& out, const Tensor& a);
  void (*clamp)(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi);
};

// Called once by the CUDA kernel library (sc::engine::cuda::install()).
void register_cuda_kernels(const DeviceKernels* kernels);
// The registered CUDA kernels, or nullptr.
const DeviceKernels* cuda_kernels();
// The kernels of a non-CPU device `d` (asserts they are registered).
const DeviceKernels& device_kernels(Device d);

namespace kernels {

void copy(const Tensor& dst, const Tensor& src);
void fill(const Tensor& dst, const Scalar& value);
// nan_choices: CPU only (cpu::binary); null for other devices.
void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
            std::vector<int64_t>* nan_choices = nullptr);
void neg(const Tensor& out, const Tensor& a);
void clamp(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi);

}  // namespace kernels
}  // namespace sc::engine
