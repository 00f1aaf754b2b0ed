// clamp_ on dtypes its CPU kernels are not built for (LibTorch 1.13.1 measured):
// the kernels dispatch ALL_TYPES_AND(BFloat16), so Bool and Half raise with the
// kernel's name, even for an empty or 0-d self, and leave the version alone.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/creation.h"
#include "engine/inplace.h"
#include "engine/version_profile.h"
#include "tests/engine/test_util.h"

namespace sc::engine {
namespace {
using testing::error_of;
using testing::values;

TEST(Clamp, BoolSelfRaisesPerBoundCombination) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  for (const Shape& shape : {Shape{}, Shape{0}, Shape{2}}) {
    Tensor b = zeros(shape, DType::Bool);
    EXPECT_EQ(error_of([&] { clamp_(b, Scalar::boolean(true), std::nullopt); }),
              "\"clamp_min_cpu\" not implemented for 'Bool'");
    EXPECT_EQ(error_of([&] { clamp_(b, std::nullopt, Scalar::boolean(true)); }),
              "\"clamp_max_scalar_cpu\" not implemented for 'Bool'");
    EXPECT_EQ(error_of([&] { clamp_(b, Scalar::boolean(false), Scalar::boolean(true)); }),
              "\"clamp_scalar_cpu\" not implemented for 'Bool'");
    EXPECT_EQ(b.version().value, 0);
  }
}

TEST(Clamp, BoolSelfPromotionErrorComesFirst) {
  Tensor b = zeros({2}, DType::Bool);
  EXPECT_EQ(error_of([&] { clamp_(b, Scalar::integer(1), std::nullopt); }),
            "result type Long can't be cast to the desired output type bool");
  EXPECT_EQ(error_of([&] { clamp_(b, Scalar::boolean(true), Scalar::floating(NAN)); }),
            "result type Float can't be cast to the desired output type bool");
}

TEST(Clamp, HalfNanBoundFillsBeforeTheDispatch) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor h = zeros({2}, DType::Float16);
  EXPECT_EQ(error_of([&] { clamp_(h, std::nullopt, Scalar::floating(1.5)); }),
            "\"clamp_max_scalar_cpu\" not implemented for 'Half'");
  clamp_(h, Scalar::floating(NAN), Scalar::boolean(true));
  EXPECT_TRUE(std::isnan(values(h)[0]) && std::isnan(values(h)[1]));
  EXPECT_EQ(h.version().value, 1);
}

}  // namespace
}  // namespace sc::engine
