// fill_(Tensor) with a value whose bytes are undefined: LibTorch fills garbage,
// and whether Scalar::to<T>() raises its overflow error depends on the garbage
// where some value of the value's dtype does not fit self's dtype. Measured
// case (property seed 19): zeros([], float16).fill_(empty_like(x, float32))
// sometimes raises "value cannot be converted to type at::Half without overflow".
#include <gtest/gtest.h>

#include <cmath>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/inplace.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "tests/engine/test_util.h"

namespace sc::engine {
namespace {
using testing::error_of;
using testing::values;

Tensor undefined_scalar(DType d) { return empty_like(zeros({}, d), d, std::nullopt); }

TEST(FillUndefinedValue, OutcomeUndefinedOnlyWhereTheConversionCanOverflow) {
  const ProfileScope profile("1.13");  // fill_(value.item()): a checked conversion
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
  const ProfileScope profile("1.13");
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::Float16), zeros({}, DType::Float32)));
}

// 2.2+ (Change::FillTensorValueIsCopy): fill_(Tensor) is self.copy_(value):
// copy_ converts unchecked, so an undefined value never makes the outcome
// undefined; the destination's overlap is checked; 1e10 into float16 is inf.
TEST(FillTensorValueIsCopy, CopySemanticsFrom22) {
  const ProfileScope profile("2.15");
  EXPECT_FALSE(fill_outcome_undefined(zeros({}, DType::Float16), undefined_scalar(DType::Float32)));
  Tensor h = zeros({}, DType::Float16);
  fill_(h, full({}, Scalar::floating(1e10), DType::Float32));
  EXPECT_TRUE(std::isinf(values(h)[0]));
  Tensor a = zeros({}, DType::Float32);
  EXPECT_EQ(error_of([&] { fill_(expand(a, {2}), a); }),
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.");
}

TEST(FillTensorValueIsCopy, ItemWithCheckedConversionIn113) {
  const ProfileScope profile("1.13");
  Tensor h = zeros({}, DType::Float16);
  EXPECT_EQ(error_of([&] { fill_(h, full({}, Scalar::floating(1e10), DType::Float32)); }),
            "value cannot be converted to type at::Half without overflow");
  Tensor a = zeros({}, DType::Float32);
  fill_(expand(a, {2}), full({}, Scalar::floating(2.0), DType::Float32));
  EXPECT_EQ(values(a), (std::vector<double>{2}));
}

}  // namespace
}  // namespace sc::engine
