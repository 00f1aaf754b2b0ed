// Overlap analysis: LibTorch's tri-state answers, and the exact bounded
// solver checked against brute force on random layouts (seeded).
#include <gtest/gtest.h>

#include <random>

#include "engine/creation.h"
#include "engine/overlap.h"
#include "engine/overlap_brute_force.h"

namespace sc::engine {
namespace {

Tensor header(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
  return make_view(base, std::move(sizes), std::move(strides), offset);
}

bool brute_internal(const Shape& sizes, const Shape& strides) {
  return brute_force_internal_overlap(sizes, strides, /*max_elements=*/int64_t{1} << 22).value();
}

TEST(HasInternalOverlap, DenseIsNoStrideZeroIsYesElseTooHard) {
  Tensor a = arange(10, DType::Float32);
  EXPECT_EQ(has_internal_overlap(header(a, {2, 5}, {5, 1}, 0)), MemOverlap::No);
  EXPECT_EQ(has_internal_overlap(header(a, {3, 5}, {0, 1}, 0)), MemOverlap::Yes);
  EXPECT_EQ(has_internal_overlap(header(a, {1, 5}, {0, 1}, 0)), MemOverlap::No);  // size-1 stride 0 is dense
  EXPECT_EQ(has_internal_overlap(header(a, {4, 4}, {2, 1}, 0)), MemOverlap::TooHard);  // the seed's as_strided
  EXPECT_EQ(has_internal_overlap(header(a, {5}, {2}, 0)), MemOverlap::TooHard);        // no overlap, but not dense
}

TEST(GetOverlapStatus, FullPartialNoTooHard) {
  Tensor a = arange(16, DType::Float32);
  Tensor x = header(a, {4, 4}, {4, 1}, 0);
  EXPECT_EQ(get_overlap_status(x, x), MemOverlapStatus::Full);
  EXPECT_EQ(get_overlap_status(x, header(a, {4, 4}, {4, 1}, 0)), MemOverlapStatus::Full);
  // same byte range, other strides: Partial in 1.13 (x.add_(x.t()) raises)
  EXPECT_EQ(get_overlap_status(x, header(a, {4, 4}, {1, 4}, 0)), MemOverlapStatus::Partial);
  EXPECT_EQ(get_overlap_status(x, header(a, {4}, {1}, 4)), MemOverlapStatus::Partial);
  EXPECT_EQ(get_overlap_status(header(a, {8}, {1}, 0), header(a, {8}, {1}, 8)), MemOverlapStatus::No);
  EXPECT_EQ(get_overlap_status(header(a, {8}, {2}, 0), header(a, {8}, {2}, 1)), MemOverlapStatus::TooHard);
  Tensor other = arange(16, DType::Float32);
  EXPECT_EQ(get_overlap_status(x, other), MemOverlapStatus::No);
  EXPECT_EQ(get_overlap_status(x, header(a, {0}, {1}, 0)), MemOverlapStatus::No);
}

TEST(ExactInternalOverlap, KnownLayouts) {
  EXPECT_EQ(exact_internal_overlap({4, 4}, {2, 1}), MemOverlap::Yes);
  EXPECT_EQ(exact_internal_overlap({5}, {2}), MemOverlap::No);
  EXPECT_EQ(exact_internal_overlap({3, 4}, {1, 3}), MemOverlap::No);
  EXPECT_EQ(exact_internal_overlap({3, 4}, {1, 2}), MemOverlap::Yes);
  EXPECT_EQ(exact_internal_overlap({2, 0}, {0, 0}), MemOverlap::No);
  EXPECT_EQ(exact_internal_overlap({1000000000, 4}, {0, 1}), MemOverlap::Yes);
  // huge sizes, answered without enumerating: 3*2 == 2*3
  EXPECT_EQ(exact_internal_overlap({1000000, 1000000}, {3, 2}), MemOverlap::Yes);
  EXPECT_EQ(exact_internal_overlap({1000000, 1000000}, {1000000, 1}), MemOverlap::No);
}

TEST(ExactInternalOverlap, TooHardOnlyPastTheWorkBound) {
  // strides with no solution and large ranges: with a tiny budget the search gives up
  Shape sizes{40, 40, 40, 40}, strides{1601, 1201, 801, 401};
  EXPECT_EQ(exact_internal_overlap(sizes, strides, 3), MemOverlap::TooHard);
  EXPECT_EQ(exact_internal_overlap(sizes, strides), brute_internal(sizes, strides) ? MemOverlap::Yes : MemOverlap::No);
}

TEST(ExactInternalOverlap, MatchesBruteForceOnRandomLayouts) {
  std::mt19937_64 rng(20240613);
  for (int trial = 0; trial < 4000; ++trial) {
    const int nd = 1 + static_cast<int>(rng() % 4);
    Shape sizes(nd), strides(nd);
    for (int d = 0; d < nd; ++d) {
      sizes[d] = 1 + static_cast<int64_t>(rng() % 6);
      strides[d] = static_cast<int64_t>(rng() % 13);
    }
    const bool want = brute_internal(sizes, strides);
    const MemOverlap got = exact_internal_overlap(sizes, strides);
    ASSERT_EQ(got, want ? MemOverlap::Yes : MemOverlap::No) << "trial " << trial;
  }
}

TEST(ExactOverlap, MatchesBruteForceOnRandomPairs) {
  std::mt19937_64 rng(7);
  Tensor base = empty({4096}, DType::Int8);
  const DType types[] = {DType::Int8, DType::Int16, DType::Float32, DType::Float64};
  for (int trial = 0; trial < 3000; ++trial) {
    Tensor t[2];
    for (auto& x : t) {
      const DType dt = types[rng() % 4];
      const int nd = 1 + static_cast<int>(rng() % 3);
      Shape sizes(nd), strides(nd);
      for (int d = 0; d < nd; ++d) {
        sizes[d] = 1 + static_cast<int64_t>(rng() % 5);
        strides[d] = static_cast<int64_t>(rng() % 9);
      }
      x = make_view(base, sizes, strides, static_cast<int64_t>(rng() % 40), dt);
    }
    const bool want = brute_force_overlap(t[0], t[1]).value();
    ASSERT_EQ(exact_overlap(t[0], t[1]), want ? MemOverlap::Yes : MemOverlap::No) << "trial " << trial;
  }
}

}  // namespace
}  // namespace sc::engine
