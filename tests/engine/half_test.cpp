// The NaN bits of the scalar float16/bfloat16 conversions (Note [NaN bits of
// conversions] in engine/half.h), as measured against LibTorch 1.13.1 and
// 2.15.0; the non-NaN values are checked exhaustively in
// tests/engine/kernels/cpu/half_convert_test.cpp.
#include "engine/half.h"

#include <gtest/gtest.h>

#include "engine/version_profile.h"

namespace sc::engine {
namespace {

float f(uint32_t bits) { return bits_to_float(bits); }

TEST(HalfNan, CanonicalKeepsOnlyTheSign) {
  EXPECT_EQ(float_to_half(f(0xffe00000u), HalfNan::Canonical), 0xfe00);
  EXPECT_EQ(float_to_half(f(0x7fffffffu), HalfNan::Canonical), 0x7e00);
  EXPECT_EQ(float_to_half(f(0x7f800001u), HalfNan::Canonical), 0x7e00);  // signalling
}

TEST(HalfNan, KeepPayloadQuietsAndKeepsTheTopTenBits) {
  // _cvtss_sh: float 0xffe00000 -> half 0xff00 (LibTorch 2.15).
  EXPECT_EQ(float_to_half(f(0xffe00000u), HalfNan::KeepPayload), 0xff00);
  EXPECT_EQ(float_to_half(f(0x7fffffffu), HalfNan::KeepPayload), 0x7fff);
  EXPECT_EQ(float_to_half(f(0x7f800001u), HalfNan::KeepPayload), 0x7e00);  // payload below the top 10 bits
  EXPECT_EQ(float_to_half(f(0xff810000u), HalfNan::KeepPayload), 0xfe08);  // bfloat16 0xff81 -> float16 in 2.15
  EXPECT_EQ(float_to_half(f(0xffc02000u), HalfNan::KeepPayload), 0xfe01);  // 0xfc01 * 1 in 2.15
}

TEST(HalfNan, InfinityIsNotANan) {
  for (HalfNan r : {HalfNan::Canonical, HalfNan::KeepPayload}) {
    EXPECT_EQ(float_to_half(f(0x7f800000u), r), 0x7c00);
    EXPECT_EQ(float_to_half(f(0xff800000u), r), 0xfc00);
  }
}

TEST(HalfNan, TheProfileChoosesTheRule) {
  {
    ProfileScope p("1.13");
    EXPECT_EQ(profile_half_nan(), HalfNan::Canonical);
    EXPECT_EQ(float_to_half(f(0xffe00000u)), 0xfe00);
  }
  {
    ProfileScope p("2.15");
    EXPECT_EQ(profile_half_nan(), HalfNan::KeepPayload);
    EXPECT_EQ(float_to_half(f(0xffe00000u)), 0xff00);
  }
}

TEST(HalfNan, HalfToFloatQuietsAndKeepsThePayload) {
  EXPECT_EQ(float_to_bits(half_to_float(0xfc01)), 0xffc02000u);
  EXPECT_EQ(float_to_bits(half_to_float(0x7c01)), 0x7fc02000u);
  EXPECT_EQ(float_to_bits(half_to_float(0x7fff)), 0x7fffe000u);
  EXPECT_EQ(float_to_bits(half_to_float(0x7e00)), 0x7fc00000u);
  EXPECT_EQ(float_to_bits(half_to_float(0x7c00)), 0x7f800000u);  // inf
}

TEST(BFloat16Nan, ScalarAndVectorPatterns) {
  for (uint32_t nan : {0x7fc00000u, 0xffe00000u, 0x7f800001u, 0xffffffffu}) {
    EXPECT_EQ(float_to_bfloat16(f(nan)), kBFloat16ScalarNan);
    EXPECT_EQ(float_to_bfloat16(f(nan), BFloat16Nan::Scalar), 0x7fc0);
    EXPECT_EQ(float_to_bfloat16(f(nan), BFloat16Nan::Vector), 0xffff);
  }
  EXPECT_EQ(float_to_bfloat16(f(0x7f800000u), BFloat16Nan::Vector), 0x7f80);  // inf stays inf
}

TEST(BFloat16Nan, ToFloatIsExact) {
  EXPECT_EQ(float_to_bits(bfloat16_to_float(0xff81)), 0xff810000u);  // still signalling
  EXPECT_TRUE(is_bfloat16_nan(0xff81));
  EXPECT_FALSE(is_bfloat16_nan(0xff80));
  EXPECT_TRUE(is_half_nan(0xfc01));
  EXPECT_FALSE(is_half_nan(0x7c00));
}

}  // namespace
}  // namespace sc::engine
