#pragma once
// CPU kernels. Callers have done every check (shapes, dtypes, overlap): the
// operands here all have the same sizes (inputs broadcast with stride 0).
#include <optional>

#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine::cpu {

// dst[i] = convert<dst.dtype>(src[i]) (c10::convert semantics, see types.h).
void copy(const Tensor& dst, const Tensor& src);

// Every element of dst = value, converted to dst.dtype with c10::convert
// (no overflow check here: checked_convert is the caller's business).
void fill(const Tensor& dst, const Scalar& value);

enum class BinaryOp { Add, Sub, Mul, Div };
// out = a op b; out, a and b share one dtype (the common dtype). Reduced
// floats compute in float and round once; integers wrap; bool add is `or`,
// bool mul is `and`.
void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b);

// out = -a (same dtype; integers wrap).
void neg(const Tensor& out, const Tensor& a);

// out = min(max(a, lo), hi) with lo/hi already converted to a's dtype by the
// caller (std::min/std::max semantics: a NaN `a` stays NaN).
void clamp(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi);

}  // namespace sc::engine::cpu
