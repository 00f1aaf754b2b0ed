#include "engine/kernels/kernels.h"

#include <atomic>

#include "engine/error.h"

namespace sc::engine {

namespace {
std::atomic<const DeviceKernels*> registered_cuda{nullptr};
}

void register_cuda_kernels(const DeviceKernels* k) { registered_cuda.store(k); }
const DeviceKernels* cuda_kernels() { return registered_cuda.load(); }

const DeviceKernels& device_kernels(Device d) {
  SC_ASSERT(d == Device::CUDA, "device_kernels(CPU)");
  const DeviceKernels* k = cuda_kernels();
  SC_ASSERT(k != nullptr, "a CUDA tensor without CUDA kernels (engine::cuda::install() not called)");
  return *k;
}

namespace kernels {

void copy(const Tensor& dst, const Tensor& src) {
  if (dst.device() == Device::CPU) return cpu::copy(dst, src);
  device_kernels(dst.device()).copy(dst, src);
}
void fill(const Tensor& dst, const Scalar& value) {
  if (dst.device() == Device::CPU) return cpu::fill(dst, value);
  device_kernels(dst.device()).fill(dst, value);
}
void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b, std::vector<int64_t>* nan_choices) {
  if (out.device() == Device::CPU) return cpu::binary(op, out, a, b, nan_choices);
  SC_ASSERT(nan_choices == nullptr, "NaN choices are found by the CPU kernels only");
  device_kernels(out.device()).binary(op, out, a, b);
}
void neg(const Tensor& out, const Tensor& a) {
  if (out.device() == Device::CPU) return cpu::neg(out, a);
  device_kernels(out.device()).neg(out, a);
}
void clamp(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi) {
  if (out.device() == Device::CPU) return cpu::clamp(out, a, lo, hi);
  device_kernels(out.device()).clamp(out, a, lo, hi);
}

}  // namespace kernels
}  // namespace sc::engine
