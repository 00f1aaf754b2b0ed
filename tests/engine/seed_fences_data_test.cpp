// Seed fences 3 and 4 (the spec's Python fences) in C++ against the engine.
#include <gtest/gtest.h>

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

// Fence 3: write-through, the shared version counter, clone/detach storage.
TEST(SeedFence3, WriteThroughVersionCounterCloneDetach) {
  Tensor x = zeros({2, 3}, DType::Float32);
  Tensor v = select(x, 0, 0);
  const int64_t v0 = x.version().value;
  add_(v, Operand::of(Scalar::integer(1)));
  EXPECT_EQ(values(x), (std::vector<double>{1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(x.version().value, v0 + 1);
  EXPECT_EQ(v.version().value, x.version().value);
  Tensor w = ones({3}, DType::Float32);
  Tensor c = clone(w), d = detach(w);
  EXPECT_NE(c.storage, w.storage);
  EXPECT_EQ(d.storage, w.storage);
  zero_(d);  // x.detach().zero_() zeroes x itself
  EXPECT_EQ(values(w), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(values(c), (std::vector<double>{1, 1, 1}));
}

// Fence 4: derived channels_last strides, unchanged values, propagation.
TEST(SeedFence4, ChannelsLastStridesAndPropagation) {
  Tensor x = view(arange(120, DType::Float32), {2, 3, 4, 5});
  Tensor cl = to(x, std::nullopt, MemoryFormat::ChannelsLast);
  EXPECT_EQ(cl.sizes, x.sizes);
  EXPECT_EQ(cl.strides, (Shape{60, 1, 15, 3}));
  EXPECT_FALSE(is_contiguous(cl));
  EXPECT_TRUE(is_contiguous(cl, MemoryFormat::ChannelsLast));
  EXPECT_EQ(values(cl), values(x));
  EXPECT_EQ(add(cl, Operand::of(Scalar::integer(1))).strides, cl.strides);
  EXPECT_EQ(empty_like(cl).strides, cl.strides);
  EXPECT_EQ(clone(cl).strides, cl.strides);
}

}  // namespace
}  // namespace sc::engine
