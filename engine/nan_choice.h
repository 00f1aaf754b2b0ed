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

// Flags each element of `written` starting at those byte offsets, with
// written's dtype's code (nan_choice_code).
void mark_nan_choice(const Tensor& written, const std::vector<int64_t>& byte_offsets);
// Clears the flags of every element of `written` (it was just written).
void clear_nan_choice(const Tensor& written);

// The value a flagged byte holds: which dtype the chosen NaN was written as (never 0).
inline uint8_t nan_choice_code(DType d) { return static_cast<uint8_t>(1 + static_cast<uint8_t>(d)); }

// Note [NaN choices read as integers] (engine/undefined.cpp): is an element of
// dtype `read` whose `n` bytes carry these flags a read LibTorch leaves
// undefined? True when some byte is flagged and the element is not exactly a
// flagged NaN of its own floating dtype (every byte flagged with
// nan_choice_code(read)): an integer or bool read, or a floating read at
// another width or format (a float16 or bfloat16 view of a flagged float32, a
// float64 view spanning one, a bfloat16 view of a flagged float16).
bool reads_chosen_bits_as_other_data(const uint8_t* flags, int64_t n, DType read);

}  // namespace sc::engine
