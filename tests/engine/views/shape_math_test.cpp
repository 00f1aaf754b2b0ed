// maybe_wrap_dim, infer_size, compute_stride, compute_storage_nbytes, the
// SymInt limits and the as_strided checks (engine/views/shape_math.cpp).
#include <limits>

#include "tests/engine/views/views_test_util.h"
#include "engine/version_profile.h"

namespace sc::engine {
namespace {
using testing::strided;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(MaybeWrapDim, WrapsNegativeDims) {
  EXPECT_EQ(maybe_wrap_dim(-1, 3), 2);
  EXPECT_EQ(maybe_wrap_dim(-3, 3), 0);
  EXPECT_EQ(maybe_wrap_dim(2, 3), 2);
}

TEST(MaybeWrapDim, OutOfRangeIsIndexError) {
  EXPECT_RAISES(maybe_wrap_dim(5, 2), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
  EXPECT_RAISES(maybe_wrap_dim(-3, 2), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
}

TEST(MaybeWrapDim, ScalarWrapsAsIfOneDim) {
  EXPECT_EQ(maybe_wrap_dim(0, 0), 0);
  EXPECT_EQ(maybe_wrap_dim(-1, 0), 0);
  EXPECT_RAISES(maybe_wrap_dim(1, 0), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  EXPECT_RAISES(maybe_wrap_dim(0, 0, /*wrap_scalar=*/false), IndexError,
                "Dimension specified as 0 but tensor has no dimensions");
}

TEST(SizeAt, ScalarHasNoDims) {
  EXPECT_RAISES(size_at(strided(1, {}, {}), 0), IndexError, "Dimension specified as 0 but tensor has no dimensions");
  EXPECT_EQ(size_at(strided(12, {3, 4}, {4, 1}), -1), 4);
}

TEST(InferSize, ResolvesOneMinusOne) {
  EXPECT_EQ(infer_size({2, -1}, 12), (Shape{2, 6}));
  EXPECT_EQ(infer_size({-1}, 0), (Shape{0}));
  EXPECT_EQ(infer_size({}, 1), (Shape{}));
}

TEST(InferSize, Errors) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  EXPECT_RAISES(infer_size({5, -1}, 12), RuntimeError, "shape '[5, -1]' is invalid for input of size 12");
  EXPECT_RAISES(infer_size({-1, -1}, 12), RuntimeError, "only one dimension can be inferred");
  EXPECT_RAISES(infer_size({-2, 6}, 12), RuntimeError, "invalid shape dimension -2");
  EXPECT_RAISES(infer_size({-1, 0}, 0), RuntimeError,
                "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 "
                "can be any value and is ambiguous");
}

TEST(InferSize, PlainRuntimeErrorsAreMarked) {
  // LibTorch throws these two as std::runtime_error; unflatten catches only them.
  EXPECT_THROW(infer_size({-1, -1}, 12), PlainRuntimeError);
  EXPECT_THROW(infer_size({5}, 12), PlainRuntimeError);
  try {
    infer_size({-3}, 12);
    FAIL();
  } catch (const PlainRuntimeError&) {
    FAIL() << "invalid shape dimension is a c10::Error";
  } catch (const TorchError&) {
  }
}

TEST(ComputeStride, MergesContiguousChunks) {
  EXPECT_EQ(compute_stride({2, 3, 4}, {12, 4, 1}, {6, 4}), (Shape{4, 1}));
  EXPECT_EQ(compute_stride({2, 3, 4}, {12, 4, 1}, {24}), (Shape{1}));
  // transposed (4,3) strides (1,4): the two dims are separate chunks
  EXPECT_EQ(compute_stride({4, 3}, {1, 4}, {12}), std::nullopt);
  EXPECT_EQ(compute_stride({4, 3}, {1, 4}, {2, 2, 3}), (Shape{2, 1, 4}));
  EXPECT_EQ(compute_stride({4, 3}, {1, 4}, {2, 1, 6}), std::nullopt);
}

TEST(ComputeStride, SizeOneDimsNeverBreakAChunk) {
  // seed: (1,2,3) with strides (3,3,1) is contiguous and views as 6
  EXPECT_EQ(compute_stride({1, 2, 3}, {3, 3, 1}, {6}), (Shape{1}));
  EXPECT_EQ(compute_stride({3, 4}, {4, 1}, {3, 1, 4}), (Shape{4, 4, 1}));
  EXPECT_EQ(compute_stride({3, 4}, {4, 1}, {12, 1, 1}), (Shape{1, 1, 1}));
}

TEST(ComputeStride, ScalarAndEmptyInputs) {
  EXPECT_EQ(compute_stride({}, {}, {1, 1}), (Shape{1, 1}));
  EXPECT_EQ(compute_stride({2, 0}, {7, 3}, {2, 0}), (Shape{7, 3}));  // same shape keeps strides
  EXPECT_EQ(compute_stride({2, 0}, {7, 3}, {0, 2}), (Shape{2, 1}));
  EXPECT_EQ(compute_stride({0}, {1}, {2, 0, 3}), (Shape{3, 3, 1}));
}

TEST(ComputeStorageNbytes, SeedExample) {
  EXPECT_EQ(compute_storage_nbytes({4, 4}, {3, 1}, 4), 52);
  EXPECT_EQ(compute_storage_nbytes({0, 4}, {3, 1}, 4), 0);
  EXPECT_EQ(compute_storage_nbytes({}, {}, 8), 8);
}

TEST(ComputeStorageNbytes, UnsignedOverflowRaises) {
  EXPECT_RAISES(compute_storage_nbytes({14, -1}, {1, 1}, 4), RuntimeError,
                "Storage size calculation overflowed with sizes=[14, -1] and strides=[1, 1]");
  EXPECT_RAISES(compute_storage_nbytes({int64_t{1} << 62, 4}, {int64_t{1} << 62, 1}, 4), RuntimeError,
                "Storage size calculation overflowed with sizes=[4611686018427387904, 4] and strides=[4611686018427387904, 1]");
  // stride 0 times a negative size does not overflow (LibTorch then fails on numel)
  EXPECT_EQ(compute_storage_nbytes({-1}, {0}, 4), 4);
}

TEST(SymInt, ValuesBelowMinusTwoToThe62AreReserved) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  EXPECT_NO_THROW(check_symint(-(int64_t{1} << 62)));
  EXPECT_RAISES(check_symint(-(int64_t{1} << 62) - 1), RuntimeError,
                "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If so, "
                "please report an enhancement request to PyTorch.)");
  EXPECT_RAISES(check_symint_list({3, kMin}), RuntimeError,
                "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808");
}

TEST(CheckedStridedView, ChecksInLibTorchOrder) {
  Tensor a = strided(10, {10}, {1});
  EXPECT_RAISES(checked_strided_view(a, {4, 2}, {1}, 0), RuntimeError, "mismatch in length of strides and shape");
  EXPECT_RAISES(checked_strided_view(a, {4}, {-1}, 0), RuntimeError,
                "as_strided: Negative strides are not supported at the moment, got strides: [-1]");
  EXPECT_RAISES(checked_strided_view(a, {4, 4}, {3, 1}, 0), RuntimeError,
                "setStorage: sizes [4, 4], strides [3, 1], storage offset 0, and itemsize 4 requiring a storage "
                "size of 52 are out of bounds for storage of size 40");
  EXPECT_RAISES(checked_strided_view(a, {4}, {1}, -1), RuntimeError, "Tensor: invalid storage offset -1");
  EXPECT_RAISES(checked_strided_view(a, {-1}, {0}, 0), RuntimeError, "numel: integer multiplication overflow");
  // A negative size followed by a 0 passes every check in LibTorch 1.13.
  EXPECT_EQ(checked_strided_view(a, {-1, 0}, {1, 1}, 0).sizes, (Shape{-1, 0}));
}

TEST(CheckedStridedView, EmptyHeadersIgnoreTheStorageBound) {
  Tensor a = strided(10, {10}, {1});
  Tensor v = checked_strided_view(a, {0}, {1}, 100);
  EXPECT_EQ(v.storage_offset, 100);
}

// Note [SymInt arithmetic]: reshape's overloads check each product in 1.13.
constexpr int64_t k2to62 = int64_t{1} << 62;
constexpr const char* kIsSymbolic =
    "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If so, please "
    "report an enhancement request to PyTorch.)";

TEST(SymIntArithmetic, ProductsWrappingBelowMinusTwoToThe62RaiseIn113) {
  const ProfileScope profile("1.13");
  // numel of the old sizes, left to right: 2^62 * 2 wraps to -2^63 before the 0
  EXPECT_RAISES(compute_stride_symint({k2to62, 1, 2, 0}, {2, 2, 1, 1}, {0}), RuntimeError, kIsSymbolic);
  // 2^62 * 3 wraps to -2^62, still an int; a 0 first keeps every product 0
  EXPECT_EQ(compute_stride_symint({k2to62, 3, 0}, {3, 1, 1}, {0}), (Shape{1}));
  EXPECT_EQ(compute_stride_symint({0, k2to62, 2}, {1, 2, 1}, {0}), (Shape{1}));
  // infer_size's newsize
  EXPECT_RAISES(infer_size_symint({k2to62, 2, 0}, 0), RuntimeError, kIsSymbolic);
  EXPECT_EQ(infer_size_symint({k2to62, 3, 0}, 0), (Shape{k2to62, 3, 0}));
  // the int64_t overloads (view) never check
  EXPECT_EQ(compute_stride({k2to62, 1, 2, 0}, {2, 2, 1, 1}, {0}), (Shape{1}));
  EXPECT_EQ(infer_size({k2to62, 2, 0}, 0), (Shape{k2to62, 2, 0}));
}

TEST(SymIntArithmetic, LargeNegativeProductsAreSymIntsSince21) {
  const ProfileScope profile("2.15");
  EXPECT_EQ(compute_stride_symint({k2to62, 1, 2, 0}, {2, 2, 1, 1}, {0}), (Shape{1}));
  EXPECT_EQ(infer_size_symint({k2to62, 2, 0}, 0), (Shape{k2to62, 2, 0}));
}

TEST(FormatIntList, LikeC10) {
  EXPECT_EQ(format_int_list({}), "[]");
  EXPECT_EQ(format_int_list({2, -1}), "[2, -1]");
}

}  // namespace
}  // namespace sc::engine
