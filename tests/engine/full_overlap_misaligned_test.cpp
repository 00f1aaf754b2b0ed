// get_overlap_status says Full (same byte range, same strides) for a float32
// tensor and its float16 view, so copy_ does not raise; but the elements do not
// line up, and LibTorch's result depends on its loop order (measured 1.13.1:
// x = full([1], 0.5); x.view(float16).copy_(x) gives [0.5, 0.50097656]; for
// x of [4,1] later rows read bytes already overwritten). The engine marks the
// written bytes undefined; element-aligned overlaps stay defined.
#include <gtest/gtest.h>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/inplace.h"
#include "engine/views.h"

namespace sc::engine {
namespace {

TEST(FullOverlapMisaligned, CopyIntoAHalfViewOfTheSourceIsUndefined) {
  Tensor x = full({1}, Scalar::floating(0.5), DType::Float32);
  Tensor h = view_dtype(x, DType::Float16);
  copy_(h, x);
  EXPECT_TRUE(x.storage->has_undefined_bytes());
  EXPECT_TRUE(take_undefined_reason().has_value());
}

TEST(FullOverlapMisaligned, SameElementSizeLinesUp) {
  Tensor x = full({4}, Scalar::floating(2.0), DType::Float32);
  Tensor i = view_dtype(x, DType::Int32);
  copy_(x, i);  // element k reads and writes only its own 4 bytes
  EXPECT_FALSE(x.storage->has_undefined_bytes());
  EXPECT_FALSE(take_undefined_reason().has_value());
}

}  // namespace
}  // namespace sc::engine
