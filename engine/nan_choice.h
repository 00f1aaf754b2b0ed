#pragma once
// Note [NaN operand choice]: when both operands of add, sub, mul or div are
// NaNs with different bits, x86 returns the first operand's NaN (quieted),
// and which operand comes first is the compiler's choice, loop by loop:
// LibTorch's add/sub compute other * alpha + self and return other's NaN;
// 2.15's float16 add returns the second operand's NaN in its vector chunks
// and the first's in its tail; 1.13's float32 mul of three elements returned
// the second operand's NaN for element 0 and the first's for elements 1 and 2
// (an unrolled loop). Those bits are LibTorch's own loops disagreeing, not a
// rule the engine can imitate, so the engine flags the bytes of such results
// (and of values computed or copied from them) in its storage, and the diff
// compares them as NaNs (Note [NaN bits] in program/diff.cpp). bfloat16
// results are not flagged: their NaN bits never depend on the operands'
// (Note [NaN bits of conversions], engine/half.h). Writing over an element
// clears its flag.
#include <cstdint>
#include <vector>

#include "engine/tensor.h"

namespace sc::engine {

// Byte offsets (in written's storage) of the elements of `written` computed
// from a and b (broadcast to written's sizes, one floating dtype) where both
// are NaNs with different bits. CPU storages only (empty otherwise).
std::vector<int64_t> elements_choosing_between_nans(const Tensor& written, const Tensor& a, const Tensor& b);

// Byte offsets of the elements of `written` whose element of `read`
// (broadcast) is flagged: a value computed or copied from a flagged NaN.
std::vector<int64_t> elements_reading_nan_choice(const Tensor& written, const Tensor& read);

void mark_nan_choice(const Tensor& written, const std::vector<int64_t>& byte_offsets);
// Clears the flags of every element of `written` (it was just written).
void clear_nan_choice(const Tensor& written);

}  // namespace sc::engine
