// Note [NaN operand choice] (engine/nan_choice.h): the engine flags the
// elements whose NaN bits LibTorch's compiled loops choose between two NaN
// operands, carries the flag through copies and arithmetic, and clears it
// when the element is written over.
#include "engine/nan_choice.h"

#include <gtest/gtest.h>

#include <cstring>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/inplace.h"
#include "engine/views.h"

namespace sc::engine {
namespace {

Tensor float32_bits(std::initializer_list<uint32_t> bits) {
  Tensor t = zeros({static_cast<int64_t>(bits.size())}, DType::Float32);
  int64_t i = 0;
  for (uint32_t b : bits) std::memcpy(t.storage->data() + 4 * i++, &b, 4);
  return t;
}
bool undefined(const Tensor& t, int64_t element) {
  const auto& m = t.storage->undefined_mask();
  return !m.empty() && m[static_cast<size_t>((t.storage_offset + element) * itemsize(t.dtype))] != 0;
}
bool flagged(const Tensor& t, int64_t element) {
  const auto& m = t.storage->nan_choice_mask();
  const int64_t item = itemsize(t.dtype);
  return !m.empty() && m[static_cast<size_t>((t.storage_offset + element) * item)] != 0;
}

TEST(NanChoice, TwoDifferentNanOperandsAreFlagged) {
  // element 0: two different NaNs; 1: the same NaN twice; 2: one NaN; 3: numbers
  Tensor a = float32_bits({0x7fc00001u, 0x7fc00000u, 0x7fc00000u, 0x3f800000u});
  Tensor b = float32_bits({0xffc00002u, 0x7fc00000u, 0x3f800000u, 0x3f800000u});
  Tensor r = add(a, Operand::of(b));
  EXPECT_TRUE(flagged(r, 0));
  EXPECT_FALSE(flagged(r, 1));
  EXPECT_FALSE(flagged(r, 2));
  EXPECT_FALSE(flagged(r, 3));
  EXPECT_FALSE(a.storage->has_nan_choice());
}

// Long contiguous runs of each floating dtype (elements_choosing_between_nans
// skips a run of `a` with no NaN at all): exactly the elements where both
// operands are NaNs with different bits are flagged, wherever they lie;
// infinities are numbers.
TEST(NanChoice, DifferentNansAreFoundAnywhereInLongRuns) {
  struct Case {
    DType dtype;
    uint64_t nan_a, nan_b, inf;
  };
  for (const Case& c : {Case{DType::Float16, 0x7e01, 0xfe00, 0x7c00},
                        Case{DType::Float32, 0x7f800001u, 0xffc00000u, 0x7f800000u},
                        Case{DType::Float64, 0x7ff0000000000001ull, 0xfff8000000000000ull, 0x7ff0000000000000ull}}) {
    const int64_t n = 37, item = itemsize(c.dtype);
    Tensor a = zeros({n}, c.dtype), b = zeros({n}, c.dtype);
    auto put = [&](Tensor& t, int64_t i, uint64_t bits) { std::memcpy(t.storage->data() + i * item, &bits, item); };
    for (int64_t i : {0, 17, 36}) {
      put(a, i, c.nan_a);
      put(b, i, c.nan_b);
    }
    put(a, 5, c.nan_a);  // one NaN operand: not a choice
    put(a, 9, c.inf);
    put(b, 9, c.nan_b);
    put(a, 20, c.nan_a);  // the same NaN twice: not a choice
    put(b, 20, c.nan_a);
    const std::vector<int64_t> found = elements_choosing_between_nans(a, a, b);
    EXPECT_EQ(found, (std::vector<int64_t>{0, 17 * item, 36 * item})) << dtype_name(c.dtype);
    EXPECT_TRUE(elements_choosing_between_nans(b, b, b).empty());
  }
}

TEST(NanChoice, InPlaceOpsLookAtTheOperandsBeforeTheyAreOverwritten) {
  Tensor a = float32_bits({0x7fc00001u, 0x3f800000u});
  Tensor b = float32_bits({0xffc00002u, 0x3f800000u});
  mul_(a, Operand::of(b));
  EXPECT_TRUE(flagged(a, 0));
  EXPECT_FALSE(flagged(a, 1));
}

TEST(NanChoice, BFloat16ResultsAreNeverFlagged) {
  Tensor a = zeros({2}, DType::BFloat16), b = zeros({2}, DType::BFloat16);
  const uint16_t x = 0x7fc1, y = 0xffc2;
  std::memcpy(a.storage->data(), &x, 2);
  std::memcpy(b.storage->data(), &y, 2);
  Tensor r = add(a, Operand::of(b));
  EXPECT_FALSE(r.storage->has_nan_choice());
}

TEST(NanChoice, FlagsFollowCopiesAndArithmeticAndClearWhenWrittenOver) {
  Tensor a = float32_bits({0x7fc00001u, 0x3f800000u});
  Tensor b = float32_bits({0xffc00002u, 0x3f800000u});
  Tensor r = add(a, Operand::of(b));
  Tensor c = clone(r);
  EXPECT_TRUE(flagged(c, 0));
  EXPECT_FALSE(flagged(c, 1));
  Tensor h = to(r, DType::Float16, std::nullopt);
  EXPECT_TRUE(flagged(h, 0));
  Tensor m = mul(r, Operand::of(Scalar::integer(2)));  // the chosen NaN flows through
  EXPECT_TRUE(flagged(m, 0));
  fill_(r, Scalar::floating(1.0));
  EXPECT_FALSE(r.storage->has_nan_choice());
}

// copy_'s fbgemm float16 -> float32 path over its own source (Note [copy_'s
// fbgemm path over its own source], engine/inplace.cpp) writes every element
// of self: self's chosen NaNs written over by numbers are no longer chosen
// (they stayed flagged: CI's generated sample, seed 20286462).
TEST(NanChoice, CopyOverItsOwnFloat16SourceClearsTheChosenNaNsItWritesOver) {
  const uint32_t nan_a = 0x7fc00001u, nan_b = 0xffc00002u, one = 0x3f800000u;
  Tensor a = float32_bits({nan_a, nan_a, nan_a, nan_a, one, one, one, one});
  Tensor b = float32_bits({nan_b, nan_b, nan_b, nan_b, one, one, one, one});
  Tensor r = add(a, Operand::of(b));  // elements 0..3 flagged, 4..7 hold 2.0
  ASSERT_TRUE(flagged(r, 0));
  Tensor src = narrow(view_dtype(r, DType::Float16), 0, 8, 8);  // r's bytes 16..31 as float16: numbers
  copy_(r, src);
  for (int64_t k = 0; k < 8; ++k) EXPECT_FALSE(flagged(r, k)) << "element " << k;
  EXPECT_FALSE(r.storage->has_nan_choice());
}

// Note [NaN choices read as integers] (engine/undefined.cpp): the chosen bits
// read as an integer are two different numbers, so what is computed from them
// is undefined; a floating read still carries the flag (generated seed 6832213).
TEST(NanChoice, ChosenBitsReadAsIntegersMakeUndefinedResults) {
  Tensor a = float32_bits({0x7fc00001u, 0x3f800000u});
  Tensor b = float32_bits({0xffc00002u, 0x3f800000u});
  Tensor r = add(a, Operand::of(b));
  Tensor bits = view_dtype(r, DType::Int32);
  Tensor i = add(bits, Operand::of(Scalar::integer(1)));
  EXPECT_TRUE(undefined(i, 0));
  EXPECT_FALSE(undefined(i, 1));
  Tensor f = to(bits, DType::Float32, std::nullopt);
  EXPECT_TRUE(undefined(f, 0));
  EXPECT_FALSE(undefined(f, 1));
  Tensor c = clone(r);  // a floating read: flagged, not undefined
  EXPECT_TRUE(flagged(c, 0));
  EXPECT_FALSE(c.storage->has_undefined_bytes());
}

// The same class at another width or format (Note [NaN choices read as
// integers]): a float16, bfloat16 or float64 view of a flagged float32 reads
// its bytes as other numbers (the low half of 0x7fc00001 vs 0x7fc00000 is
// 6e-8 vs 0), and so does a bfloat16 view of a flagged float16; a read of the
// NaN in its own dtype stays flagged, not undefined.
TEST(NanChoice, ChosenBitsReadAtAnotherWidthMakeUndefinedResults) {
  Tensor a = float32_bits({0x7fc00001u, 0x3f800000u, 0x3f800000u});
  Tensor b = float32_bits({0xffc00000u, 0x3f800000u, 0x3f800000u});
  Tensor r = add(a, Operand::of(b));  // element 0 flagged
  Tensor halves = to(view_dtype(r, DType::Float16), DType::Float32, std::nullopt);
  EXPECT_TRUE(undefined(halves, 0));
  EXPECT_TRUE(undefined(halves, 1));
  EXPECT_FALSE(undefined(halves, 2));
  Tensor brain = clone(view_dtype(r, DType::BFloat16));
  EXPECT_TRUE(undefined(brain, 0));
  EXPECT_FALSE(undefined(brain, 3));
  Tensor wide = mul(view_dtype(narrow(r, 0, 0, 2), DType::Float64), Operand::of(Scalar::integer(2)));
  EXPECT_TRUE(undefined(wide, 0));  // spans the flagged float32 and its neighbour
  Tensor same = clone(r);
  EXPECT_TRUE(flagged(same, 0));
  EXPECT_FALSE(same.storage->has_undefined_bytes());

  // A float16 NaN pair: read as float16 it stays flagged, as bfloat16 it is two numbers.
  Tensor h = view_dtype(a, DType::Float16), g = view_dtype(b, DType::Float16);
  Tensor hr = add(h, Operand::of(g));  // float16 elements 0 (0x0001 vs 0x0000: no NaNs) and 1 (0x7fc0 vs 0xffc0)
  EXPECT_TRUE(flagged(hr, 1));
  EXPECT_FALSE(clone(hr).storage->has_undefined_bytes());
  Tensor as_brain = clone(view_dtype(hr, DType::BFloat16));
  EXPECT_TRUE(undefined(as_brain, 1));
  EXPECT_FALSE(undefined(as_brain, 0));

  // Half of a flagged float32 written over: the other half's chosen bits make
  // the float32 element another number, so a float32 read of it is undefined
  // (the other half is undefined now: Note [A write that cuts a chosen NaN]).
  fill_(select(view_dtype(r, DType::Float16), 0, 1), Scalar::floating(1.0));
  EXPECT_FALSE(r.storage->has_nan_choice());
  Tensor after = clone(r);
  EXPECT_TRUE(undefined(after, 0));
  EXPECT_FALSE(undefined(after, 1));
}

// Note [A write that cuts a chosen NaN] (engine/nan_choice.cpp): the top two
// bytes of a flagged float64 written as an int16 leave its other six bytes
// holding the loop's chosen payload in an element that is no NaN any more:
// they are undefined, their flags gone; a write of the whole element, or of
// an unflagged neighbour, leaves nothing undefined (2.0.1 seed 90820756).
TEST(NanChoice, AWriteThatCutsAChosenNanLeavesTheRestUndefined) {
  auto float64_bits = [](std::initializer_list<uint64_t> bits) {
    Tensor t = zeros({static_cast<int64_t>(bits.size())}, DType::Float64);
    int64_t i = 0;
    for (uint64_t b : bits) std::memcpy(t.storage->data() + 8 * i++, &b, 8);
    return t;
  };
  auto undefined_byte = [](const Tensor& t, int64_t b) {
    const auto& m = t.storage->undefined_mask();
    return !m.empty() && m[static_cast<size_t>(b)] != 0;
  };
  const uint64_t one = 0x3ff0000000000000ull;
  Tensor a = float64_bits({0x7ff8000020000000ull, one, 0x7ff8000020000000ull});
  Tensor b = float64_bits({0x7ff8000000000000ull, one, 0x7ff8000000000000ull});
  Tensor r = mul(a, Operand::of(b));  // elements 0 and 2 flagged
  ASSERT_TRUE(flagged(r, 0));
  Tensor halves = view_dtype(r, DType::Int16);
  fill_(narrow(halves, 0, 4, 4), Scalar::integer(7));  // element 1, unflagged: nothing cut
  EXPECT_FALSE(r.storage->has_undefined_bytes());
  fill_(narrow(halves, 0, 3, 1), Scalar::integer(-1));  // the top int16 of element 0
  for (int64_t k = 0; k < 6; ++k) EXPECT_TRUE(undefined_byte(r, k)) << "byte " << k;
  for (int64_t k = 6; k < 24; ++k) EXPECT_FALSE(undefined_byte(r, k)) << "byte " << k;
  EXPECT_FALSE(flagged(r, 0));
  EXPECT_TRUE(flagged(r, 2));
  fill_(select(r, 0, 2), Scalar::floating(1.0));  // element 2 written whole
  EXPECT_FALSE(r.storage->has_nan_choice());
  EXPECT_FALSE(undefined_byte(r, 16));
}

}  // namespace
}  // namespace sc::engine
