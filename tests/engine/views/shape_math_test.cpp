// maybe_wrap_dim, infer_size, compute_stride, compute_storage_nbytes, the
// SymInt limits and the as_strided checks (engine/views/shape_math.cpp).
#include <iterator>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

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

// The inline in-range case (views.h) answers as the full function does.
TEST(MaybeWrapDim, InlineCaseAgreesWithTheFullFunction) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  for (int64_t ndim : {kMin, int64_t{-2}, int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2}, int64_t{5}, kMax})
    for (int64_t dim : {kMin, int64_t{-7}, int64_t{-5}, int64_t{-2}, int64_t{-1}, int64_t{0}, int64_t{1},
                        int64_t{4}, int64_t{5}, kMax})
      for (bool wrap_scalar : {true, false}) {
        int64_t inline_result = -1, full_result = -1;
        const auto a = testing::raised_by([&] { inline_result = maybe_wrap_dim(dim, ndim, wrap_scalar); });
        const auto b = testing::raised_by([&] { full_result = maybe_wrap_dim_slow(dim, ndim, wrap_scalar); });
        EXPECT_EQ(a.message, b.message) << dim << " " << ndim;
        EXPECT_EQ(inline_result, full_result) << dim << " " << ndim;
      }
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

// The -1's division: in 32 bits where numel and the product fit, in 64 bits
// beyond, and never for a product that wrapped negative (numel == newsize
// then gives 1, as numel / newsize does).
TEST(InferSize, DividesInEveryRange) {
  EXPECT_EQ(infer_size({-1, 7}, 21), (Shape{3, 7}));
  EXPECT_EQ(infer_size({-1, 32}, 4096), (Shape{128, 32}));  // a power of two: a shift
  EXPECT_EQ(infer_size({-1, 64}, int64_t{1} << 40), (Shape{int64_t{1} << 34, 64}));
  EXPECT_EQ(infer_size({int64_t{1} << 62, -1}, int64_t{1} << 62), (Shape{int64_t{1} << 62, 1}));
  EXPECT_RAISES(infer_size({-1, 8}, 20), RuntimeError, "shape '[-1, 8]' is invalid for input of size 20");
  EXPECT_EQ(infer_size({3, -1}, int64_t{3} << 40), (Shape{3, int64_t{1} << 40}));
  EXPECT_EQ(infer_size({int64_t{1} << 33, -1}, int64_t{5} << 33), (Shape{int64_t{1} << 33, 5}));
  EXPECT_RAISES(infer_size({-1, 7}, 22), RuntimeError, "shape '[-1, 7]' is invalid for input of size 22");
  EXPECT_RAISES(infer_size({-1, 3}, (int64_t{1} << 40) + 1), RuntimeError,
                "shape '[-1, 3]' is invalid for input of size 1099511627777");
  // 2^62 * 4 wraps to 0: ambiguous only when numel is 0 too
  EXPECT_RAISES(infer_size({int64_t{1} << 62, 4, -1}, 0), RuntimeError,
                "cannot reshape tensor of 0 elements into shape [4611686018427387904, 4, -1] because the unspecified "
                "dimension size -1 can be any value and is ambiguous");
  EXPECT_RAISES(infer_size({int64_t{1} << 62, 4, -1}, 8), RuntimeError,
                "shape '[4611686018427387904, 4, -1]' is invalid for input of size 8");
  // 3 * 2^62 wraps to -2^62: numel == newsize infers 1
  const int64_t wrapped = static_cast<int64_t>(uint64_t{3} << 62);
  EXPECT_EQ(infer_size({3, int64_t{1} << 62, -1}, wrapped), (Shape{3, int64_t{1} << 62, 1}));
  EXPECT_RAISES(infer_size({3, int64_t{1} << 62, -1}, 6), RuntimeError,
                "shape '[3, 4611686018427387904, -1]' is invalid for input of size 6");
  // a stale (negative) numel divides as int64 does
  EXPECT_EQ(infer_size({2, -1}, -6), (Shape{2, -3}));
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

// Note [plain view geometry]: where is_plain_view_geometry says yes, every
// check it lets a view op skip passes, under both profiles; at each of its
// limits it says no, and the full checks decide (here: raise).
testing::Raised full_checks(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t offset) {
  return testing::raised_by([&] {
    check_symint(offset);
    check_symint_list(strides);
    check_symint_list(sizes);
    check_concrete_symints(strides);
    check_concrete_symints(sizes);
    check_as_strided_in_order(self, sizes, strides, offset);
  });
}

TEST(PlainViewGeometry, EveryCheckPassesWhereItSaysPlain) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), k62 = int64_t{1} << 62;
  const int64_t size_pool[] = {1, 1, 2, 3, 7, 64, 0, -1, k62, kMax, kMin, -k62 - 1, int64_t{1} << 31};
  const int64_t stride_pool[] = {0, 1, 1, 2, 5, 64, -1, k62, kMax, kMin, -k62 - 1, int64_t{1} << 40};
  const int64_t offset_pool[] = {0, 0, 1, 9, 1000, -1, k62, kMax, kMin};
  const DType dtypes[] = {DType::Float32, DType::Int8, DType::Float64};
  for (const char* version : {"1.13", "2.15"}) {
    const ProfileScope profile(version);
    std::mt19937_64 rng(20261130);
    auto pick = [&rng](const auto& pool) { return pool[rng() % std::size(pool)]; };
    int plain = 0, plain_over_a_full_storage = 0, conservative = 0;
    for (int k = 0; k < 20000; ++k) {
      const Tensor self = strided(int64_t{1} << (rng() % 11), {1}, {1}, 0, pick(dtypes));
      const size_t rank = rng() % 6;
      Shape sizes(rank), strides(rank);
      for (size_t d = 0; d < rank; ++d) {
        // mostly small values, so that many headers fit
        sizes[d] = rng() % 3 ? static_cast<int64_t>(1 + rng() % 4) : pick(size_pool);
        strides[d] = rng() % 3 ? static_cast<int64_t>(rng() % 9) : pick(stride_pool);
      }
      if (rng() % 8 == 0 && rank > 0) strides.pop_back();  // length mismatch
      const int64_t offset = rng() % 3 ? static_cast<int64_t>(rng() % 16) : pick(offset_pool);
      const testing::Raised checked = full_checks(self, sizes, strides, offset);
      if (is_plain_view_geometry(self, sizes, strides, offset)) {
        ++plain;
        EXPECT_FALSE(checked.raised) << version << ": sizes " << format_int_list(sizes) << " strides "
                                  << format_int_list(strides) << " offset " << offset << ": " << checked.message;
        // the shortcut gives the same answer as the checks (nothing raised)
        EXPECT_NO_THROW(check_as_strided(self, sizes, strides, offset));
        int64_t last = offset;
        for (size_t d = 0; d < rank; ++d) last += strides[d] * (sizes[d] - 1);
        plain_over_a_full_storage += (last + 1) * itemsize(self.dtype) == self.storage->nbytes();
      } else {
        conservative += !checked.raised;  // e.g. a size 0: no bound at all; the full checks run
        const testing::Raised fast = testing::raised_by([&] { check_as_strided(self, sizes, strides, offset); });
        const testing::Raised in_order =
            testing::raised_by([&] { check_as_strided_in_order(self, sizes, strides, offset); });
        EXPECT_EQ(fast.raised, in_order.raised);
        EXPECT_EQ(fast.message, in_order.message);
      }
    }
    // the random headers reach both answers, and the storage's last byte exactly
    EXPECT_GT(plain, 2500) << version;
    EXPECT_GT(plain_over_a_full_storage, 10) << version;
    EXPECT_GT(conservative, 250) << version;
  }
}

