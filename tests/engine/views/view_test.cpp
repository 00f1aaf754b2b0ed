// view, view(dtype), view_as, reshape, flatten, unflatten (engine/views/view.cpp).
#include "engine/layout.h"
#include "tests/engine/views/views_test_util.h"
#include "engine/version_profile.h"

namespace sc::engine {
namespace {
using testing::expect_view_of;
using testing::Geometry;
using testing::geometry;
using testing::iota;
using testing::strided;

TEST(View, ContiguousInput) {
  Tensor x = iota({2, 3, 4});
  Tensor v = view(x, {6, -1});
  EXPECT_EQ(geometry(v), (Geometry{{6, 4}, {4, 1}, 0}));
  expect_view_of(v, x);
}

TEST(View, AlwaysANewObjectEvenForTheSameShape) {
  Tensor x = iota({3, 4});
  Tensor v = view(x, {3, 4});
  EXPECT_NE(v.id, x.id);
  expect_view_of(v, x);
}

TEST(View, SeedTransposedFlattenRaises) {
  Tensor y = t(iota({3, 4}));
  EXPECT_RAISES(view(y, {-1}), RuntimeError,
                "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                "across two contiguous subspaces). Use .reshape(...) instead.");
}

TEST(View, SeedSizeOneRelaxation) {
  // (2,1,3) transposed to (1,2,3) has strides (3,3,1): contiguous, views as 6.
  Tensor x = transpose(iota({2, 1, 3}), 0, 1);
  EXPECT_EQ(x.strides, (Shape{3, 3, 1}));
  EXPECT_TRUE(is_contiguous(x));
  EXPECT_EQ(view(x, {6}).strides, (Shape{1}));
}

TEST(View, KeepsTheStorageOffset) {
  Tensor x = select(iota({3, 4}), 0, 2);
  EXPECT_EQ(geometry(view(x, {2, 2})), (Geometry{{2, 2}, {2, 1}, 8}));
}

TEST(View, ScalarAndEmpty) {
  Tensor s = strided(1, {}, {});
  EXPECT_EQ(geometry(view(s, {1, 1})), (Geometry{{1, 1}, {1, 1}, 0}));
  EXPECT_EQ(geometry(view(s, {})), (Geometry{{}, {}, 0}));
  Tensor e = strided(0, {2, 0}, {7, 3});
  EXPECT_EQ(view(e, {2, 0}).strides, (Shape{7, 3}));
  EXPECT_EQ(view(e, {0, 2}).strides, (Shape{2, 1}));
  EXPECT_RAISES(view(strided(0, {0}, {1}), {-1, 0}), RuntimeError,
                "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 "
                "can be any value and is ambiguous");
}

TEST(View, SymIntLimit) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  EXPECT_RAISES(view(iota({12}), {3, -(int64_t{1} << 62) - 1}), RuntimeError,
                "IntArrayRef contains an int that cannot be represented as a SymInt: -4611686018427387905");
  EXPECT_RAISES(view(iota({12}), {3, -(int64_t{1} << 62)}), RuntimeError, "invalid shape dimension -4611686018427387904");
}

TEST(ViewAs, UsesTheOtherSizes) {
  Tensor x = iota({3, 4});
  EXPECT_EQ(view_as(x, iota({2, 6})).sizes, (Shape{2, 6}));
  EXPECT_RAISES(view_as(x, iota({5})), RuntimeError, "shape '[5]' is invalid for input of size 12");
}

TEST(ViewDtype, IsANonViewAliasSharingTheVersionCounter) {
  Tensor x = iota({3, 4});
  for (DType d : {DType::Float32, DType::Int32}) {
    Tensor v = view_dtype(x, d);
    EXPECT_FALSE(v.is_view());  // C++ LibTorch 1.13: is_view() == false, even for the same dtype
    EXPECT_NE(v.id, x.id);
    EXPECT_EQ(v.storage, x.storage);
    EXPECT_EQ(&v.version(), &x.version());
    EXPECT_EQ(v.dtype, d);
    EXPECT_EQ(v.strides, x.strides);
  }
}

TEST(ViewDtype, DownsizingScalesTheLastDim) {
  Tensor x = iota({3, 4});
  EXPECT_EQ(geometry(view_dtype(x, DType::Float16)), (Geometry{{3, 8}, {8, 1}, 0}));
  EXPECT_EQ(geometry(view_dtype(x, DType::UInt8)), (Geometry{{3, 16}, {16, 1}, 0}));
  Tensor y = strided(3, {0, 1}, {1, 1}, 2);
  EXPECT_EQ(geometry(view_dtype(y, DType::Bool)), (Geometry{{0, 4}, {4, 1}, 8}));
}

TEST(ViewDtype, UpsizingDividesTheOtherStrides) {
  EXPECT_EQ(geometry(view_dtype(iota({3, 4}), DType::Float64)), (Geometry{{3, 2}, {2, 1}, 0}));
  Tensor cols = slice(iota({3, 4}), 1, 0, 2, 1);  // (3,2) strides (4,1)
  EXPECT_EQ(geometry(view_dtype(cols, DType::Float64)), (Geometry{{3, 1}, {2, 1}, 0}));
}

TEST(ViewDtype, ErrorsInLibTorchOrder) {
  EXPECT_RAISES(view_dtype(strided(1, {}, {}), DType::Float64), RuntimeError,
                "self.dim() cannot be 0 to view Float as Double (different element sizes)");
  EXPECT_RAISES(view_dtype(t(iota({4, 3})), DType::Float16), RuntimeError,
                "self.stride(-1) must be 1 to view Float as Half (different element sizes), but got 3");
  // upsizing: size(-1), then storage_offset, then stride(-1), then the other strides
  EXPECT_RAISES(view_dtype(strided(12, {4, 3}, {1, 4}), DType::Float64), RuntimeError,
                "self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), but got 3");
  EXPECT_RAISES(view_dtype(strided(18, {3, 2}, {6, 2}, 1), DType::Float64), RuntimeError,
                "self.storage_offset() must be divisible by 2 to view Float as Double (different element sizes), "
                "but got 1");
  EXPECT_RAISES(view_dtype(strided(18, {3, 2}, {7, 2}), DType::Float64), RuntimeError,
                "self.stride(-1) must be 1 to view Float as Double (different element sizes), but got 2");
  EXPECT_RAISES(view_dtype(strided(18, {3, 2}, {7, 1}), DType::Float64), RuntimeError,
                "self.stride(0) must be divisible by 2 to view Float as Double (different element sizes), but got 7");
}

TEST(ViewDtype, UpsizingChecksTheNumelOfSizesAFailedResizeLeft) {
  // a failed out= resize leaves sizes [2,-1,0] over strides [12,4,1]: stride(-1)
  // is 1 and size(-1) divides, so set_sizes_and_strides' refresh_numel decides
  Tensor x = strided(24, {2, -1, 0}, {12, 4, 1});
  EXPECT_RAISES(view_dtype(x, DType::Float64), RuntimeError, "numel: integer multiplication overflow");
  EXPECT_RAISES(view_dtype(x, DType::Float16), RuntimeError, "numel: integer multiplication overflow");
}

// An empty self whose cached numel is stale (a failed out= resize left sizes
// [2,-2,0] and numel 4) infers [7,7905747460161236407,4]; computeStride's
// contiguous strides wrap to [-5270498306774157604,4,1], below -2^62: 2.x's
// _reshape_alias refuses the heap-allocated SymInt (1.13's SymInt product
// already raised).
TEST(Reshape, AWrappedStrideBelowTheSymIntRangeRaises) {
  Tensor x = strided(8, {2, -2, 0}, {4, 2, 0});
  x.stale_numel = 4;
  x.stale_layout = LayoutFlags{false, false, false, false};  // a slice's
  {
    // cached contiguous: viewed, and set_sizes_and_strides raises instead
    const ProfileScope profile("2.15");
    Tensor c = x;
    c.stale_layout = LayoutFlags{true, false, false, true};
    EXPECT_RAISES(reshape(c, {7, 7905747460161236407, -1}), RuntimeError, "Stride calculation overflowed");
  }
  {
    const ProfileScope profile("2.15");
    EXPECT_RAISES(reshape(x, {7, 7905747460161236407, -1}), RuntimeError,
                  "SymIntArrayRef expected to contain only concrete integers that are stored inline and can be viewed "
                  "as an IntArrayRef. Found heap-allocated concrete SymInt at index 0: -5270498306774157604 in "
                  "SymIntArrayRef [-5270498306774157604, 4, 1]. This value is concrete, but the non-owning IntArrayRef "
                  "conversion used here cannot represent heap-allocated SymInt values. Use an owning conversion such "
                  "as asIntArrayRefSlowAlloc to materialize the values into a DimVector before this call.");
  }
  const ProfileScope profile("1.13");
  EXPECT_RAISES(reshape(x, {7, 7905747460161236407, -1}), RuntimeError,
                "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If so, "
                "please report an enhancement request to PyTorch.)");
}

TEST(Reshape, ViewWhenComputeStrideSucceeds) {
  Tensor x = iota({2, 3});
  Tensor r = reshape(x, {-1});
  expect_view_of(r, x);
  EXPECT_EQ(r.strides, (Shape{1}));
}

TEST(Reshape, SeedCopyAfterTranspose) {
  Tensor x = t(iota({2, 3}));
  Tensor r = reshape(x, {-1});
  EXPECT_FALSE(r.is_view());
  EXPECT_NE(r.storage, x.storage);
  EXPECT_NE(&r.version(), &x.version());
  EXPECT_TRUE(is_contiguous(r));
  EXPECT_EQ(testing::geometry(r), (Geometry{{6}, {1}, 0}));
}

TEST(Reshape, CopyBranchComputesStridesOnTheClone) {
  Tensor r = reshape(strided(12, {4, 3}, {1, 4}), {2, 1, 6});
  EXPECT_FALSE(r.is_view());
  EXPECT_EQ(r.strides, (Shape{6, 6, 1}));
}

// The shape's SymInt conversion raises before infer_size's errors in every
// profile (2.x checks it only on infer_size's failure path, where it can fail).
TEST(Reshape, SymIntConversionErrorComesBeforeInferSizesErrors) {
  const int64_t below = -(int64_t{1} << 62) - 1;
  for (const char* version : {"1.13", "2.15"}) {
    SCOPED_TRACE(version);
    const ProfileScope profile(version);
    EXPECT_RAISES(reshape(iota({12}), {3, below}), RuntimeError,
                  "IntArrayRef contains an int that cannot be represented as a SymInt: -4611686018427387905");
    EXPECT_RAISES(reshape(iota({12}), {-1, -1, below}), RuntimeError,  // two -1s come first
                  "IntArrayRef contains an int that cannot be represented as a SymInt: -4611686018427387905");
    EXPECT_RAISES(reshape(iota({12}), {-1, -1, 3}), RuntimeError, "only one dimension can be inferred");
    EXPECT_EQ(reshape(iota({12}), {-1, 4}).sizes, (Shape{3, 4}));
  }
}

TEST(Reshape, SameShapeIsStillANewView) {
  Tensor x = iota({3, 4});
  Tensor r = reshape(x, {3, 4});
  EXPECT_NE(r.id, x.id);
  expect_view_of(r, x);
}

TEST(Flatten, ReturnsSelfWhenNothingMerges) {
  Tensor x = iota({12});
  EXPECT_EQ(flatten(x).id, x.id);
  Tensor m = iota({3, 4});
  EXPECT_EQ(flatten(m, 1, 1).id, m.id);
}

TEST(Flatten, ScalarBecomesOneElement) {
  Tensor s = strided(1, {}, {});
  Tensor f = flatten(s, 0, 0);
  EXPECT_EQ(f.sizes, (Shape{1}));
  expect_view_of(f, s);
}

TEST(Flatten, SeedTransposedFlattenCopies) {
  Tensor f = flatten(t(iota({3, 4})));
  EXPECT_FALSE(f.is_view());
  EXPECT_EQ(geometry(f), (Geometry{{12}, {1}, 0}));
  Tensor g = flatten(strided(12, {2, 3, 2}, {6, 1, 3}), 1, 2);
  EXPECT_FALSE(g.is_view());
  EXPECT_EQ(geometry(g), (Geometry{{2, 6}, {6, 1}, 0}));
}

TEST(Flatten, Errors) {
  EXPECT_RAISES(flatten(iota({3, 4}), -1, 0), RuntimeError,
                "flatten() has invalid args: start_dim cannot come after end_dim");
  EXPECT_RAISES(flatten(iota({3, 4}), 0, 2), IndexError,
                "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(Unflatten, SplitsOneDim) {
  EXPECT_EQ(geometry(unflatten(iota({12}), 0, {3, -1})), (Geometry{{3, 4}, {4, 1}, 0}));
  EXPECT_EQ(geometry(unflatten(strided(12, {4, 3}, {1, 4}), 0, {2, 2})), (Geometry{{2, 2, 3}, {2, 1, 4}, 0}));
}

TEST(Unflatten, Errors) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor x = iota({12});
  EXPECT_RAISES(unflatten(x, 0, {5, -1}), RuntimeError,
                "unflatten: Provided sizes [5, -1] don't multiply up to the size of dim 0 (12) in the input tensor");
  EXPECT_RAISES(unflatten(x, 0, {-1, -1}), RuntimeError, "unflatten got an unexpected error:\nonly one dimension can be inferred");
  EXPECT_RAISES(unflatten(x, 0, {-2, -6}), RuntimeError, "invalid shape dimension -2");
  EXPECT_RAISES(unflatten(x, 0, {}), RuntimeError, "unflatten: sizes must be non-empty");
  // C++ LibTorch wraps the dim before it checks the sizes (Python checks the sizes first)
  EXPECT_RAISES(unflatten(x, 5, {}), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 5)");
  EXPECT_RAISES(unflatten(strided(1, {}, {}), 0, {1}), IndexError, "Dimension specified as 0 but tensor has no dimensions");
}

}  // namespace
}  // namespace sc::engine
