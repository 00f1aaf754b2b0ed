// diagonal, unfold, as_strided (engine/views/diagonal.cpp).
#include <limits>

#include "tests/engine/views/views_test_util.h"
#include "engine/version_profile.h"

namespace sc::engine {
namespace {
using testing::expect_view_of;
using testing::Geometry;
using testing::geometry;
using testing::iota;
using testing::strided;

TEST(Diagonal, SeedStrideFive) {
  Tensor x = iota({3, 4});
  Tensor d = diagonal(x, 0, 0, 1);
  EXPECT_EQ(geometry(d), (Geometry{{3}, {5}, 0}));
  expect_view_of(d, x);
}

TEST(Diagonal, Offsets) {
  Tensor x = iota({3, 4});
  EXPECT_EQ(geometry(diagonal(x, 1, 0, 1)), (Geometry{{3}, {5}, 1}));
  EXPECT_EQ(geometry(diagonal(x, -1, 0, 1)), (Geometry{{2}, {5}, 4}));
  EXPECT_EQ(geometry(diagonal(x, 4, 0, 1)), (Geometry{{0}, {5}, 0}));  // empty: the offset is not moved
  EXPECT_EQ(geometry(diagonal(x, -3, 0, 1)), (Geometry{{0}, {5}, 0}));
  EXPECT_EQ(geometry(diagonal(x, std::numeric_limits<int64_t>::min(), 0, 1)), (Geometry{{0}, {5}, 0}));
  EXPECT_EQ(geometry(diagonal(x, 0, 1, 0)), (Geometry{{3}, {5}, 0}));
}

TEST(Diagonal, AppendsTheDiagonalDim) {
  Tensor x = iota({2, 3, 4});
  EXPECT_EQ(geometry(diagonal(x, 0, 0, 2)), (Geometry{{3, 2}, {4, 13}, 0}));
  EXPECT_EQ(geometry(diagonal(x, 1, -1, 0)), (Geometry{{3, 1}, {4, 13}, 12}));
}

TEST(Diagonal, Errors) {
  EXPECT_RAISES(diagonal(iota({3, 4}), 0, 1, -1), RuntimeError, "diagonal dimensions cannot be identical 1, -1");
  EXPECT_RAISES(diagonal(iota({12}), 0, 0, 1), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  EXPECT_RAISES(diagonal(strided(1, {}, {}), 0, 0, -1), RuntimeError, "diagonal dimensions cannot be identical 0, -1");
}

TEST(Unfold, SeedWindows) {
  Tensor a = iota({10});
  Tensor u = unfold(a, 0, 4, 2);
  EXPECT_EQ(geometry(u), (Geometry{{4, 4}, {2, 1}, 0}));
  expect_view_of(u, a);
}

TEST(Unfold, SeedPatchesOfAnImage) {
  Tensor img = iota({1, 1, 4, 4});
  Tensor p = unfold(unfold(img, 2, 2, 2), 3, 2, 2);
  EXPECT_EQ(geometry(p), (Geometry{{1, 1, 2, 2, 2, 2}, {16, 16, 8, 2, 4, 1}, 0}));
  expect_view_of(p, img);
}

TEST(Unfold, EdgeSizes) {
  EXPECT_EQ(geometry(unfold(iota({12}), 0, 12, 1)), (Geometry{{1, 12}, {1, 1}, 0}));
  EXPECT_EQ(geometry(unfold(iota({12}), 0, 0, 1)), (Geometry{{13, 0}, {1, 1}, 0}));
  EXPECT_EQ(geometry(unfold(strided(4, {2, 0, 0}, {1, 1, 1}), 1, 0, 1)), (Geometry{{2, 1, 0, 0}, {1, 1, 1, 1}, 0}));
  Tensor s = strided(1, {}, {});
  EXPECT_EQ(geometry(unfold(s, 0, 1, 1)), (Geometry{{1}, {1}, 0}));
  EXPECT_EQ(geometry(unfold(s, -1, 0, 1)), (Geometry{{0}, {1}, 0}));
}

TEST(Unfold, Errors) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor x = iota({12});
  EXPECT_RAISES(unfold(x, 0, 13, 1), RuntimeError, "maximum size for tensor at dimension 0 is 12 but size is 13");
  EXPECT_RAISES(unfold(x, 0, 2, 0), RuntimeError, "step is 0 but must be > 0");
  EXPECT_RAISES(unfold(x, 0, 13, 0), RuntimeError, "maximum size for tensor at dimension 0 is 12 but size is 13");
  EXPECT_RAISES(unfold(x, 0, -1, 1), RuntimeError, "Storage size calculation overflowed with sizes=[14, -1] and strides=[1, 1]");
  EXPECT_RAISES(unfold(x, 0, std::numeric_limits<int64_t>::min(), 1), RuntimeError,
                "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775795");
  EXPECT_RAISES(unfold(strided(1, {}, {}), 0, 2, 1), RuntimeError, "maximum size for tensor at dimension 0 is 1 but size is 2");
  EXPECT_RAISES(unfold(x, 1, 2, 1), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(AsStrided, SeedWindowsAndBoundCheck) {
  Tensor a = iota({10});
  Tensor w = as_strided(a, {4, 4}, {2, 1}, 0);
  EXPECT_EQ(geometry(w), geometry(unfold(a, 0, 4, 2)));
  expect_view_of(w, a);
  EXPECT_RAISES(as_strided(a, {4, 4}, {3, 1}, 0), RuntimeError,
                "setStorage: sizes [4, 4], strides [3, 1], storage offset 0, and itemsize 4 requiring a storage size "
                "of 52 are out of bounds for storage of size 40");
}

TEST(AsStrided, OffsetIsAbsoluteAndDefaultsToTheInputs) {
  Tensor a = strided(12, {12}, {1}, 3);
  EXPECT_EQ(as_strided(a, {4}, {1}, std::nullopt).storage_offset, 3);
  EXPECT_EQ(as_strided(a, {4}, {1}, 0).storage_offset, 0);
  EXPECT_EQ(as_strided(a, {4}, {1}, 8).storage_offset, 8);
  EXPECT_RAISES(as_strided(a, {4}, {1}, 9), RuntimeError,
                "setStorage: sizes [4], strides [1], storage offset 9, and itemsize 4 requiring a storage size of 52 "
                "are out of bounds for storage of size 48");
  EXPECT_EQ(as_strided(a, {0}, {1}, 100).storage_offset, 100);  // no bound for an empty header
}

TEST(AsStrided, Errors) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor a = iota({12});
  EXPECT_RAISES(as_strided(a, {4, 2}, {1}, 0), RuntimeError, "mismatch in length of strides and shape");
  EXPECT_RAISES(as_strided(a, {4}, {-1}, 0), RuntimeError,
                "as_strided: Negative strides are not supported at the moment, got strides: [-1]");
  EXPECT_RAISES(as_strided(a, {4}, {1}, -1), RuntimeError, "Tensor: invalid storage offset -1");
  EXPECT_RAISES(as_strided(a, {-4}, {1}, 0), RuntimeError, "Storage size calculation overflowed with sizes=[-4] and strides=[1]");
  // SymInt conversions run right to left: the offset, then the strides, then the sizes
  const int64_t m = std::numeric_limits<int64_t>::min();
  EXPECT_RAISES(as_strided(a, {m}, {m + 1}, m + 2), RuntimeError,
                "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If so, "
                "please report an enhancement request to PyTorch.)");
  EXPECT_RAISES(as_strided(a, {m}, {m + 1}, std::nullopt), RuntimeError,
                "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775807");
}

}  // namespace
}  // namespace sc::engine
