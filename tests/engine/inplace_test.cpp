// In-place ops: values, version counter, checks and messages (LibTorch 1.13.1 measured).
#include <gtest/gtest.h>

#include "engine/creation.h"
#include <cstring>

#include "engine/inplace.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "tests/engine/test_util.h"

namespace sc::engine {
namespace {
using testing::error_of;
using testing::values;

Tensor hdr(const Tensor& b, Shape s, Shape st, int64_t off = 0) { return make_view(b, s, st, off); }
Operand num(double v) { return Operand::of(Scalar::floating(v)); }
Operand num(int64_t v) { return Operand::of(Scalar::integer(v)); }

TEST(InPlace, WritesThroughViewsAndBumpsTheSharedVersionOnce) {
  Tensor x = zeros({2, 3}, DType::Float32);
  Tensor row = hdr(x, {3}, {1}, 0);
  add_(row, num(int64_t{1}));
  EXPECT_EQ(values(x), (std::vector<double>{1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(x.version().value, 1);
  EXPECT_EQ(row.version().value, 1);
  mul_(x, num(int64_t{2}));
  EXPECT_EQ(x.version().value, 2);
}

TEST(InPlace, FailedOpsDoNotBump) {
  Tensor i = zeros({3}, DType::Int64);
  EXPECT_EQ(error_of([&] { add_(i, num(2.5)); }), "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(error_of([&] { div_(i, num(int64_t{2})); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(i.version().value, 0);
}

TEST(InPlace, OverlapChecks) {
  Tensor z = zeros({1, 4}, DType::Float32);
  Tensor e = hdr(z, {3, 4}, {0, 1});
  EXPECT_EQ(error_of([&] { add_(e, num(int64_t{1})); }),
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.");
  fill_(e, Scalar::integer(3));  // fill is idempotent: no check
  EXPECT_EQ(values(z), (std::vector<double>(4, 3)));
  Tensor x = zeros({2, 4}, DType::Float32);
  Tensor r0 = hdr(x, {4}, {1});
  EXPECT_EQ(error_of([&] { add_(x, Operand::of(r0)); }),
            "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
            "memory location. Please clone() the tensor before performing the operation.");
}

TEST(InPlace, ShapeErrors) {
  Tensor x = zeros({3}, DType::Float32), y = zeros({2, 3}, DType::Float32), w = zeros({4}, DType::Float32);
  EXPECT_EQ(error_of([&] { add_(x, Operand::of(y)); }), "output with shape [3] doesn't match the broadcast shape [2, 3]");
  EXPECT_EQ(error_of([&] { copy_(y, w); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
}

TEST(InPlace, IntegerWrapAndHalfRounding) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor i8 = tensor({Scalar::integer(120)}, false, DType::Int8);
  add_(i8, num(int64_t{100}));
  EXPECT_EQ(values(i8), (std::vector<double>{-36}));
  Tensor h = tensor({Scalar::floating(3.0)}, false, DType::Float16);
  mul_(h, num(0.1));  // 0.1 -> half first, product rounded once: bits 13516
  uint16_t bits;
  std::memcpy(&bits, h.storage->data(), 2);
  EXPECT_EQ(bits, 13516);
}

TEST(Copy, BroadcastsConvertsAndTruncates) {
  Tensor j = zeros({2, 3}, DType::Float64);
  Tensor i = tensor({Scalar::integer(1), Scalar::integer(2), Scalar::integer(3)}, false, DType::Int32);
  copy_(j, i);
  EXPECT_EQ(values(j), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(j.version().value, 1);
  EXPECT_EQ(i.version().value, 0);
  Tensor f = tensor({Scalar::floating(300.0), Scalar::floating(-2.7), Scalar::floating(1e10)}, false, DType::Float32);
  Tensor c = zeros({3}, DType::Int8);
  copy_(c, f);
  EXPECT_EQ(values(c), (std::vector<double>{44, -2, 0}));  // x86 cvtt through int32, as LibTorch
}

// Change::CopyFloatHalfSkipsOverlapChecks: 2.15's float32 <-> float16 copy_ of
// equal sizes, both contiguous, skips the overlap checks (fbgemm); the
// contents read through the overlap are undefined. 1.13 raises.
TEST(Copy, FloatHalfFastPathSkipsOverlapChecks) {
  const std::string partial =
      "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
      "location. Please clone() the tensor before performing the operation.";
  auto half_over_own_floats = [] {
    Tensor a = arange(8, DType::Float32);
    Tensor h = hdr(view_dtype(a, DType::Float16), {8}, {1});
    return std::pair{a, h};
  };
  {
    const ProfileScope profile("1.13");
    // Plain names, not a structured binding: clang 14 (CI's ASan stage) cannot capture those.
    const auto ah = half_over_own_floats();
    const Tensor &a = ah.first, &h = ah.second;
    EXPECT_EQ(error_of([&] { copy_(h, a); }), partial);
    EXPECT_EQ(a.version().value, 0);
  }
  const ProfileScope profile("2.15");
  const auto ah = half_over_own_floats();
  const Tensor &a = ah.first, &h = ah.second;
  EXPECT_EQ(error_of([&] { copy_(h, a); }), "");
  EXPECT_EQ(h.version().value, 1);
  // every element reads its float32 before an earlier one writes it: 0..7
  EXPECT_EQ(values(h), (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_FALSE(a.storage->has_undefined_bytes());
  {
    // 4 float32 over the float16 view of their own first 8 bytes: element 0
    // reads first; 1..3 read bytes element 0 and 1 already wrote (undefined)
    Tensor d = arange(4, DType::Float32);
    Tensor f = hdr(view_dtype(d, DType::Float16), {4}, {1});
    copy_(d, f);
    const auto& m = d.storage->undefined_mask();
    ASSERT_EQ(m.size(), 16u);
    for (int b = 0; b < 16; ++b) EXPECT_EQ(m[b] != 0, b >= 4) << b;
  }
  // other sizes (src broadcast) or another dtype pair: checked as before
  Tensor q = hdr(a, {2, 4}, {4, 1});
  Tensor p = hdr(h, {4}, {1});
  EXPECT_EQ(error_of([&] { copy_(q, p); }), partial);
  Tensor b = hdr(view_dtype(a, DType::BFloat16), {8}, {1});
  EXPECT_EQ(error_of([&] { copy_(b, a); }), partial);
  // no overlap: converted as any copy_
  Tensor z = zeros({8}, DType::Float16);
  Tensor src = arange(8, DType::Float32);
  copy_(z, src);
  EXPECT_EQ(values(z), values(src));
  EXPECT_FALSE(z.storage->has_undefined_bytes());
}

// Note [copy_'s fbgemm count]: two 0-d tensors whose out= resizes to
// [2,-1,0,0] raised keep a cached numel of 1 and their cached contiguity:
// 2.15's fbgemm path converts that one element; 1.13's TensorIterator copies
// the sizes' none.
TEST(Copy, FbgemmPathConvertsTheCachedNumel) {
  auto stale_0d = [](DType d, double v) {
    Tensor t = full({}, Scalar::floating(v), d);
    t.sizes = {2, -1, 0, 0};
    t.strides = {0, 0, 0, 0};
    t.stale_numel = 1;
    t.stale_layout = LayoutFlags{true, false, false, true};
    return t;
  };
  {
    const ProfileScope profile("1.13");
    Tensor c = stale_0d(DType::Float32, 0), b = stale_0d(DType::Float16, 1);
    copy_(c, b);
    float x = 0;
    std::memcpy(&x, c.storage->data(), 4);
    EXPECT_EQ(x, 0.0f);
  }
  const ProfileScope profile("2.15");
  Tensor c = stale_0d(DType::Float32, 0), b = stale_0d(DType::Float16, 1);
  copy_(c, b);
  float x = 0;
  std::memcpy(&x, c.storage->data(), 4);
  EXPECT_EQ(x, 1.0f);
  EXPECT_EQ(c.sizes, (Shape{2, -1, 0, 0}));  // the header as it was
}

TEST(Clamp, ChecksAndValues) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor f = tensor({Scalar::floating(-2), Scalar::floating(0.5), Scalar::floating(9)}, false, DType::Float32);
  EXPECT_EQ(error_of([&] { clamp_(f, std::nullopt, std::nullopt); }),
            "torch.clamp: At least one of 'min' or 'max' must not be None");
  clamp_(f, Scalar::integer(0), Scalar::integer(1));
  EXPECT_EQ(values(f), (std::vector<double>{0, 0.5, 1}));
  Tensor i = zeros({2}, DType::Int64);
  EXPECT_EQ(error_of([&] { clamp_(i, Scalar::floating(0.5), std::nullopt); }),
            "result type Float can't be cast to the desired output type long int");
  Tensor h = zeros({2}, DType::Float16);
  EXPECT_EQ(error_of([&] { clamp_(h, Scalar::integer(0), Scalar::integer(1)); }),
            "\"clamp_scalar_cpu\" not implemented for 'Half'");
}

TEST(Fill, CheckedConversion) {
  Tensor i8 = zeros({2}, DType::Int8);
  EXPECT_EQ(error_of([&] { fill_(i8, Scalar::integer(200)); }), "value cannot be converted to type int8_t without overflow");
  Tensor u8 = zeros({2}, DType::UInt8);
  fill_(u8, Scalar::integer(-1));
  EXPECT_EQ(values(u8), (std::vector<double>{255, 255}));
  Tensor l = zeros({2}, DType::Int64);
  fill_(l, Scalar::floating(-2.7));
  EXPECT_EQ(values(l), (std::vector<double>{-2, -2}));
}

TEST(Undefined, OverlappingWriteMarksDoublyReachedBytes) {
  Tensor a = arange(10, DType::Float32);
  Tensor w = hdr(a, {4, 4}, {2, 1});
  take_undefined_reason();
  mul_(w, num(int64_t{2}));
  EXPECT_TRUE(take_undefined_reason().has_value());
  const auto& mask = a.storage->undefined_mask();
  ASSERT_EQ(mask.size(), 40u);
  for (int e = 0; e < 10; ++e) EXPECT_EQ(mask[e * 4], (e >= 2 && e <= 7) ? 1 : 0) << e;
  // elements reached once are defined and doubled
  auto v = values(a);
  EXPECT_EQ(v[0], 0);
  EXPECT_EQ(v[1], 2);
  EXPECT_EQ(v[8], 16);
  EXPECT_EQ(v[9], 18);
}

// Locations reached two or three times are marked once each, whether they are
// counted in an array over the span (a short one) or found in the sorted
// offsets (a span much longer than the tensor: 60,003 elements for 12).
TEST(Undefined, OverlappingWriteMarksLocationsReachedTwiceInAnySpan) {
  {
    Tensor a = arange(10, DType::Float32);
    Tensor w = hdr(a, {3, 3}, {1, 1});  // offsets 0 1 2 / 1 2 3 / 2 3 4: 1 and 3 twice, 2 three times
    take_undefined_reason();
    add_(w, num(int64_t{1}));
    auto why = take_undefined_reason();
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find(": 3 memory locations are written more than once"), std::string::npos) << *why;
    const auto& mask = a.storage->undefined_mask();
    ASSERT_EQ(mask.size(), 40u);
    for (int e = 0; e < 10; ++e) EXPECT_EQ(mask[e * 4], (e >= 1 && e <= 3) ? 1 : 0) << e;
  }
  {
    Tensor a = zeros({60010}, DType::Int16);
    Tensor w = hdr(a, {2, 3, 2}, {60000, 1, 1}, 5);  // per block: 0 1 / 1 2 / 2 3 past 5 and 60005
    take_undefined_reason();
    sub_(w, num(int64_t{1}));
    auto why = take_undefined_reason();
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find(": 4 memory locations are written more than once"), std::string::npos) << *why;
    const auto& mask = a.storage->undefined_mask();
    ASSERT_EQ(mask.size(), 120020u);
    std::vector<int64_t> marked;
    for (size_t i = 0; i < mask.size(); ++i)
      if (mask[i]) marked.push_back(static_cast<int64_t>(i));
    EXPECT_EQ(marked, (std::vector<int64_t>{12, 13, 14, 15, 120012, 120013, 120014, 120015}));
    auto v = values(a);
    EXPECT_EQ(v[5], -1);  // reached once: written and defined
    EXPECT_EQ(v[60008], -1);
  }
}

}  // namespace
}  // namespace sc::engine
