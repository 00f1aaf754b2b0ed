#pragma once
// CPU kernels. Callers have done every check (shapes, dtypes, overlap): the
// operands here all have the same sizes (inputs broadcast with stride 0).
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine::cpu {

// dst[i] = convert<dst.dtype>(src[i]) (c10::convert semantics, see types.h).
void copy(const Tensor& dst, const Tensor& src);
// copy when the operands' sizes were not LibTorch's: a copy_ whose src was
// broadcast to dst's sizes never takes copy_impl's fbgemm path, so no fbgemm
// tail NaNs (Note [NaN bits of LibTorch's loops]).
void copy_kernel_only(const Tensor& dst, const Tensor& src);
// copy_kernel_only for a src of other sizes broadcast to dst's: LibTorch's
// iterator then never takes fast_set_up, so one element is not always a
// contiguous run (Note [One element of rank 1 or more], copy_kernel.cpp).
void copy_broadcast(const Tensor& dst, const Tensor& src);
// The same values without the copy loop's own NaN bits (Note [NaN bits of
// LibTorch's loops]): what a kernel's load-and-convert gives, for the
// engine's float32 temporaries of reduced-float arithmetic.
void convert(const Tensor& dst, const Tensor& src);

// Every element of dst = value, converted to dst.dtype with c10::convert
// (no overflow check here: checked_convert is the caller's business).
void fill(const Tensor& dst, const Scalar& value);

enum class BinaryOp { Add, Sub, Mul, Div };
// out = a op b; out, a and b share one dtype (the common dtype). Reduced
// floats compute in float and round once; integers wrap; bool add is `or`,
// bool mul is `and`.
// nan_choices (may be null): the kernel appends the byte offsets, in out's
// storage, of the float16/float32/float64 elements whose operands are both
// NaNs with different bits, each seen before its element is written (Note
// [NaN operand choice found by the kernel], nan_pair_scan.h); in no
// particular order.
void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b,
            std::vector<int64_t>* nan_choices = nullptr);

// Rewrites the NaNs of a bfloat16 `out` as LibTorch's unary loop over (out,
// in) writes them (Note [NaN bits of LibTorch's loops]): 0xffff in the vector
// chunks of a contiguous run, 0x7fc0 elsewhere. For results the engine
// computes through a float32 temporary (the opmath scalar path); a no-op for
// other dtypes.
void vector_loop_nans(const Tensor& out, const Tensor& in);

// out = -a (same dtype; integers wrap).
void neg(const Tensor& out, const Tensor& a);

// out = min(max(a, lo), hi) with lo/hi already converted to a's dtype by the
// caller (std::min/std::max semantics: a NaN `a` stays NaN).
void clamp(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi);

}  // namespace sc::engine::cpu
