// Note [hidden allocations of type promotion] (program/budget.cpp): a binary
// TensorIterator op converts every operand of another dtype than the common
// one before it allocates its result, so the budget counts those copies, and
// counts nothing for a step whose operands are all of the common dtype or that
// LibTorch rejects first.
#include <gtest/gtest.h>

#include <map>

#include "program/budget.h"
#include "program/parser.h"

namespace sc {
namespace {

using engine::DType;

std::optional<AllocationEstimate> estimate(const std::string& line, const std::map<std::string, InputHeader>& env) {
  std::string text;
  for (const auto& [name, h] : env) text += name + " = zeros [1]\n";
  Program p = parse_program(text + line + "\n", "budget.prog");
  return allocation_estimate(p.steps.back(), [&](const std::string& n) { return env.at(n); });
}

const int64_t kN = 2147544557;  // past 2^31, the OOM input of the ASan campaign

TEST(BudgetPromotion, AnEmptyResultStillConvertsItsInputs) {
  // v0 = zeros [0,1]; v3 = empty_strided [kN] [0] dtype=int16; add v0 v3:
  // LibTorch converts v3's kN elements to float32 (8.6 GB) for an empty result.
  std::map<std::string, InputHeader> env{{"a", {{0, 1}, {1, 1}, 4, DType::Float32}},
                                         {"b", {{kN}, {0}, 2, DType::Int16}}};
  auto e = estimate("c = add a b", env);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, kN * 4);
  // the same dtypes: nothing to convert, and the result is empty
  env["b"].dtype = DType::Float32;
  env["b"].itemsize = 4;
  e = estimate("c = add a b", env);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, 0);
}

TEST(BudgetPromotion, ASelfWithANegativeSizeStillConvertsTheOther) {
  // a float16 [-2,0] (an as_strided view: numel 0) times an int32 of 2^61
  // elements of stride 0: LibTorch converts the int32 operand (2^62 bytes)
  // before the result's negative size raises (generated seed 90125570).
  const int64_t big = int64_t{1} << 30;
  std::map<std::string, InputHeader> env{{"a", {{-2, 0}, {1, 1}, 2, DType::Float16}},
                                         {"b", {{2 * big, big, 1, 1}, {0, 0, 0, 0}, 4, DType::Int32}}};
  auto e = estimate("c = mul a b", env);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, 4 * big * big);
  // the same dtypes: nothing converted, and no result is allocated
  env["b"].dtype = DType::Float16;
  env["b"].itemsize = 2;
  e = estimate("c = mul a b", env);
  EXPECT_TRUE(!e || e->bytes == 0);
}

TEST(BudgetPromotion, ANumberPromotesTheTensorOperand) {
  std::map<std::string, InputHeader> env{{"a", {{kN, 0}, {0, 1}, 8, DType::Int64}}};
  auto e = estimate("c = mul a 0.5", env);  // int64 * a float number: float32
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, 0);  // kN x 0 elements: empty, nothing converted
  env["a"] = {{kN, 1}, {0, 1}, 8, DType::Int64};
  e = estimate("c = mul a 0.5", env);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, kN * 8 + kN * 4);  // the result (8 bytes an element at most) and the conversion
  EXPECT_EQ(estimate("c = mul a 2", env)->bytes, kN * 8);  // an integer number keeps int64
  EXPECT_EQ(estimate("c = neg a", env)->bytes, kN * 8);    // no promotion in unary ops
}

TEST(BudgetPromotion, OutOfAnotherDtypeGetsATemporaryOfItsCurrentShape) {
  std::map<std::string, InputHeader> env{{"a", {{4}, {1}, 4, DType::Float32}},
                                         {"o", {{1000, 1000}, {1000, 1}, 8, DType::Float64}}};
  auto e = estimate("c = add a a out=o", env);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, 4 * 8 + 1000 * 1000 * 4 + 4 * 4);  // result bound, out's temporary, resized
  env["o"].dtype = DType::Int32;  // float32 can't be cast to int32: raises before allocating
  EXPECT_FALSE(estimate("c = add a a out=o", env));
  env["o"] = {{1000, 1000}, {0, 1}, 8, DType::Float64};  // out overlaps itself: raises first
  EXPECT_FALSE(estimate("c = add a a out=o", env));
}

TEST(BudgetPromotion, InPlaceCountsOnlyRealConversions) {
  std::map<std::string, InputHeader> env{{"s", {{0, kN}, {kN, 1}, 4, DType::Float32}},
                                         {"o", {{1, kN}, {0, 0}, 2, DType::Int16}}};
  auto e = estimate("add_ s o", env);  // self is empty; o's kN elements become float32
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, kN * 4);
  env["o"].dtype = DType::Float32;
  EXPECT_FALSE(estimate("add_ s o", env));  // one dtype: no temporary at all
  EXPECT_FALSE(estimate("copy_ s o", env));  // copy_ converts in its kernel
  // self float32, other float64: common float64, cast back to float32 allowed:
  // self's output temporary and self as a converted input (o is already float64)
  env["s"] = {{1000}, {1}, 4, DType::Float32};
  env["o"] = {{1}, {1}, 8, DType::Float64};
  EXPECT_EQ(estimate("mul_ s o", env)->bytes, 2 * 1000 * 8);
  // int16 self, float other: raises (can't cast back) before converting anything
  env["s"].dtype = DType::Int16;
  env["s"].itemsize = 2;
  EXPECT_FALSE(estimate("add_ s o", env));
  // true division of int16 by int16: float32 can't be cast back either
  env["o"] = {{1}, {1}, 2, DType::Int16};
  EXPECT_FALSE(estimate("div_ s o", env));
  // other that does not broadcast to self's shape: raises first
  env["s"] = {{1000}, {1}, 4, DType::Float32};
  env["o"] = {{2, 1000}, {0, 1}, 2, DType::Int16};
  EXPECT_FALSE(estimate("add_ s o", env));
  // self overlapping itself: raises first
  env["s"] = {{1000}, {0}, 4, DType::Float32};
  env["o"] = {{1000}, {1}, 2, DType::Int16};
  EXPECT_FALSE(estimate("add_ s o", env));
}

}  // namespace
}  // namespace sc
