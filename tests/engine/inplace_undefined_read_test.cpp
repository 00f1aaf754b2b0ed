// An in-place op reads the bytes it writes: undefined reads (a bool byte other
// than 0/1) are found before the kernel stores a clean value over them.
#include <gtest/gtest.h>

#include "engine/creation.h"
#include "engine/inplace.h"
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

}  // namespace
}  // namespace sc::engine
