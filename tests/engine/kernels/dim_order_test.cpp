// Note [Loop dimension order]: dims reordered by the output's strides, then
// coalesced; the visit set never changes.
#include "engine/kernels/dim_order.h"

#include <gtest/gtest.h>

#include <vector>

namespace sc::engine::kernels {
namespace {

template <size_t N>
DimOrder<N> order(const std::vector<int64_t>& sizes, const std::vector<std::vector<int64_t>>& strides) {
  const int64_t* rows[N];
  for (size_t k = 0; k < N; ++k) rows[k] = strides[k].data();
  return order_dims<N>(static_cast<int>(sizes.size()), sizes.data(), rows);
}

TEST(DimOrder, ContiguousCoalescesToOneDim) {
  auto g = order<1>({2, 3, 4}, {{12, 4, 1}});
  ASSERT_EQ(g.ndim, 1);
  EXPECT_EQ(g.sizes[0], 24);
  EXPECT_EQ(g.strides[0][0], 1);
}

TEST(DimOrder, PermutedDenseOutputCoalescesAfterReordering) {
  // A permuted contiguous tensor ([4,3,2] with strides [1,4,12]) is one run
  // once the dims are walked by stride.
  auto g = order<1>({4, 3, 2}, {{1, 4, 12}});
  ASSERT_EQ(g.ndim, 1);
  EXPECT_EQ(g.sizes[0], 24);
}

TEST(DimOrder, OutputDecidesTheInnermostDim) {
  // dst contiguous [3,5], src its transpose: dst's fastest dim (1) is inner.
  auto g = order<2>({3, 5}, {{5, 1}, {1, 3}});
  ASSERT_EQ(g.ndim, 2);
  EXPECT_EQ(g.sizes[0], 5);
  EXPECT_EQ(g.strides[0][0], 1);
  EXPECT_EQ(g.strides[1][0], 3);
  EXPECT_EQ(g.sizes[1], 3);
}

TEST(DimOrder, BroadcastOutputStrideDefersToTheNextOperand) {
  // Operand 0 has stride 0 on both dims (no opinion); operand 1 is
  // transposed, so its fastest dim (0) goes inside.
  auto g = order<2>({4, 6}, {{0, 0}, {1, 4}});
  ASSERT_EQ(g.ndim, 1);  // and then both dims coalesce: 0 == 0 * 4, 4 == 1 * 4
  EXPECT_EQ(g.sizes[0], 24);
  EXPECT_EQ(g.strides[1][0], 1);
}

TEST(DimOrder, NegativeStridesOrderByMagnitudeAndStillCoalesce) {
  // A flipped contiguous [2,3]: strides [-3,-1] coalesce to one run of -1.
  auto g = order<1>({2, 3}, {{-3, -1}});
  ASSERT_EQ(g.ndim, 1);
  EXPECT_EQ(g.sizes[0], 6);
  EXPECT_EQ(g.strides[0][0], -1);
  // [-1, 3] (a column-major flip): dim 0 inner by |stride|.
  auto h = order<1>({3, 4}, {{-1, 3}});
  ASSERT_EQ(h.ndim, 2);
  EXPECT_EQ(h.strides[0][0], -1);
  EXPECT_EQ(h.strides[0][1], 3);
}

TEST(DimOrder, SizeOneDimsAreDroppedAfterSortingAndEqualStridesPutTheSmallerSizeInside) {
  auto g = order<1>({5, 1, 2}, {{7, 100, 7}});
  ASSERT_EQ(g.ndim, 2);
  EXPECT_EQ(g.sizes[0], 2);
  EXPECT_EQ(g.sizes[1], 5);
}

TEST(DimOrder, SizeOneDimsTakePartInTheSort) {
  // Note [Size-1 dims in the loop order]: operand 0's own order puts dim 1
  // inside (stride 1 < 4), but its stride 0 on the size-1 dim 0 leaves
  // (dim 2, dim 0) and (dim 1, dim 0) to operand 1, whose answers move dim 0
  // innermost and keep dim 2 before dim 1.
  auto g = order<2>({1, 3, 2}, {{0, 1, 4}, {1, 1, 0}});
  ASSERT_EQ(g.ndim, 2);
  EXPECT_EQ(g.sizes[0], 2);
  EXPECT_EQ(g.strides[0][0], 4);
  EXPECT_EQ(g.strides[1][0], 0);
  EXPECT_EQ(g.sizes[1], 3);
}

TEST(DimOrder, EveryDimOfSizeOneIsOneDimWithTheOutermostStrides) {
  // coalesce_dimensions copies each next dim's strides into a size-1 dim:
  // [1,1] with strides {1,1} and {0,1} (no swap) ends with dim 0's.
  auto g = order<2>({1, 1}, {{1, 1}, {0, 1}});
  ASSERT_EQ(g.ndim, 1);
  EXPECT_EQ(g.sizes[0], 1);
  EXPECT_EQ(g.strides[0][0], 1);
  EXPECT_EQ(g.strides[1][0], 0);
  EXPECT_EQ(order<1>({}, {{}}).ndim, 0);  // 0-d: no dim
}

TEST(DimOrder, ZeroSizedDimsAreKeptAndNeverMerged) {
  auto g = order<1>({0, 3}, {{3, 1}});
  ASSERT_EQ(g.ndim, 2);
  EXPECT_EQ(g.sizes[0] * g.sizes[1], 0);
}

}  // namespace
}  // namespace sc::engine::kernels