TEST(PlainViewGeometry, SaysNoAtEachLimit) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), k62 = int64_t{1} << 62;
  const Tensor a = strided(10, {10}, {1});  // 40 bytes
  EXPECT_TRUE(is_plain_view_geometry(a, {10}, {1}, 0));
  EXPECT_TRUE(is_plain_view_geometry(a, {2, 3}, {3, 1}, 4));  // last byte 40
  EXPECT_TRUE(is_plain_view_geometry(a, {}, {}, 9));
  EXPECT_TRUE(is_plain_view_geometry(a, {k62, 1}, {0, 0}, 0));  // numel 2^62, one element's bytes
  // each limit: no, and the full checks raise
  for (const auto& [sizes, strides, offset] : std::vector<std::tuple<Shape, Shape, int64_t>>{
           {{11}, {1}, 0},             // one element past the storage
           {{10}, {1}, 1},             // the offset pushes it past
           {{4}, {-1}, 3},             // a negative stride
           {{4}, {1}, -1},             // a negative offset
           {{4, 2}, {1}, 0},           // a length mismatch
           {{k62, 2}, {0, 0}, 0},      // numel 2^63
           {{2}, {kMax}, 0},           // the last index overflows int64
           {{-1, 2}, {1, 1}, 0},       // a negative size
           {{kMin}, {1}, 0}}) {        // a size below -2^62
    EXPECT_FALSE(is_plain_view_geometry(a, sizes, strides, offset)) << format_int_list(sizes);
    EXPECT_TRUE(full_checks(a, sizes, strides, offset).raised) << format_int_list(sizes);
  }
  // no, yet nothing raises: a size 0 needs no storage at all
  EXPECT_FALSE(is_plain_view_geometry(a, {0, 3}, {kMax, 1}, 100));
  EXPECT_FALSE(full_checks(a, {0, 3}, {kMax, 1}, 100).raised);
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
