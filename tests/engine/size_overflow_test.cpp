// Size arithmetic past int64 (found by UBSan: signed integer overflow in the
// engine). Where LibTorch 1.13 computes in int64 that wraps (repeat's target
// sizes, contiguous strides, iterator byte strides) the engine wraps too;
// where it checks in uint64 (storage sizes, numel) the engine raises its
// message. Messages follow LibTorch 1.13's code (TensorFactories.cpp,
// EmptyTensor.cpp); the creations past the budget are not compared by replay.
#include <gtest/gtest.h>

#include <functional>

#include "engine/version_profile.h"
#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/error.h"
#include "engine/layout.h"

namespace sc::engine {
namespace {

constexpr int64_t k62 = int64_t{1} << 62;

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const TorchError& e) {
    return e.message;
  }
  return "(no error)";
}

TEST(SizeOverflow, ContiguousStridesWrap) {
  EXPECT_EQ(contiguous_strides({0, k62, 4}), (Shape{0, 4, 1}));  // 4 * 2^62 wraps to 0
  EXPECT_EQ(contiguous_strides({2, 3}), (Shape{3, 1}));
}

TEST(SizeOverflow, NumelIsTheUnsignedProduct) {
  Tensor a = arange(4, DType::Float32);
  EXPECT_EQ(make_view(a, {3, k62, 0}, {0, 0, 0}, 0).numel(), 0);
  EXPECT_EQ(make_view(a, {4, k62}, {0, 0}, 0).numel(), 0);  // 2^64 wraps to 0
}

TEST(SizeOverflow, EmptyChecksTheStorageSizeStickily) {
  const ProfileScope profile("1.13");  // 2.x also checks the stride products (StrideCalculationChecksOverflow)
  EXPECT_EQ(message_of([] { empty({k62, 4}, DType::Float32); }),
            "Storage size calculation overflowed with sizes=[4611686018427387904, 4]");
  EXPECT_EQ(empty({3, k62, 0}, DType::Float32).numel(), 0);  // 3 * 2^62 fits in uint64
  EXPECT_EQ(message_of([] { empty({5, k62, 0}, DType::Float32); }),
            "Storage size calculation overflowed with sizes=[5, 4611686018427387904, 0]");
  EXPECT_EQ(empty({0, k62, k62}, DType::Float32).numel(), 0);  // 0 first: no overflow
  EXPECT_EQ(message_of([] { empty_strided({k62, 4}, {1, k62}, DType::Float32); }),
            "Storage size calculation overflowed with sizes=[4611686018427387904, 4] and strides=[1, "
            "4611686018427387904]");
}

TEST(SizeOverflow, RepeatTargetSizesWrap) {
  Tensor a = arange(24, DType::Float32);
  // 24 * INT64_MAX wraps to -24
  EXPECT_EQ(message_of([&] { repeat(a, {INT64_MAX}); }), "Trying to create tensor with negative dimension -24: [-24]");
  EXPECT_EQ(message_of([&] { repeat(a, {INT64_MIN}); }),
            "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808");
  EXPECT_EQ(message_of([&] { repeat(a, {k62, 1}); }),
            "Storage size calculation overflowed with sizes=[4611686018427387904, 24]");
}

}  // namespace
}  // namespace sc::engine
