// Note [NaN bits of LibTorch's loops] (engine/nan_bits.h): which elements of
// a run get the vector loop's NaN bits, as measured against LibTorch 1.13.1
// and 2.15.0 (the comments give LibTorch's bits).
#include "engine/nan_bits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/inplace.h"
#include "engine/version_profile.h"
#include "engine/views.h"

namespace sc::engine {
namespace {

uint16_t bits16(const Tensor& t, int64_t flat) {
  uint16_t v;
  std::memcpy(&v, t.storage->data() + (t.storage_offset + flat) * 2, 2);
  return v;
}
uint32_t bits32(const Tensor& t, int64_t flat) {
  uint32_t v;
  std::memcpy(&v, t.storage->data() + (t.storage_offset + flat) * 4, 4);
  return v;
}
// 'V' for a vector NaN, 's' for a scalar one, '?' otherwise, per element of a contiguous t.
std::string pattern16(const Tensor& t, uint16_t vector_nan, uint16_t scalar_nan) {
  std::string s;
  for (int64_t i = 0; i < t.numel(); ++i) {
    uint16_t b = bits16(t, i);
    s += b == vector_nan ? 'V' : b == scalar_nan ? 's' : '?';
  }
  return s;
}
Tensor filled16(int64_t n, uint16_t bits, DType d) {
  Tensor t = zeros({n}, d);
  for (int64_t i = 0; i < n; ++i) std::memcpy(t.storage->data() + i * 2, &bits, 2);
  return t;
}

TEST(NanBitsLoops, VectorEnd) {
  EXPECT_EQ(vector_end(40, kReducedFloatVectorChunk), 32);
  EXPECT_EQ(vector_end(31, kReducedFloatVectorChunk), 0);
  EXPECT_EQ(vector_end(64, kReducedFloatVectorChunk), 64);
  EXPECT_EQ(vector_end(9, kHalfToFloatCopyChunk), 8);
}

// zeros [40] bfloat16, div_ itself: 32 x 0xffff, 8 x 0x7fc0 (property seed 209).
TEST(NanBitsLoops, BFloat16DivChunksAndTail) {
  for (const char* v : {"1.13", "2.15"}) {
    ProfileScope p(v);
    Tensor d = zeros({40}, DType::BFloat16);
    div_(d, Operand::of(d));
    EXPECT_EQ(pattern16(d, 0xffff, 0x7fc0), std::string(32, 'V') + std::string(8, 's')) << v;
    Tensor small = zeros({31}, DType::BFloat16);
    div_(small, Operand::of(small));
    EXPECT_EQ(pattern16(small, 0xffff, 0x7fc0), std::string(31, 's')) << v;
  }
}

// [3,40] contiguous is one run of 120 (96 + 24); [3,35] slices of it are
// three runs of 35 (32 + 3 each); a strided run is all scalar.
TEST(NanBitsLoops, BFloat16RunsAsTensorIteratorCoalescesThem) {
  Tensor a = zeros({3, 40}, DType::BFloat16);
  div_(a, Operand::of(a));
  EXPECT_EQ(pattern16(a, 0xffff, 0x7fc0), std::string(96, 'V') + std::string(24, 's'));
  Tensor base = zeros({3, 40}, DType::BFloat16);
  Tensor b = slice(base, 1, 0, 35, 1);
  div_(b, Operand::of(b));
  const std::string row = std::string(32, 'V') + std::string(3, 's') + std::string(5, '?');
  EXPECT_EQ(pattern16(base, 0xffff, 0x7fc0), row + row + row);
  Tensor c = zeros({80}, DType::BFloat16);
  Tensor cs = slice(c, 0, 0, 80, 2);
  div_(cs, Operand::of(cs));
  EXPECT_EQ(bits16(c, 0), 0x7fc0);
  EXPECT_EQ(bits16(c, 64), 0x7fc0);
}

// A Python number operand is a stride-0 scalar: still vectorised.
TEST(NanBitsLoops, BFloat16ScalarOperandIsVectorised) {
  Tensor z = zeros({40}, DType::BFloat16);
  Tensor r = mul(z, Operand::of(Scalar::floating(std::nan(""))));
  EXPECT_EQ(pattern16(r, 0xffff, 0x7fc0), std::string(32, 'V') + std::string(8, 's'));
}

// float16 0x7c01 negated: 2.15 flips the sign bit in the vector chunks
// (0xfc01) and writes the quieted float's bits in the tail (0xfe01); 1.13
// negates in float everywhere (0xfe00).
TEST(NanBitsLoops, NegOfReducedFloatNaN) {
  {
    ProfileScope p("2.15");
    Tensor h = neg(filled16(40, 0x7c01, DType::Float16));
    EXPECT_EQ(pattern16(h, 0xfc01, 0xfe01), std::string(32, 'V') + std::string(8, 's'));
    Tensor b = neg(filled16(40, 0x7f81, DType::BFloat16));
    EXPECT_EQ(pattern16(b, 0xff81, 0x7fc0), std::string(32, 'V') + std::string(8, 's'));
  }
  {
    ProfileScope p("1.13");
    Tensor h = neg(filled16(40, 0x7c01, DType::Float16));
    EXPECT_EQ(pattern16(h, 0xfe00, 0xfe00), std::string(40, 'V'));
    Tensor b = neg(filled16(40, 0x7f81, DType::BFloat16));
    EXPECT_EQ(pattern16(b, 0xffff, 0x7fc0), std::string(32, 'V') + std::string(8, 's'));
  }
  Tensor one = neg(filled16(1, 0x3c00, DType::Float16));  // not a NaN: the sign flips
  EXPECT_EQ(bits16(one, 0), 0xbc00);
}

// float16 0xfc01 -> float32: 2.15's contiguous copy writes 0x7fffffff in the
// tail (the last n % 8), the quieted 0xffc02000 in its chunks; 1.13 quiets all.
TEST(NanBitsLoops, HalfToFloatCopyTail) {
  {
    ProfileScope p("2.15");
    Tensor f = to(filled16(9, 0xfc01, DType::Float16), DType::Float32, std::nullopt);
    for (int64_t i = 0; i < 8; ++i) EXPECT_EQ(bits32(f, i), 0xffc02000u) << i;
    EXPECT_EQ(bits32(f, 8), 0x7fffffffu);
  }
  {
    ProfileScope p("1.13");
    Tensor f = to(filled16(9, 0xfc01, DType::Float16), DType::Float32, std::nullopt);
    for (int64_t i = 0; i < 9; ++i) EXPECT_EQ(bits32(f, i), 0xffc02000u) << i;
  }
}

// float32 0xffe00000 -> float16: 2.5's contiguous copy writes 0x7fff in the
// tail (the last n % 8), 0xff00 in its chunks; 2.8 and 2.15 0xff00 in both;
// 1.13 takes no fbgemm path (0xfe00 everywhere).
TEST(NanBitsLoops, FloatToHalfCopyTail) {
  Tensor nan32 = view_dtype(full({11}, Scalar::integer(-2097152), DType::Int32), DType::Float32);
  {
    ProfileScope p("2.5");
    Tensor h = to(nan32, DType::Float16, std::nullopt);
    EXPECT_EQ(pattern16(h, 0xff00, 0x7fff), std::string(8, 'V') + std::string(3, 's'));
    Tensor strided = to(slice(nan32, 0, 0, 11, 2), DType::Float16, std::nullopt);  // the copy kernel
    EXPECT_EQ(pattern16(strided, 0xff00, 0x7fff), std::string(6, 'V'));
  }
  for (const char* v : {"2.8", "2.15"}) {
    ProfileScope p(v);
    EXPECT_EQ(pattern16(to(nan32, DType::Float16, std::nullopt), 0xff00, 0x7fff), std::string(11, 'V')) << v;
  }
  {
    ProfileScope p("1.13");
    EXPECT_EQ(pattern16(to(nan32, DType::Float16, std::nullopt), 0xfe00, 0x7fff), std::string(11, 'V'));
  }
}

// The tail is fbgemm's (copy_impl's same-sizes contiguous path): rows of 9
// sliced from a [3,12] tensor go through the copy kernel, which quiets all.
TEST(NanBitsLoops, HalfToFloatCopyOfASliceHasNoFbgemmTail) {
  ProfileScope p("2.15");
  Tensor rows = slice(view(filled16(36, 0xfc01, DType::Float16), {3, 12}), 1, 0, 9, 1);
  Tensor f = to(rows, DType::Float32, std::nullopt);
  for (int64_t i = 0; i < 27; ++i) EXPECT_EQ(bits32(f, i), 0xffc02000u) << i;
}

// float32 -> bfloat16: a contiguous copy writes 0xffff for every NaN, a
// strided one 0x7fc0; float64 -> bfloat16 has 32-element chunks.
TEST(NanBitsLoops, CopyToBFloat16) {
  Tensor nan32 = full({80}, Scalar::floating(std::nan("")), DType::Float32);
  EXPECT_EQ(pattern16(to(slice(nan32, 0, 0, 5, 1), DType::BFloat16, std::nullopt), 0xffff, 0x7fc0), "VVVVV");
  EXPECT_EQ(pattern16(to(slice(nan32, 0, 0, 80, 2), DType::BFloat16, std::nullopt), 0xffff, 0x7fc0),
            std::string(40, 's'));
  Tensor nan64 = full({40}, Scalar::floating(std::nan("")), DType::Float64);
  EXPECT_EQ(pattern16(to(nan64, DType::BFloat16, std::nullopt), 0xffff, 0x7fc0),
            std::string(32, 'V') + std::string(8, 's'));
}

// Note [Size-1 dims in the loop order]: b's size-1 dim (stride 0) leaves the
// sort to d, whose size-1 stride keeps dim 2 innermost: b's run is strided
// there, so every NaN is the scalar conversion's (LibTorch 1.13 and 2.15).
TEST(NanBitsLoops, SizeOneDimsTakePartInTheLoopOrder) {
  Tensor a = zeros({8}, DType::BFloat16);
  Tensor c = full({3}, Scalar::floating(std::nan("")), DType::Float32);
  copy_(as_strided(a, {1, 3, 2}, {0, 1, 4}, 0), as_strided(c, {1, 3, 2}, {1, 1, 0}, 0));
  EXPECT_EQ(pattern16(a, 0xffff, 0x7fc0), "sss?sss?");
  // A contiguous source: dim 1 is innermost for both, a contiguous run.
  Tensor e = zeros({8}, DType::BFloat16);
  copy_(as_strided(e, {1, 3, 2}, {0, 1, 4}, 0), as_strided(c, {1, 3, 2}, {0, 1, 0}, 0));
  EXPECT_EQ(pattern16(e, 0xffff, 0x7fc0), "VVV?VVV?");
}

// Note [One element of rank 1 or more]: one element is a contiguous run when
// the operands had the same sizes (fast_set_up); a copy_ from a source of
// other sizes keeps the strides coalescing leaves (a stride-0 source: one
// scalar conversion).
TEST(NanBitsLoops, OneElementCopyFromABroadcastSourceIsNotAContiguousRun) {
  const Scalar nan = Scalar::floating(std::nan(""));
  Tensor one = zeros({1}, DType::BFloat16);
  copy_(one, full({}, nan, DType::Float32));
  EXPECT_EQ(bits16(one, 0), 0x7fc0);
  Tensor square = zeros({1, 1}, DType::BFloat16);
  copy_(square, full({1}, nan, DType::Float32));
  EXPECT_EQ(bits16(square, 0), 0x7fc0);
  Tensor same = zeros({1, 1}, DType::BFloat16);
  copy_(same, as_strided(full({3}, nan, DType::Float32), {1, 1}, {2, 5}, 0));
  EXPECT_EQ(bits16(same, 0), 0xffff);
}

}  // namespace
}  // namespace sc::engine
