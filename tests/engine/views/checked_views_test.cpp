// The `_checked` view ops (Note [errors returned, not thrown], engine/checked.h)
// return exactly what the throwing ops throw: the same kind and message for
// every error, the same geometry otherwise, over a grid of ranks, dims and
// arguments that reaches every check of each op on both version profiles.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/checked.h"
#include "engine/version_profile.h"
#include "tests/engine/views/views_test_util.h"

namespace sc::engine {
namespace {
using testing::geometry;
using testing::iota;
using testing::raised_by;

// Runs the throwing and the checked form; returns how many errors they agreed on.
int expect_same(const std::function<Tensor()>& throwing, const std::function<Checked<Tensor>()>& checked,
                const std::string& what) {
  Tensor thrown_result;
  const testing::Raised raised = raised_by([&] { thrown_result = throwing(); });
  // A callee the checked form does not convert still throws: the same error.
  std::optional<Checked<Tensor>> r;
  const testing::Raised raised_by_checked = raised_by([&] { r.emplace(checked()); });
  if (raised_by_checked.raised) {
    EXPECT_TRUE(raised.raised) << what;
    EXPECT_EQ(raised_by_checked.kind, raised.kind) << what;
    EXPECT_EQ(raised_by_checked.message, raised.message) << what;
    return 0;
  }
  EXPECT_EQ(r->ok(), !raised.raised) << what << (raised.raised ? ": threw " + raised.message : ": returned an error");
  if (!r->ok() && raised.raised) {
    EXPECT_EQ(r->failure().error.kind, raised.kind) << what;
    EXPECT_EQ(r->failure().error.message, raised.message) << what;
    return 1;
  }
  if (r->ok() && !raised.raised) EXPECT_EQ(geometry(r->value()), geometry(thrown_result)) << what;
  return 0;
}

std::vector<Tensor> inputs() {
  std::vector<Tensor> out;
  out.push_back(iota({}));
  out.push_back(iota({5}));
  out.push_back(iota({1, 3}));
  out.push_back(iota({2, 3, 4}));
  out.push_back(transpose(iota({2, 3, 4}), 0, 2));  // not contiguous: view raises for some shapes
  out.push_back(iota({0, 2}));
  out.push_back(iota({2, 1, 1, 3}));
  return out;
}

const std::vector<int64_t> kDims = {-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5};

class CheckedViews : public ::testing::TestWithParam<const char*> {};

TEST_P(CheckedViews, DimOpsAgreeWithTheThrowingOps) {
  const ProfileScope profile(GetParam());
  int errors = 0;
  for (const Tensor& x : inputs()) {
    const std::string s = format_int_list(x.sizes);
    errors += expect_same([&] { return t(x); }, [&] { return t_checked(x); }, "t " + s);
    errors += expect_same([&] { return mT(x); }, [&] { return mT_checked(x); }, "mT " + s);
    for (int64_t d : kDims) {
      const std::string sd = s + " dim " + std::to_string(d);
      errors += expect_same([&] { return unsqueeze(x, d); }, [&] { return unsqueeze_checked(x, d); }, "unsqueeze " + sd);
      errors += expect_same([&] { return squeeze(x, d); }, [&] { return squeeze_checked(x, d); }, "squeeze " + sd);
      for (int64_t e : kDims) {
        const std::string sde = sd + " " + std::to_string(e);
        errors += expect_same([&] { return transpose(x, d, e); }, [&] { return transpose_checked(x, d, e); },
                              "transpose " + sde);
        errors += expect_same([&] { return select(x, d, e); }, [&] { return select_checked(x, d, e); }, "select " + sde);
        for (int64_t off : {-2, 0, 1, 7})
          errors += expect_same([&] { return diagonal(x, off, d, e); }, [&] { return diagonal_checked(x, off, d, e); },
                                "diagonal " + sde);
        for (int64_t len : {-1, 0, 1, 2, 4})
          errors += expect_same([&] { return narrow(x, d, e, len); }, [&] { return narrow_checked(x, d, e, len); },
                                "narrow " + sde + " " + std::to_string(len));
      }
    }
  }
  EXPECT_GT(errors, 1000);  // the grid reaches the error paths, not only the views
}

TEST_P(CheckedViews, ShapeOpsAgreeWithTheThrowingOps) {
  const std::vector<Shape> shapes = {{},        {-1},         {24},         {2, -1},  {-1, -1}, {5, -1},
                                     {0, -1},   {3, -2},      {4, 3, 2},    {2, 12},  {1, 4, 6}, {7},
                                     {-1, 0},   {2, 3, 4, 1}, {1, -1, 1},   {6, 4},   {12, 2},   {3, 1, 8}};
  const ProfileScope profile(GetParam());
  int errors = 0;
  for (const Tensor& x : inputs()) {
    const std::string s = format_int_list(x.sizes);
    for (const Shape& shape : shapes) {
      const std::string ss = s + " to " + format_int_list(shape);
      errors += expect_same([&] { return view(x, shape); }, [&] { return view_checked(x, shape); }, "view " + ss);
      errors += expect_same([&] { return expand(x, shape); }, [&] { return expand_checked(x, shape); }, "expand " + ss);
    }
  }
  EXPECT_GT(errors, 100);
}

// slice, unfold and as_strided build their result in each form separately
// (Note [view ops built in place], engine/views/slice.cpp): every check must
// stay in both.
TEST_P(CheckedViews, SliceUnfoldAndAsStridedAgreeWithTheThrowingOps) {
  const ProfileScope profile(GetParam());
  const int64_t below_symint = kMinSymIntRepresentable - 1;
  const std::vector<std::optional<int64_t>> bounds = {std::nullopt, INT64_MIN, below_symint, -3, -1, 0,
                                                      1,            2,         4,            INT64_MAX};
  int errors = 0;
  for (const Tensor& x : inputs()) {
    const std::string s = format_int_list(x.sizes);
    for (int64_t d : kDims) {
      const std::string sd = s + " dim " + std::to_string(d);
      for (const auto& start : bounds)
        for (const auto& end : bounds)
          for (int64_t step : {below_symint, int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2}, int64_t{3}})
            errors += expect_same([&] { return slice(x, d, start, end, step); },
                                  [&] { return slice_checked(x, d, start, end, step); },
                                  "slice " + sd + " " + std::to_string(start.value_or(-99)) + " " +
                                      std::to_string(end.value_or(-99)) + " " + std::to_string(step));
      for (int64_t size : {-1, 0, 1, 2, 3, 6})
        for (int64_t step : {-1, 0, 1, 2})
          errors += expect_same([&] { return unfold(x, d, size, step); },
                                [&] { return unfold_checked(x, d, size, step); },
                                "unfold " + sd + " " + std::to_string(size) + " " + std::to_string(step));
    }
    const std::vector<Shape> sizes = {{}, {2, 2}, {-1}, {0, 3}, {3, 4}, {30}, {below_symint}};
    const std::vector<Shape> strides = {{}, {1, 1}, {-1, 1}, {4, 1}, {1}, {INT64_MAX / 2, 1}, {below_symint}};
    for (const Shape& size : sizes)
      for (const Shape& stride : strides)
        for (const auto& offset : bounds)
          errors += expect_same([&] { return as_strided(x, size, stride, offset); },
                                [&] { return as_strided_checked(x, size, stride, offset); },
                                "as_strided " + s + " " + format_int_list(size) + " " + format_int_list(stride) +
                                    " " + std::to_string(offset.value_or(-99)));
  }
  EXPECT_GT(errors, 10000);  // the grid reaches the error paths, not only the views
}

INSTANTIATE_TEST_SUITE_P(Profiles, CheckedViews, ::testing::Values("1.13", "2.15"));

TEST(CheckedViewsAnyProfile, InferSizeKeepsThePlainRuntimeErrorType) {
  // unflatten tells LibTorch's plain std::runtime_error messages from c10::Errors by type.
  EXPECT_THROW(infer_size({-1, -1}, 6), PlainRuntimeError);
  EXPECT_THROW(infer_size({4}, 6), PlainRuntimeError);
  Checked<Shape> two = infer_size_checked({-1, -1}, 6);
  ASSERT_FALSE(two.ok());
  EXPECT_TRUE(two.failure().plain);
  EXPECT_EQ(two.failure().error.message, "only one dimension can be inferred");
  Checked<Shape> bad = infer_size_checked({4}, 6);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.failure().plain);
  EXPECT_EQ(bad.failure().error.message, "shape '[4]' is invalid for input of size 6");
  // "invalid shape dimension" is a c10::Error: a TorchError, not a plain one.
  Checked<Shape> negative = infer_size_checked({-3}, 6);
  ASSERT_FALSE(negative.ok());
  EXPECT_FALSE(negative.failure().plain);
  try {
    infer_size({-3}, 6);
    ADD_FAILURE() << "no throw";
  } catch (const PlainRuntimeError&) {
    ADD_FAILURE() << "thrown as a PlainRuntimeError";
  } catch (const TorchError& e) {
    EXPECT_EQ(e.message, negative.failure().error.message);
  }
  Checked<Shape> ok = infer_size_checked({2, -1}, 6);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.value(), (Shape{2, 3}));
}

TEST(CheckedViewsAnyProfile, MaybeWrapDimCheckedAgreesWithMaybeWrapDim) {
  const std::vector<int64_t> values = {INT64_MIN, -9, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 8, INT64_MAX};
  for (int64_t ndim : {int64_t{-3}, int64_t{0}, int64_t{1}, int64_t{3}, int64_t{4}})
    for (int64_t dim : values)
      for (bool wrap_scalar : {false, true}) {
        int64_t wrapped = 0;
        const testing::Raised raised = raised_by([&] { wrapped = maybe_wrap_dim(dim, ndim, wrap_scalar); });
        Checked<int64_t> r = maybe_wrap_dim_checked(dim, ndim, wrap_scalar);
        ASSERT_EQ(r.ok(), !raised.raised) << dim << " " << ndim;
        if (r.ok()) {
          EXPECT_EQ(r.value(), wrapped);
        } else {
          EXPECT_EQ(r.failure().error.kind, raised.kind);
          EXPECT_EQ(r.failure().error.message, raised.message);
        }
      }
}

}  // namespace
}  // namespace sc::engine
