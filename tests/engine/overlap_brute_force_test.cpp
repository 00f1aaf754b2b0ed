// The brute-force overlap reference (the yardstick of the solver's tests and
// of fuzz/overlap_fuzzer.cpp) on layouts whose answer is known by hand.
#include <gtest/gtest.h>

#include "engine/creation.h"
#include "engine/overlap_brute_force.h"

namespace sc::engine {
namespace {

TEST(BruteForceInternalOverlap, KnownLayouts) {
  EXPECT_EQ(brute_force_internal_overlap({4, 4}, {2, 1}), true);   // (0,2) and (1,0)
  EXPECT_EQ(brute_force_internal_overlap({5}, {2}), false);
  EXPECT_EQ(brute_force_internal_overlap({3, 4}, {1, 3}), false);
  EXPECT_EQ(brute_force_internal_overlap({3, 4}, {1, 2}), true);
  EXPECT_EQ(brute_force_internal_overlap({2, 1}, {0, 7}), true);   // stride 0, size 2
  EXPECT_EQ(brute_force_internal_overlap({1, 3}, {0, 1}), false);  // stride 0, size 1
  EXPECT_EQ(brute_force_internal_overlap({0, 5}, {0, 0}), false);  // empty
  EXPECT_EQ(brute_force_internal_overlap({}, {}), false);          // one element
  EXPECT_EQ(brute_force_internal_overlap({3, 3}, {-1, 3}), false); // negative strides
  EXPECT_EQ(brute_force_internal_overlap({3, 3}, {-1, 1}), true);
}

TEST(BruteForceInternalOverlap, OffsetsPastInt64AreExact) {
  // 2 * 2^62 + ... wraps in 64 bits; in 128 bits the offsets are distinct
  const int64_t big = int64_t{1} << 62;
  EXPECT_EQ(brute_force_internal_overlap({3, 2}, {big, 1}), false);
  EXPECT_EQ(brute_force_internal_overlap({2, 2}, {big, big}), true);
}

TEST(BruteForceInternalOverlap, NoAnswerPastTheElementBound) {
  EXPECT_EQ(brute_force_internal_overlap({1000, 1000}, {1000, 1}), std::nullopt);
  EXPECT_EQ(brute_force_internal_overlap({10, 10}, {10, 1}, 99), std::nullopt);
  EXPECT_EQ(brute_force_internal_overlap({10, 10}, {10, 1}, 100), false);
  EXPECT_EQ(brute_force_internal_overlap({int64_t{1} << 40, 0}, {1, 1}), false);  // empty: no bound needed
}

TEST(BruteForceOverlap, BytesOfElementsOfAnySize) {
  Tensor base = empty({64}, DType::Int8);
  // float32 elements at bytes [0,4) and [8,12); int8 elements at byte 4..7 and 12
  Tensor f = make_view(base, {2}, {2}, 0, DType::Float32);
  EXPECT_EQ(brute_force_overlap(f, make_view(base, {4}, {1}, 4, DType::Int8)), false);
  EXPECT_EQ(brute_force_overlap(f, make_view(base, {5}, {1}, 4, DType::Int8)), true);  // byte 8
  // int16 at storage_offset 1: bytes [2,4), inside f's first element
  EXPECT_EQ(brute_force_overlap(f, make_view(base, {1}, {1}, 1, DType::Int16)), true);
  EXPECT_EQ(brute_force_overlap(f, make_view(base, {1}, {1}, 2, DType::Int16)), false);  // bytes [4,6): between f's elements
  Tensor other = empty({64}, DType::Int8);
  EXPECT_EQ(brute_force_overlap(f, make_view(other, {2}, {2}, 0, DType::Float32)), false);
  EXPECT_EQ(brute_force_overlap(f, make_view(base, {0}, {1}, 0, DType::Float32)), false);
}

TEST(BruteForceSameBytes, SameSetOfBytesWhateverTheOrder) {
  Tensor base = empty({64}, DType::Int8);
  Tensor x = make_view(base, {4, 4}, {4, 1}, 0, DType::Float32);
  EXPECT_EQ(brute_force_same_bytes(x, make_view(base, {4, 4}, {1, 4}, 0, DType::Float32)), true);
  EXPECT_EQ(brute_force_same_bytes(x, make_view(base, {64}, {1}, 0, DType::Int8)), true);
  EXPECT_EQ(brute_force_same_bytes(x, make_view(base, {63}, {1}, 0, DType::Int8)), false);
  EXPECT_EQ(brute_force_same_bytes(make_view(base, {0}, {1}, 0), make_view(base, {0, 3}, {1, 1}, 5)), true);
}

}  // namespace
}  // namespace sc::engine
