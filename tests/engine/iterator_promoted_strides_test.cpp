// TensorIterator output strides when an input has another dtype than the
// common one: on CPU compute_types swaps it for input.to(common) first, so
// compute_strides sees infer_dense_strides (or the input's own strides when
// dense) in the common dtype's bytes (LibTorch 1.13.1 measured).
#include <gtest/gtest.h>

#include "engine/creation.h"
#include "engine/elementwise.h"

namespace sc::engine {
namespace {

TEST(IteratorPromotedStrides, NonDenseInputIsOrderedByItsConvertedCopy) {
  // v0 = empty_strided [1,2,1] [0,2,3]; v1 = v0.to(float64); v1 + v0 -> strides [2,1,1]
  Tensor v0 = empty_strided_iota({1, 2, 1}, {0, 2, 3}, DType::Float32);
  Tensor v1 = empty_strided_iota({1, 2, 1}, {2, 1, 1}, DType::Float64);
  EXPECT_EQ(add(v1, Operand::of(v0)).strides, (Shape{2, 1, 1}));
}

TEST(IteratorPromotedStrides, EmptyBroadcastWithAPromotedInput) {
  // empty_strided [2,1,1,1] [2,0,0,3] float16 + arange(0) -> [2,1,1,0] strides [0,0,0,1]
  Tensor h = empty_strided_iota({2, 1, 1, 1}, {2, 0, 0, 3}, DType::Float16);
  Tensor e = empty_strided_iota({0}, {1}, DType::Float32);
  Tensor r = add(e, Operand::of(h));
  EXPECT_EQ(r.sizes, (Shape{2, 1, 1, 0}));
  EXPECT_EQ(r.strides, (Shape{0, 0, 0, 1}));
}

}  // namespace
}  // namespace sc::engine
