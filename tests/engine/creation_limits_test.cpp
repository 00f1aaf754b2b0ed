// Creation and copy ops at the edges of LibTorch 1.13's rules (issue 6: the
// domain generator found each of these; values measured with LibTorch 1.13.1).
#include <gtest/gtest.h>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/scalar.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "test_util.h"

namespace sc::engine {
namespace {

using testing::error_of;
using testing::values;

constexpr int64_t k2p62 = int64_t{1} << 62;
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(CreationLimits, StorageSizeOverflowRaisesBeforeAllocating) {
  const ProfileScope profile("1.13");  // 1.13 lets the stride products wrap; 2.15: StrideCalculationOverflowRaises
  EXPECT_EQ(error_of([] { zeros({k2p62, 4}, DType::Float32); }),
            "Storage size calculation overflowed with sizes=[4611686018427387904, 4]");
  EXPECT_EQ(error_of([] { empty_strided_iota({2, 2}, {k2p62, 1}, DType::Float32); }),
            "Storage size calculation overflowed with sizes=[2, 2] and strides=[4611686018427387904, 1]");
  // full allocates before it converts the value
  EXPECT_EQ(error_of([] { full({INT64_MAX, 2}, Scalar::integer(1) , DType::Int16); }),
            "Storage size calculation overflowed with sizes=[9223372036854775807, 2]");
  // a size of 0 first: no overflow, strides wrap as LibTorch's do
  Tensor z = zeros({0, k2p62, 2, 1}, DType::Float32);
  EXPECT_EQ(z.strides, (Shape{kMin, 2, 1, 1}));
}

TEST(CreationLimits, SizesBelowMinus2To62AreNoSymInts) {
  const std::string m = "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808";
  EXPECT_EQ(error_of([] { ones({-5, kMin}, DType::Float32); }), m);
  EXPECT_EQ(error_of([] { empty_strided_iota({1}, {kMin}, DType::Float32); }), m);
  EXPECT_EQ(error_of([] { arange(INT64_MAX, DType::UInt8); }), m);  // ceil(end) through a double: 2^63
}

TEST(CreationLimits, EmptyStridedReplacesNegativeStridesAndChecksNumelAndLengths) {
  EXPECT_EQ(empty_strided_iota({1, 1}, {-1, 4}, DType::Float32).strides, (Shape{4, 4}));
  EXPECT_EQ(empty_strided_iota({2, 1}, {3, -2}, DType::Float32).strides, (Shape{3, 1}));
  EXPECT_EQ(error_of([] { empty_strided_iota({k2p62, 4}, {0, 4}, DType::Float32); }),
            "numel: integer multiplication overflow");
  EXPECT_EQ(error_of([] { empty_strided_iota({2, 2}, {1}, DType::Float32); }),
            "dimensionality of sizes (2) must match dimensionality of strides (1)");
}

// Note [arange's vectorized loop]: pairs of 16-lane bfloat16 vectors, each
// lane base + k with the base rounded to bfloat16 first.
TEST(CreationLimits, ArangeRoundsLikeLibTorchsVectorizedLoop) {
  std::vector<double> v = values(arange(4128, DType::BFloat16));
  EXPECT_EQ(v[4113], 4096);  // base bf16(4112) = 4096 (tie to even), + 1 -> 4096
  EXPECT_EQ(v[4127], 4096);  // the pair ending at 4128 is vectorized too
  std::vector<double> tail = values(arange(4100, DType::BFloat16));
  EXPECT_EQ(tail[4097], 4096);  // past the last whole pair: each index rounded once
  EXPECT_EQ(values(arange(2049, DType::Float16))[2048], 2048);
  EXPECT_EQ(error_of([] { arange(-3, DType::Bool); }), "\"arange_cpu\" not implemented for 'Bool'");
}

TEST(CopyLimits, RepeatChecksItsUnfoldedAliasAndExpand) {
  Tensor big = empty_strided_iota({k2p62, 0}, {2, 0}, DType::Float32);
  EXPECT_EQ(error_of([&] { repeat(big, {0, 0, 0}); }),
            "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808");
}

TEST(CopyLimits, FlipOfMoreThan64Dims) {
  Tensor t = zeros(Shape(65, 1), DType::Float32);
  EXPECT_EQ(error_of([&] { flip(t, {0}); }), "only tensors with up to 64 dims are supported");
}

TEST(CopyLimits, PreservedStridesBelowMinus2To62) {
  const ProfileScope profile("1.13");  // 1.13 lets the stride products wrap; 2.15: StrideCalculationOverflowRaises
  Tensor z = zeros({0, k2p62, 2, 1}, DType::Float32);
  EXPECT_EQ(error_of([&] { clone(z, MemoryFormat::Preserve); }),
            "SymIntArrayRef expected to contain only concrete integers");
  EXPECT_EQ(error_of([&] { empty_like(z); }),
            "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808");
}

// Change::StrideCalculationChecksOverflow (2.x): the contiguous strides of an
// empty tensor and the replacement of a negative stride are checked products.
TEST(CreationLimits, StrideCalculationOverflowRaises) {
  const ProfileScope profile("2.15");
  EXPECT_EQ(error_of([] { zeros({0, k2p62, 4}, DType::Float32); }), "Stride calculation overflowed");
  EXPECT_EQ(error_of([] { empty_strided_iota({0, k2p62}, {-2, 3}, DType::Float32); }),
            "Stride calculation overflowed");
  // the last product (size[0]) is never taken: no overflow
  EXPECT_EQ(zeros({k2p62, 0, 1}, DType::Float32).strides, (Shape{1, 1, 1}));
}

// tensor()'s integer literals (torch.tensor's store_scalar): a value in its
// integer dtype's range is stored as it is (uint8 takes -255..255, -1 as 255),
// one past raises as the checked conversion does; a float literal or a bool
// dtype still goes through the checked path.
TEST(CreationLimits, TensorIntegerLiteralsAtTheBoundsOfEachIntegerDType) {
  struct Case {
    DType d;
    int64_t lo, hi;
    const char* name;
  };
  for (const Case& c : {Case{DType::UInt8, -255, 255, "uint8"}, Case{DType::Int8, -128, 127, "int8"},
                        Case{DType::Int16, -32768, 32767, "int16"},
                        Case{DType::Int32, INT32_MIN, INT32_MAX, "int32"}}) {
    Tensor t = tensor({Scalar::integer(c.lo), Scalar::integer(c.hi), Scalar::integer(-1)}, false, c.d);
    const int64_t w = itemsize(c.d);
    EXPECT_EQ(load_int(c.d, t.storage->data()), c.d == DType::UInt8 ? 1 : c.lo) << c.name;
    EXPECT_EQ(load_int(c.d, t.storage->data() + w), c.hi) << c.name;
    EXPECT_EQ(load_int(c.d, t.storage->data() + 2 * w), c.d == DType::UInt8 ? 255 : -1) << c.name;
    const std::string msg = std::string("value cannot be converted to type ") + c.name + " without overflow";
    EXPECT_EQ(error_of([&] { tensor({Scalar::integer(c.hi + 1)}, false, c.d); }), msg);
    EXPECT_EQ(error_of([&] { tensor({Scalar::integer(c.lo - 1)}, false, c.d); }), msg);
  }
  Tensor l = tensor({Scalar::integer(INT64_MIN), Scalar::integer(INT64_MAX)}, false, DType::Int64);
  EXPECT_EQ(load_int(DType::Int64, l.storage->data()), INT64_MIN);
  EXPECT_EQ(load_int(DType::Int64, l.storage->data() + 8), INT64_MAX);
  Tensor b = tensor({Scalar::integer(7), Scalar::integer(0)}, false, DType::Bool);
  EXPECT_EQ(values(b), (std::vector<double>{1, 0}));
  EXPECT_EQ(error_of([] { tensor({Scalar::floating(128.0)}, false, DType::Int8); }),
            "value cannot be converted to type int8 without overflow");
}

// The checked forms return these errors as values, never throwing (Note
// [errors returned, not thrown]): the SymInt conversion of a size list and the
// storage size overflow, with the throwing forms' messages.
TEST(CreationLimits, SymIntAndStorageSizeErrorsAreReturnedByTheCheckedForms) {
  const int64_t below = -(int64_t{1} << 62) - 1;
  const std::string symint = "IntArrayRef contains an int that cannot be represented as a SymInt: " + std::to_string(below);
  auto message = [](auto&& checked) {
    EXPECT_FALSE(checked.ok());
    return checked.ok() ? std::string() : checked.failure().error.message;
  };
  EXPECT_EQ(message(zeros_checked({2, below}, DType::Float32)), symint);
  EXPECT_EQ(message(full_checked({below}, Scalar::integer(1), DType::Int16)), symint);
  EXPECT_EQ(error_of([&] { zeros({2, below}, DType::Float32); }), symint);
  EXPECT_EQ(message(empty_strided_checked({2, 2}, {k2p62, 2}, DType::Float32)),
            "Storage size calculation overflowed with sizes=[2, 2] and strides=[4611686018427387904, 2]");
  EXPECT_EQ(error_of([] { empty_strided({2, 2}, {k2p62, 2}, DType::Float32); }),
            "Storage size calculation overflowed with sizes=[2, 2] and strides=[4611686018427387904, 2]");
  auto nbytes = compute_storage_nbytes_checked({3}, {2}, 4);
  ASSERT_TRUE(nbytes.ok());
  EXPECT_EQ(nbytes.value(), 20);
}

}  // namespace
}  // namespace sc::engine
