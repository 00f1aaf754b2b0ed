// The CUDA kernels' index arithmetic (engine/kernels/cuda/launch.h), run on
// the host: every element's byte offsets from OffsetCalc equal the header's
// own (sum of index * stride), in 32- and 64-bit indexing, after reordering
// and coalescing; launches split beyond kMaxLaunchDims cover every element
// once; the transpose plan finds NCHW <-> channels_last and matrix transposes.
#include "engine/kernels/cuda/launch.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

namespace sc::engine::cuda {
namespace {

using Sizes = std::vector<int64_t>;

// Every element's (dst, src) byte offsets, as a sorted multiset, from the header.
std::multiset<std::pair<int64_t, int64_t>> header_offsets(const Sizes& sizes, const std::array<Sizes, 2>& st) {
  std::multiset<std::pair<int64_t, int64_t>> out;
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k, a = 0, b = 0;
    for (size_t d = sizes.size(); d-- > 0;) {
      a += (rem % sizes[d]) * st[0][d];
      b += (rem % sizes[d]) * st[1][d];
      rem /= sizes[d];
    }
    out.insert({a, b});
  }
  return out;
}

template <class I>
std::multiset<std::pair<int64_t, int64_t>> calc_offsets(const StridedGeometry<2>& g) {
  std::multiset<std::pair<int64_t, int64_t>> out;
  const OffsetCalc<2, I> oc = inner_offset_calc<2, I>(g);
  for_each_launch<2>(g, [&](const std::array<int64_t, 2>& base, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t off[2];
      oc.offsets(static_cast<I>(i), off);
      out.insert({base[0] + off[0], base[1] + off[1]});
    }
  });
  return out;
}

TEST(StridedGeometry, ContiguousCoalescesToOneDim) {
  auto g = make_strided_geometry<2>({2, 3, 4}, {Sizes{48, 16, 4}, Sizes{24, 8, 2}});
  ASSERT_EQ(g.ndim(), 1);
  EXPECT_EQ(g.sizes[0], 24);
  EXPECT_EQ(g.strides[0][0], 4);
  EXPECT_EQ(g.strides[1][0], 2);
}

TEST(StridedGeometry, OrdersByTheFirstOperandsStrides) {
  // dst channels_last [N,C,H,W] = [2,3,4,5] (strides in elements 60,1,15,3), src NCHW.
  auto g = make_strided_geometry<2>({2, 3, 4, 5}, {Sizes{240, 4, 60, 12}, Sizes{240, 80, 20, 4}});
  ASSERT_EQ(g.ndim(), 3);  // c, (h w) merged, n
  EXPECT_EQ(g.sizes, (Sizes{3, 20, 2}));
  EXPECT_EQ(g.strides[0], (Sizes{4, 12, 240}));
  EXPECT_EQ(g.strides[1], (Sizes{80, 4, 240}));
  TransposePlan p = plan_transpose(g, 4);
  EXPECT_EQ(p.src_inner, -1) << "C = 3 is below the tile threshold";
  auto g2 = make_strided_geometry<2>({2, 8, 4, 5}, {Sizes{640, 4, 160, 32}, Sizes{640, 80, 20, 4}});
  EXPECT_EQ(plan_transpose(g2, 4).src_inner, 1);
}

TEST(StridedGeometry, MatrixTransposeIsPlannedAndBroadcastIsNot) {
  auto t = make_strided_geometry<2>({64, 48}, {Sizes{192, 4}, Sizes{4, 256}});
  EXPECT_EQ(plan_transpose(t, 4).src_inner, 1);
  auto b = make_strided_geometry<2>({64, 48}, {Sizes{192, 4}, Sizes{0, 4}});
  EXPECT_EQ(plan_transpose(b, 4).src_inner, -1);
  auto same = make_strided_geometry<2>({64, 48}, {Sizes{192, 4}, Sizes{192, 4}});
  EXPECT_EQ(plan_transpose(same, 4).src_inner, -1);
}

