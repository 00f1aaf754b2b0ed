#include "program/chosen_nans.h"

#include <gtest/gtest.h>

#include <cstring>

#include "engine/dtype.h"
#include "engine/nan_choice.h"

namespace sc {
namespace {

// Note [Chosen NaNs checked]: every whole element flagged with a floating
// dtype's code must hold a NaN of that dtype; partly overwritten elements,
// non-floating codes and undefined bytes are not checked.
TEST(ChosenNaNs, FindsTheFirstFlaggedElementHoldingANumber) {
  using engine::DType;
  const uint8_t f32 = engine::nan_choice_code(DType::Float32), f16 = engine::nan_choice_code(DType::Float16);
  std::vector<uint8_t> bytes(16, 0), flags(16, 0), none;
  const float values[4] = {0.f, 1.f, 2.f, 3.f};
  std::memcpy(bytes.data(), values, 16);
  for (int k = 4; k < 8; ++k) flags[k] = f32;
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, flags, none), 4);  // 1.0, flagged
  const uint32_t quiet = 0x7fc00000u, payload = 0xffc00001u;
  std::memcpy(bytes.data() + 4, &quiet, 4);
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, flags, none), -1);
  std::memcpy(bytes.data() + 4, &payload, 4);
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, flags, none), -1);
  for (int k = 8; k < 12; ++k) flags[k] = f32;  // 2.0 flagged too
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, flags, none), 8);
  std::vector<uint8_t> partly = flags, integer(16, 0), undefined(16, 0);
  partly[11] = 0;  // element 2 partly overwritten since
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, partly, none), -1);
  for (int k = 8; k < 12; ++k) integer[k] = engine::nan_choice_code(DType::Int32);
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, integer, none), -1);
  undefined[9] = 1;
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, flags, undefined), -1);
  // float16 codes over bytes 4..7: two elements, each must be a NaN
  std::vector<uint8_t> halves(16, 0);
  for (int k = 4; k < 8; ++k) halves[k] = f16;
  const uint32_t two_half_nans = 0x7e017e00u, one_half_nan = 0x3c007e00u;  // element 3 (bytes 6-7) is 1.0
  std::memcpy(bytes.data() + 4, &two_half_nans, 4);
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, halves, none), -1);
  std::memcpy(bytes.data() + 4, &one_half_nan, 4);
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, halves, none), 6);
  // a code at a byte that is no element boundary of its dtype: not checked
  std::vector<uint8_t> odd(16, 0);
  for (int k = 5; k < 9; ++k) odd[k] = f32;
  EXPECT_EQ(first_flagged_number(bytes.data(), 16, odd, none), -1);
}

// Long runs of unflagged bytes are skipped a word at a time: a flagged
// element anywhere after them (at a word boundary, inside a word, in the tail
// past the last whole word) is still found.
TEST(ChosenNaNs, FindsAFlaggedElementAfterLongUnflaggedRuns) {
  using engine::DType;
  const uint8_t f32 = engine::nan_choice_code(DType::Float32);
  const std::vector<uint8_t> none;
  for (int64_t at : {0, 4, 40, 44, 60, 68}) {
    std::vector<uint8_t> bytes(72, 0), flags(72, 0);
    for (int64_t k = at; k < at + 4; ++k) flags[static_cast<size_t>(k)] = f32;
    EXPECT_EQ(first_flagged_number(bytes.data(), 72, flags, none), at) << at;  // 0.0 where a NaN is due
    const uint32_t quiet = 0x7fc00000u;
    std::memcpy(bytes.data() + at, &quiet, 4);
    EXPECT_EQ(first_flagged_number(bytes.data(), 72, flags, none), -1) << at;
  }
}

}  // namespace
}  // namespace sc
