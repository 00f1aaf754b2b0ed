#include "engine/layout.h"

#include <gtest/gtest.h>

namespace sc::engine {
namespace {

TEST(ContiguousStrides, RowMajor) { EXPECT_EQ(contiguous_strides({2, 3, 4}), (Shape{12, 4, 1})); }

TEST(IsContiguous, SizeOneDimsAreIgnored) {
  // seed: a (2,1,3) tensor transposed to (1,2,3) has strides (3,3,1) and is contiguous
  EXPECT_TRUE(is_contiguous(Shape{1, 2, 3}, Shape{3, 3, 1}));
}

TEST(ChannelsLast, StridesOfSeedExample) {
  EXPECT_EQ(strides_for_format({2, 3, 4, 5}, MemoryFormat::ChannelsLast), (Shape{60, 1, 15, 3}));
}

// is_contiguous / channels_last / channels_last_3d / non_overlapping_and_dense
// for headers measured with LibTorch 1.13.1 (TensorImpl's flags, C++).
struct LayoutCase {
  Shape sizes, strides;
  bool contiguous, channels_last, channels_last_3d, non_overlapping_and_dense;
};

class LayoutFlags : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(LayoutFlags, MatchLibTorch) {
  const LayoutCase& c = GetParam();
  EXPECT_EQ(is_contiguous(c.sizes, c.strides), c.contiguous);
  EXPECT_EQ(is_channels_last_contiguous(c.sizes, c.strides), c.channels_last);
  EXPECT_EQ(is_channels_last_3d_contiguous(c.sizes, c.strides), c.channels_last_3d);
  EXPECT_EQ(is_non_overlapping_and_dense(c.sizes, c.strides), c.non_overlapping_and_dense);
}

INSTANTIATE_TEST_SUITE_P(
    Measured, LayoutFlags,
    ::testing::Values(LayoutCase{{2, 3, 4}, {12, 4, 1}, true, false, false, true},
                      LayoutCase{{1, 2, 3}, {3, 3, 1}, true, false, false, true},
                      LayoutCase{{2, 0, 3}, {7, 9, 1}, true, false, false, true},   // numel 0: contiguous
                      LayoutCase{{4, 3}, {1, 4}, false, false, false, true},        // a transpose is dense
                      LayoutCase{{3}, {2}, false, false, false, false},
                      LayoutCase{{1}, {5}, true, false, false, true},
                      LayoutCase{{1000, 1000}, {0, 1}, false, false, false, false},  // expand
                      LayoutCase{{2, 3, 4, 5}, {60, 1, 15, 3}, false, true, false, true},
                      LayoutCase{{2, 1, 4, 5}, {20, 1, 5, 1}, true, true, false, true},
                      LayoutCase{{2, 3, 1, 1}, {3, 1, 3, 3}, true, true, false, true},
                      LayoutCase{{2, 2, 2, 2}, {8, 1, 4, 2}, false, true, false, true},
                      LayoutCase{{0, 3, 4, 5}, {60, 1, 15, 3}, true, true, false, true},
                      LayoutCase{{1, 1, 1, 1}, {1, 1, 1, 1}, true, true, false, true},
                      LayoutCase{{2, 2}, {1, 1}, false, false, false, false},
                      LayoutCase{{2, 3}, {1, 3}, false, false, false, false},
                      LayoutCase{{2, 3, 4}, {1, 2, 6}, false, false, false, true},
                      LayoutCase{{4, 1, 3}, {3, 100, 1}, true, false, false, true},
                      LayoutCase{{2, 3, 4, 5, 6}, {360, 1, 90, 18, 3}, false, false, true, true},
                      LayoutCase{{2, 3}, {3, 0}, false, false, false, false},
                      LayoutCase{{2, 3}, {6, 2}, false, false, false, false},
                      LayoutCase{{3, 1, 2}, {1, 7, 3}, false, false, false, true},
                      LayoutCase{{}, {}, true, false, false, true},
                      LayoutCase{{0}, {5}, true, false, false, true}));

TEST(ContiguousStrides, SizeZeroAndOneDimsCountAsOne) {
  EXPECT_EQ(contiguous_strides({2, 0, 3}), (Shape{3, 3, 1}));
  EXPECT_EQ(contiguous_strides({}), (Shape{}));
}

}  // namespace
}  // namespace sc::engine