TEST(OffsetCalc, MatchesTheHeaderForRandomLayouts) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int nd = static_cast<int>(rng() % 6);
    Sizes sizes;
    std::array<Sizes, 2> st;
    for (int d = 0; d < nd; ++d) {
      sizes.push_back(1 + static_cast<int64_t>(rng() % 4));
      for (int k = 0; k < 2; ++k) {
        const int64_t item = k == 0 ? 4 : 2;
        const int64_t pick = static_cast<int64_t>(rng() % 7) - 3;  // negative, zero and positive strides
        st[k].push_back(pick * item * (1 + static_cast<int64_t>(rng() % 5)));
      }
    }
    const auto want = header_offsets(sizes, st);
    const auto g = make_strided_geometry<2>(sizes, st);
    ASSERT_EQ(g.numel(), static_cast<int64_t>(want.size()));
    EXPECT_EQ(calc_offsets<uint32_t>(g), want) << "trial " << trial;
    EXPECT_EQ(calc_offsets<uint64_t>(g), want) << "trial " << trial;
  }
}

TEST(OffsetCalc, SplitsLaunchesBeyondTheDimensionLimit) {
  // kMaxLaunchDims + 3 dims of size 2 that cannot merge (strides 3^d).
  Sizes sizes, s0, s1;
  int64_t stride = 1;
  for (int d = 0; d < kMaxLaunchDims + 3; ++d) {
    sizes.insert(sizes.begin(), 2);
    s0.insert(s0.begin(), stride);
    s1.insert(s1.begin(), 2 * stride);
    stride *= 3;
  }
  const auto g = make_strided_geometry<2>(sizes, {s0, s1});
  ASSERT_EQ(g.ndim(), kMaxLaunchDims + 3);
  int launches = 0;
  for_each_launch<2>(g, [&](const std::array<int64_t, 2>&, int64_t n) {
    ++launches;
    EXPECT_EQ(n, int64_t{1} << kMaxLaunchDims);
  });
  EXPECT_EQ(launches, 8);
  EXPECT_EQ(calc_offsets<uint32_t>(g), header_offsets(sizes, {s0, s1}));
}

TEST(OffsetCalc, ThirtyTwoBitIndexingOnlyWhereExact) {
  EXPECT_TRUE(fits_32bit_indexing(make_strided_geometry<2>({1 << 20}, {Sizes{4}, Sizes{4}})));
  // 2^29 float32 elements: 2 GiB of byte offsets.
  EXPECT_FALSE(fits_32bit_indexing(make_strided_geometry<2>({int64_t{1} << 29}, {Sizes{4}, Sizes{4}})));
  // Few elements, far apart (a huge stride): the offsets need 64 bits.
  EXPECT_FALSE(fits_32bit_indexing(make_strided_geometry<2>({4}, {Sizes{4}, Sizes{int64_t{1} << 32}})));
  // A negative stride counts by its magnitude.
  EXPECT_FALSE(fits_32bit_indexing(make_strided_geometry<2>({3}, {Sizes{4}, Sizes{-(int64_t{1} << 31)}})));
  // 64-bit offsets are exact past 2^32.
  const auto g = make_strided_geometry<2>({3}, {Sizes{4}, Sizes{int64_t{3} << 32}});
  const auto oc = inner_offset_calc<2, uint64_t>(g);
  int64_t off[2];
  oc.offsets(2, off);
  EXPECT_EQ(off[1], int64_t{6} << 32);
}

TEST(GridBlocks, CoversAndCaps) {
  EXPECT_EQ(grid_blocks(0, 1024), 1);
  EXPECT_EQ(grid_blocks(1024, 1024), 1);
  EXPECT_EQ(grid_blocks(1025, 1024), 2);
  EXPECT_EQ(grid_blocks(int64_t{1} << 40, 1024), 65535);
}

}  // namespace
}  // namespace sc::engine::cuda
