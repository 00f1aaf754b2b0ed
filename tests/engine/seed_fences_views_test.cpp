// Seed fences 1, 2 and 5 (the spec's Python fences) in C++ against the engine.
#include <gtest/gtest.h>

#include <random>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/inplace.h"
#include "engine/layout.h"
#include "engine/views.h"
#include "tests/engine/test_util.h"

namespace sc::engine {
namespace {
using testing::values;

int64_t addr(const Tensor& t, const Shape& idx) {
  int64_t a = t.storage_offset;
  for (size_t d = 0; d < idx.size(); ++d) a += idx[d] * t.strides[d];
  return a;
}

// t[idx] through the view ops themselves: select dim 0 once per index.
double element(Tensor t, const Shape& idx) {
  for (int64_t i : idx) t = select(t, 0, i);
  return values(t).at(0);
}

// Fence 1: the address formula agrees with indexing (select chains) on a
// contiguous tensor, a transpose and an offset slice, ten random indices each.
TEST(SeedFence1, AddressFormulaMatchesIndexing) {
  Tensor flat = arange(24, DType::Int64);
  Tensor x = view(flat, {2, 3, 4});
  EXPECT_EQ(x.strides, (Shape{12, 4, 1}));
  Tensor xt = transpose(x, 0, 2);
  EXPECT_EQ(xt.sizes, (Shape{4, 3, 2}));
  EXPECT_EQ(xt.strides, (Shape{1, 4, 12}));
  Tensor xs = slice(slice(slice(x, 0, 1, std::nullopt, 1), 1, 1, std::nullopt, 1), 2, std::nullopt, std::nullopt, 2);
  EXPECT_EQ(xs.storage_offset, 16);
  EXPECT_EQ(xs.strides, (Shape{12, 4, 2}));

  std::mt19937 gen(3);
  for (const Tensor& t : {x, xt, xs}) {
    for (int k = 0; k < 10; ++k) {
      Shape idx;
      for (int64_t d : t.sizes) idx.push_back(std::uniform_int_distribution<int64_t>(0, d - 1)(gen));
      EXPECT_EQ(values(flat).at(static_cast<size_t>(addr(t, idx))), element(t, idx));
      EXPECT_EQ(t.storage, flat.storage);
    }
  }
}

// Fence 2: views share storage; view after transpose raises; reshape after
// transpose copies; contiguous() of a contiguous tensor is itself; expand has
// stride 0 and in-place ops on it raise.
TEST(SeedFence2, ViewsAndCopies) {
  Tensor x = view(arange(12, DType::Float32), {3, 4});
  const std::vector<Tensor> views = {
      slice(slice(x, 0, 1, std::nullopt, 1), 1, std::nullopt, std::nullopt, 2),
      transpose(x, 0, 1),
      expand(slice(x, 0, std::nullopt, 1, 1), {5, 4}),
      unfold(reshape(x, {-1}), 0, 4, 2),
      diagonal(x, 0, 0, 1),
      narrow(x, 1, 1, 2),
  };
  for (const Tensor& v : views) EXPECT_EQ(v.storage, x.storage);

  Tensor xt = transpose(x, 0, 1);
  EXPECT_FALSE(is_contiguous(xt));
  try {
    view(xt, {-1});
    ADD_FAILURE() << "view should fail on transposed tensor";
  } catch (const TorchError& e) {
    EXPECT_NE(e.message.find("view size is not compatible"), std::string::npos);
  }
  Tensor r = reshape(xt, {-1});
  EXPECT_NE(r.storage, x.storage);
  EXPECT_TRUE(is_contiguous(r));
  EXPECT_NE(index_select(x, 0, {0, 2}).storage, x.storage);
  EXPECT_NE(repeat(x, {2, 1}).storage, x.storage);
  EXPECT_EQ(contiguous(x).id, x.id);

  Tensor e = expand(zeros({1, 1000}, DType::Float32), {1000, 1000});
  EXPECT_EQ(e.strides, (Shape{0, 1}));
  EXPECT_EQ(e.storage->nbytes(), 4000);
  try {
    add_(e, Operand::of(Scalar::integer(1)));
    ADD_FAILURE() << "in-place on expanded tensor should fail";
  } catch (const TorchError& err) {
    EXPECT_NE(err.message.find("single memory location"), std::string::npos);
  }
}

// Fence 5: the unfold formula, its values, no copy, and as_strided's equal windows.
TEST(SeedFence5, UnfoldWindows) {
  Tensor a = arange(10, DType::Int64);
  Tensor u = unfold(a, 0, 4, 2);
  EXPECT_EQ(values(u), (std::vector<double>{0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9}));
  EXPECT_EQ(u.sizes, (Shape{(10 - 4) / 2 + 1, 4}));
  EXPECT_EQ(u.strides, (Shape{2, 1}));
  EXPECT_EQ(u.storage, a.storage);
  EXPECT_EQ(values(as_strided(a, {4, 4}, {2, 1}, std::nullopt)), values(u));
}

}  // namespace
}  // namespace sc::engine
