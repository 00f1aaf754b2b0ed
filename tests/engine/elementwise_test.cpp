// Out-of-place elementwise ops: promotion, broadcasting, output strides, out=.
#include <gtest/gtest.h>

#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/layout.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "engine/warnings.h"
#include "tests/engine/test_util.h"

namespace sc::engine {
namespace {
using testing::error_of;
using testing::values;

Tensor hdr(const Tensor& b, Shape s, Shape st, int64_t off = 0) { return make_view(b, s, st, off); }

TEST(ResultType, DimensionCategories) {
  Tensor i32 = zeros({2}, DType::Int32), bo = zeros({2}, DType::Bool), i8 = zeros({2}, DType::Int8);
  Tensor d0 = zeros({}, DType::Float64), l0 = zeros({}, DType::Int64), h0 = zeros({}, DType::Float16);
  EXPECT_EQ(result_type({Operand::of(i32), Operand::of(Scalar::floating(2.5))}), DType::Float32);
  EXPECT_EQ(result_type({Operand::of(i32), Operand::of(Scalar::boolean(true))}), DType::Int32);
  EXPECT_EQ(result_type({Operand::of(bo), Operand::of(Scalar::integer(3))}), DType::Int64);
  EXPECT_EQ(result_type({Operand::of(bo), Operand::of(d0)}), DType::Float64);
  EXPECT_EQ(result_type({Operand::of(i8), Operand::of(l0)}), DType::Int8);
  EXPECT_EQ(result_type({Operand::of(i32), Operand::of(h0)}), DType::Float16);
  EXPECT_EQ(result_type({Operand::of(zeros({}, DType::UInt8)), Operand::of(zeros({}, DType::Int8))}), DType::Int16);
}

TEST(Add, BroadcastsAndFollowsLayout) {
  Tensor a = arange(24, DType::Float32);
  Tensor xt = hdr(a, {4, 3, 2}, {1, 4, 12});
  Tensor r = add(xt, Operand::of(Scalar::integer(1)));
  EXPECT_EQ(r.strides, (Shape{1, 4, 12}));
  auto vx = values(xt), vr = values(r);
  for (size_t k = 0; k < vx.size(); ++k) EXPECT_EQ(vr[k], vx[k] + 1);
  Tensor cl = hdr(arange(120, DType::Float32), {2, 3, 4, 5}, {60, 1, 15, 3});
  EXPECT_EQ(add(cl, Operand::of(Scalar::integer(1))).strides, (Shape{60, 1, 15, 3}));
  Tensor row = arange(2, DType::Int64);
  Tensor s = add(xt, Operand::of(row));
  EXPECT_EQ(s.dtype, DType::Float32);
  EXPECT_EQ(error_of([&] { add(xt, Operand::of(zeros({3}, DType::Float32))); }),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 2");
}

TEST(Neg, RejectsBoolAndWrapsIntegers) {
  EXPECT_EQ(error_of([&] { neg(zeros({2}, DType::Bool)); }),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
            "the `~` or `logical_not()` operator instead.");
  Tensor i8 = tensor({Scalar::integer(-128), Scalar::integer(5)}, false, DType::Int8);
  EXPECT_EQ(values(neg(i8)), (std::vector<double>{-128, -5}));
}

TEST(Out, ResizesWithWarningAndBumpsVersion) {
  take_warnings();
  Tensor x = zeros({2, 3}, DType::Float32);
  Tensor z = zeros({5}, DType::Float32);
  Tensor r = add_out(z, x, Operand::of(Scalar::integer(1)));
  EXPECT_EQ(z.sizes, (Shape{2, 3}));
  EXPECT_EQ(r.id, z.id);
  EXPECT_EQ(z.version().value, 1);
  EXPECT_EQ(z.storage->nbytes(), 24);
  auto w = take_warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("An output with one or more elements was resized since it had shape [5], which does not match "
                       "the required output shape [2, 3].", 0),
            0u);
  Tensor zl = zeros({2, 3}, DType::Int64);
  EXPECT_EQ(error_of([&] { add_out(zl, x, Operand::of(Scalar::integer(1))); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(error_of([&] { neg_out(zl, x); }), "Found dtype Long but expected Float");
  Tensor z0 = zeros({0}, DType::Float32);
  add_out(z0, x, Operand::of(Scalar::integer(1)));
  EXPECT_TRUE(take_warnings().empty());
}

// An out= resize whose numel overflows keeps LibTorch's cached numel (Note
// [stale layout flags]): view/reshape infer sizes from the old 35 elements,
// the next resize warns as for an out with elements, a 2.x detach copies it.
TEST(Out, FailedResizeKeepsTheCachedNumel) {
  for (const char* version : {"2.15", "1.13"}) {
    ProfileScope scope(version);
    take_warnings();
    Tensor a = zeros({2, 1, 0}, DType::Float32);
    Tensor c = as_strided(a, {-1, 0}, {1, 1}, std::nullopt);
    Tensor b = zeros({5, 7}, DType::Float32);
    EXPECT_EQ(error_of([&] { mul_out(b, c, Operand::of(a)); }), "numel: integer multiplication overflow");
    EXPECT_EQ(b.sizes, (Shape{2, -1, 0}));
    EXPECT_EQ(b.numel(), 0);
    EXPECT_EQ(cached_numel(b), 35);
    EXPECT_EQ(error_of([&] { view_as(b, b); }), "shape '[2, -1, 0]' is invalid for input of size 35");
    EXPECT_EQ(error_of([&] { reshape(b, {0}); }), "shape '[0]' is invalid for input of size 35");
    EXPECT_EQ(cached_numel(reshape(b, {5, 7})), 35);  // a view of the 35 elements' storage
    if (since(Change::DetachCopiesCachedMetadata)) {
      EXPECT_EQ(cached_numel(detach(b)), 35);
    } else {
      EXPECT_EQ(error_of([&] { detach(b); }), "numel: integer multiplication overflow");
    }
    take_warnings();
    Tensor x = zeros({3}, DType::Float32);
    add_out(b, x, Operand::of(x));  // a resize that passes refreshes numel
    EXPECT_EQ(take_warnings().size(), 1u);
    EXPECT_FALSE(b.stale_numel.has_value());
    EXPECT_EQ(cached_numel(b), 3);
  }
}

}  // namespace
}  // namespace sc::engine
