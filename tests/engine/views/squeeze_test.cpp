// squeeze, squeeze(dim), unsqueeze (engine/views/squeeze.cpp).
#include "tests/engine/views/views_test_util.h"

namespace sc::engine {
namespace {
using testing::expect_view_of;
using testing::Geometry;
using testing::geometry;
using testing::iota;
using testing::strided;

TEST(Squeeze, DropsEverySizeOneDim) {
  Tensor x = iota({1, 3, 1, 4});
  Tensor s = squeeze(x);
  EXPECT_EQ(geometry(s), (Geometry{{3, 4}, {4, 1}, 0}));
  expect_view_of(s, x);
}

TEST(Squeeze, NothingToDropIsStillANewView) {
  Tensor x = iota({3, 4});
  expect_view_of(squeeze(x), x);
  expect_view_of(squeeze(x, 0), x);
  Tensor s = strided(1, {}, {});
  expect_view_of(squeeze(s), s);
  expect_view_of(squeeze(s, -1), s);
}

TEST(Squeeze, OneDim) {
  Tensor x = iota({1, 3, 1, 4});
  EXPECT_EQ(geometry(squeeze(x, 2)), (Geometry{{1, 3, 4}, {12, 4, 1}, 0}));
  EXPECT_EQ(geometry(squeeze(x, 1)), geometry(x));
  EXPECT_RAISES(squeeze(x, 4), IndexError, "Dimension out of range (expected to be in range of [-4, 3], but got 4)");
  EXPECT_RAISES(squeeze(strided(1, {}, {}), 1), IndexError,
                "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(Squeeze, KeepsSizeZeroDims) {
  EXPECT_EQ(geometry(squeeze(strided(5, {0, 1, 2}, {12, 12, 12}, 1))), (Geometry{{0, 2}, {12, 12}, 1}));
}

TEST(Unsqueeze, NewStrideIsSizeTimesStrideOfTheDimItPrecedes) {
  Tensor x = iota({3, 4});
  EXPECT_EQ(geometry(unsqueeze(x, 0)), (Geometry{{1, 3, 4}, {12, 4, 1}, 0}));
  EXPECT_EQ(geometry(unsqueeze(x, 1)), (Geometry{{3, 1, 4}, {4, 4, 1}, 0}));
  EXPECT_EQ(geometry(unsqueeze(x, 2)), (Geometry{{3, 4, 1}, {4, 1, 1}, 0}));
  EXPECT_EQ(geometry(unsqueeze(x, -1)), (Geometry{{3, 4, 1}, {4, 1, 1}, 0}));
  EXPECT_EQ(unsqueeze(strided(0, {3, 0}, {1, 1}), 1).strides, (Shape{1, 0, 1}));
}

TEST(Unsqueeze, RangeIsOneWiderThanTheInput) {
  EXPECT_RAISES(unsqueeze(iota({3, 4}), 3), IndexError, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  Tensor s = strided(1, {}, {});
  EXPECT_EQ(geometry(unsqueeze(s, -1)), (Geometry{{1}, {1}, 0}));
  EXPECT_RAISES(unsqueeze(s, 2), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 2)");
}

}  // namespace
}  // namespace sc::engine
