#pragma once
// The engine's CUDA half: device memory and the same kernels as
// engine/kernels/cpu/kernels.h (same contracts: callers have done every check,
// operands share the destination's sizes), for tensors whose storage is on
// the GPU. A binary kernel also takes a 0-d CPU tensor (a wrapped number) as
// its second operand, read on the host and passed as a kernel argument, as
// LibTorch does with CPU scalars (Note [CPU scalars in CUDA kernels]).
//
// Only this library (stridecheck_cuda) includes CUDA headers; the engine
// reaches it through engine/kernels/kernels.h once install() has run.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/kernels/cpu/kernels.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine::cuda {

// Registers these kernels with the engine (idempotent). Where there is no
// usable GPU it still registers: device_count() then says why.
void install();

// Usable GPUs; 0 with `why` (the CUDA runtime's words) when there is none.
int device_count(std::string* why);

// Zero-filled device bytes, from a cache of freed blocks when one fits
// (memory.cu); free() returns a block to that cache, empty_cache() to CUDA.
std::byte* allocate_zeroed(int64_t nbytes);
std::byte* allocate(int64_t nbytes);  // contents unspecified (a block reused as it is)
void free(std::byte* p);
void empty_cache();
void to_host(std::byte* host, const std::byte* device, int64_t nbytes);
void from_host(std::byte* device, const std::byte* host, int64_t nbytes);
void device_to_device(std::byte* dst, const std::byte* src, int64_t nbytes);
// Waits for every kernel launched so far (benchmarks).
void synchronize();

void copy(const Tensor& dst, const Tensor& src);
void fill(const Tensor& dst, const Scalar& value);
void binary(cpu::BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b);
void neg(const Tensor& out, const Tensor& a);
void clamp(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi);

}  // namespace sc::engine::cuda
