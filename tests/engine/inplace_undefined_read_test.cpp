// An in-place op reads the bytes it writes: undefined reads (a bool byte other
// than 0/1) are found before the kernel stores a clean value over them.
#include <gtest/gtest.h>

#include "engine/creation.h"
#include "engine/inplace.h"
#include "engine/undefined.h"
#include "engine/views.h"

namespace sc::engine {
namespace {

TEST(InPlaceUndefinedRead, BadBoolByteReadByMulIsUndefined) {
  Tensor b = tensor({Scalar::boolean(true)}, true, DType::Bool);
  add_(view_dtype(b, DType::Int8), Operand::of(Scalar::boolean(true)));  // byte 2
  mul_(b, Operand::of(Scalar::boolean(true)));
  ASSERT_FALSE(b.storage->undefined_mask().empty());
  EXPECT_EQ(b.storage->undefined_mask()[0], 1);
}

TEST(InPlaceUndefinedRead, CleanBoolStaysDefined) {
  Tensor b = tensor({Scalar::boolean(true)}, true, DType::Bool);
  mul_(b, Operand::of(Scalar::boolean(true)));
  EXPECT_FALSE(b.storage->has_undefined_bytes());
}

// One undefined byte anywhere in a read element makes that element's write
// undefined, for every element size (the flags of an element are read as one
// word), through a transposed read.
TEST(InPlaceUndefinedRead, AnyUndefinedByteOfAnElementIsFound) {
  for (DType d : {DType::Int8, DType::Int16, DType::Float32, DType::Float64}) {
    const int64_t item = itemsize(d);
    for (int64_t byte = 0; byte < item; ++byte) {
      Tensor src = zeros({3, 4}, d);
      src.storage->mark_undefined(5 * item + byte, 1);  // element [1, 1]
      Tensor dst = zeros({4, 3}, d);
      std::vector<int64_t> offs = elements_reading_undefined(dst, transpose(src, 0, 1));
      EXPECT_EQ(offs, (std::vector<int64_t>{4 * item})) << dtype_name(d) << " byte " << byte;  // dst [1, 1]
    }
  }
}

}  // namespace
}  // namespace sc::engine
