// An out= tensor that is empty when TensorIterator checks overlaps and is then
// resized over an input: LibTorch 1.13 does not raise (compute_mem_overlaps
// runs before the resize) and its vectorised kernel reads some elements it has
// already written (measured: zeros(64), add(v0, 0.5, out=v0[4:4]) gives 0.5
// for 16 elements, then 1.0 for 4, ...). The engine marks the result undefined.
#include <gtest/gtest.h>

#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/views.h"

namespace sc::engine {
namespace {

bool any_undefined(const Storage& s, int64_t from, int64_t to) {
  const auto& m = s.undefined_mask();
  if (m.empty()) return false;
  for (int64_t i = from; i < to; ++i)
    if (m[static_cast<size_t>(i)]) return true;
  return false;
}

TEST(OutResizeOverlap, EmptyOutGrownOverTheInputIsUndefined) {
  Tensor v0 = zeros({4, 4}, DType::Float32);
  Tensor v1 = make_view(v0, {0, 4}, {4, 1}, 4);
  Tensor r = add_out(v1, v0, Operand::of(Scalar::floating(0.5)));
  EXPECT_EQ(r.sizes, (Shape{4, 4}));
  EXPECT_EQ(v0.storage->nbytes(), 80);
  EXPECT_FALSE(any_undefined(*v0.storage, 0, 16));  // elements 0..3 are not written
  EXPECT_TRUE(any_undefined(*v0.storage, 16, 80));
  EXPECT_TRUE(take_undefined_reason().has_value());
}

TEST(OutResizeOverlap, EmptyOutGrownElsewhereStaysDefined) {
  Tensor v0 = zeros({4, 4}, DType::Float32);
  Tensor other = zeros({0}, DType::Float32);
  add_out(other, v0, Operand::of(Scalar::floating(0.5)));
  EXPECT_FALSE(other.storage->has_undefined_bytes());
  EXPECT_FALSE(take_undefined_reason().has_value());
}

}  // namespace
}  // namespace sc::engine
