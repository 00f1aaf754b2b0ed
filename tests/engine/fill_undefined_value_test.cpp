// fill_(Tensor) with a value whose bytes are undefined: LibTorch fills garbage,
// and whether Scalar::to<T>() raises its overflow error depends on the garbage
// where some value of the value's dtype does not fit self's dtype. Measured
// case (property seed 19): zeros([], float16).fill_(empty_like(x, float32))
// sometimes raises "value cannot be converted to type at::Half without overflow".
#include <gtest/gtest.h>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/inplace.h"

namespace sc::engine {
namespace {

Tensor undefined_scalar(DType d) { return empty_like(zeros({}, d), d, std::nullopt); }

TEST(FillUndefinedValue, OutcomeUndefinedOnlyWhereTheConversionCanOverflow) {
  EXPECT_TRUE(fill_outcome_undefined(zeros({}, DType::Float16), undefined_scalar(DType::Float32)));
  EXPECT_TRUE(fill_outcome_undefined(zeros({2}, DType::Int32), undefined_scalar(DType::Float16)));  // NaN
  EXPECT_TRUE(fill_outcome_undefined(zeros({}, DType::BFloat16), undefined_scalar(DType::Float32)));
  EXPECT_TRUE(fill_outcome_undefined(zeros({}, DType::UInt8), undefined_scalar(DType::Int16)));
  EXPECT_TRUE(fill_outcome_undefined(zeros({}, DType::Float16), undefined_scalar(DType::Int32)));
  // every value fits: the outcome is fixed, only the contents are undefined
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::Float32), undefined_scalar(DType::BFloat16)));
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::Float64), undefined_scalar(DType::Float64)));
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::UInt8), undefined_scalar(DType::Int8)));
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::Float32), undefined_scalar(DType::Int64)));
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::Bool), undefined_scalar(DType::Float64)));
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::Int64), undefined_scalar(DType::Int32)));
}

TEST(FillUndefinedValue, ADefinedValueIsCompared) {
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::Float16), zeros({}, DType::Float32)));
}

}  // namespace
}  // namespace sc::engine
