// transpose, t, mT, T, permute, movedim (engine/views/permute.cpp).
#include "engine/warnings.h"
#include "tests/engine/views/views_test_util.h"
#include "engine/version_profile.h"

namespace sc::engine {
namespace {
using testing::expect_view_of;
using testing::Geometry;
using testing::geometry;
using testing::iota;
using testing::strided;

const char* kTWarning =
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw an "
    "error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.";

TEST(Transpose, SeedSwapsSizesAndStrides) {
  Tensor x = iota({2, 3, 4});
  Tensor v = transpose(x, 0, 2);
  EXPECT_EQ(geometry(v), (Geometry{{4, 3, 2}, {1, 4, 12}, 0}));
  expect_view_of(v, x);
}

TEST(Transpose, SameDimIsANewAlias) {
  Tensor x = iota({3, 4});
  Tensor v = transpose(x, 1, -1);
  EXPECT_EQ(geometry(v), geometry(x));
  expect_view_of(v, x);
}

TEST(Transpose, ScalarAndErrors) {
  Tensor s = strided(1, {}, {});
  expect_view_of(transpose(s, 0, -1), s);
  EXPECT_RAISES(transpose(iota({3, 4}), 0, 5), IndexError,
                "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
}

TEST(T, TwoDimsAndFewer) {
  Tensor m = iota({3, 4});
  EXPECT_EQ(geometry(t(m)), (Geometry{{4, 3}, {1, 4}, 0}));
  Tensor v = iota({12});
  Tensor tv = t(v);  // a view, not self
  expect_view_of(tv, v);
  Tensor s = strided(1, {}, {});
  expect_view_of(t(s), s);
  EXPECT_RAISES(t(iota({2, 3, 4})), RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is 3D");
}

TEST(MT, SeedStrides) {
  Tensor x = iota({2, 3, 4});
  EXPECT_EQ(geometry(mT(x)), (Geometry{{2, 4, 3}, {12, 1, 4}, 0}));
  expect_view_of(mT(x), x);
}

TEST(MT, ScalarIsReturnedAsIs) {
  Tensor s = strided(1, {}, {});
  EXPECT_EQ(mT(s).id, s.id);
  EXPECT_RAISES(mT(iota({12})), RuntimeError,
                "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
}

TEST(NumpyT, ReversesDimsAndWarnsUnlessZeroOrTwoDims) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  take_warnings();
  EXPECT_EQ(geometry(T(iota({2, 3, 4}))), (Geometry{{4, 3, 2}, {1, 4, 12}, 0}));
  EXPECT_EQ(take_warnings(), std::vector<std::string>{kTWarning});
  T(iota({12}));
  EXPECT_EQ(take_warnings(), std::vector<std::string>{kTWarning});
  T(iota({3, 4}));
  T(strided(1, {}, {}));
  EXPECT_TRUE(take_warnings().empty());
}

TEST(Permute, ReordersDims) {
  Tensor x = iota({2, 3, 4});
  EXPECT_EQ(geometry(permute(x, {2, 0, -2})), (Geometry{{4, 2, 3}, {1, 12, 4}, 0}));
  Tensor s = strided(1, {}, {});
  expect_view_of(permute(s, {}), s);
}

TEST(Permute, Errors) {
  Tensor x = iota({3, 4});
  EXPECT_RAISES(permute(x, {0}), RuntimeError,
                "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                "desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1");
  EXPECT_RAISES(permute(x, {0, -2}), RuntimeError, "permute(): duplicate dims are not allowed.");
  EXPECT_RAISES(permute(x, {0, 2}), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(Movedim, KeepsTheOtherDimsInOrder) {
  Tensor x = iota({2, 3, 4, 5});
  EXPECT_EQ(movedim(x, {0}, {-1}).sizes, (Shape{3, 4, 5, 2}));
  EXPECT_EQ(movedim(x, {1, 0}, {3, 1}).sizes, (Shape{4, 2, 5, 3}));
  EXPECT_EQ(movedim(x, {1, 0}, {3, 1}).strides, (Shape{5, 60, 1, 20}));
}

TEST(Movedim, ScalarIsAnAliasAfterTheChecks) {
  Tensor s = strided(1, {}, {});
  expect_view_of(movedim(s, {0}, {-1}), s);
  EXPECT_RAISES(movedim(s, {1}, {0}), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(Movedim, Errors) {
  Tensor x = iota({3, 4});
  EXPECT_RAISES(movedim(x, {0, 1}, {1}), RuntimeError,
                "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number of "
                "dims as destination ([1] dims)");
  EXPECT_RAISES(movedim(x, {0, -2}, {0, 1}), RuntimeError, "movedim: repeated dim in `source` ([0, -2])");
  EXPECT_RAISES(movedim(x, {0, 1}, {1, 1}), RuntimeError, "movedim: repeated dim in `destination` ([1, 1])");
  EXPECT_RAISES(movedim(x, {0, 5}, {1, 0}), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
}

}  // namespace
}  // namespace sc::engine
