// The budget comes after LibTorch's own checks (issue 6, item 4): a step that
// LibTorch rejects before allocating (negative sizes, a storage size that
// overflows int64, shapes that do not broadcast) is run and compared; only a
// step that would really allocate past the budget is skipped.
#include <gtest/gtest.h>

#include "program/backend.h"
#include "program/budget.h"
#include "program/parser.h"
#include "tests/program/engine_run_util.h"

namespace sc {
namespace {

std::optional<AllocationEstimate> estimate(const std::string& line, InputHeader in = {}) {
  Program p = parse_program("x = zeros [1]\n" + line + "\n", "budget.prog");
  return allocation_estimate(p.steps[1], [&](const std::string&) { return in; });
}

TEST(BudgetAfterLibTorchChecks, StorageSizeOverflowIsLeftToLibTorch) {
  EXPECT_FALSE(estimate("y = zeros [4611686018427387904,4]"));       // 2^64 elements
  EXPECT_FALSE(estimate("y = ones [2305843009213693952] dtype=int64"));  // 2^61 * 8 bytes = 2^64
  EXPECT_FALSE(estimate("y = full [4294967296,4294967296] 1"));
  EXPECT_FALSE(estimate("y = empty_strided [2,2] [4611686018427387904,1]"));
  EXPECT_FALSE(estimate("y = arange 9223372036854775807"));
  // ... but 2^40 float32 elements are a real allocation of 4 TiB: counted.
  auto real = estimate("y = zeros [1099511627776]");
  ASSERT_TRUE(real);
  EXPECT_EQ(real->bytes, int64_t{1} << 42);
  auto strided = estimate("y = empty_strided [2,2] [1099511627776,1]");
  ASSERT_TRUE(strided);
  EXPECT_EQ(strided->bytes, (int64_t{1} << 40) * 4 + 8);
}

TEST(BudgetAfterLibTorchChecks, CopiesOfHugeViewsOverflowWithTheirItemsize) {
  InputHeader expanded{{576460752303423488, 2}, {0, 1}, 8};  // 2^60 float64 elements
  EXPECT_FALSE(estimate("y = clone x", expanded));               // 2^63 bytes: overflows
  auto to_int16 = estimate("y = to x dtype=int16", expanded);    // 2^61 bytes: allocates
  ASSERT_TRUE(to_int16);
  EXPECT_EQ(to_int16->bytes, int64_t{1} << 61);
}

TEST(BudgetAfterLibTorchChecks, ShapesThatDoNotBroadcastAreLeftToLibTorch) {
  Program p = parse_program("a = zeros [1]\nb = zeros [1]\nc = add a b\n", "b.prog");
  auto header = [](const std::string& n) {
    return n == "a" ? InputHeader{{1000000000000, 3}, {0, 1}, 4} : InputHeader{{1000000000000, 4}, {0, 1}, 4};
  };
  EXPECT_FALSE(allocation_estimate(p.steps[2], header));  // 3 vs 4: LibTorch raises first
}

// Through the interpreter: the overflowing step is compared (an error on the
// engine), the really huge one is over budget.
TEST(BudgetAfterLibTorchChecks, InterpreterRunsRejectedStepsAndSkipsHugeOnes) {
  RunOptions o;
  o.budget_bytes = int64_t{1} << 30;
  Trace t = testing::run_on_engine(
      "a = zeros [4611686018427387904,4]\n"
      "b = empty_strided [2,2] [4611686018427387904,1]\n"
      "c = zeros [-1,2]\n"
      "d = zeros [1099511627776]\n",
      o);
  ASSERT_EQ(t.steps.size(), 4u);
  EXPECT_EQ(t.steps[0].outcome, Outcome::Error);
  EXPECT_EQ(t.steps[0].error_message, "Storage size calculation overflowed with sizes=[4611686018427387904, 4]");
  EXPECT_EQ(t.steps[1].outcome, Outcome::Error);
  EXPECT_EQ(t.steps[1].error_message,
            "Storage size calculation overflowed with sizes=[2, 2] and strides=[4611686018427387904, 1]");
  EXPECT_EQ(t.steps[2].outcome, Outcome::Error);
  EXPECT_EQ(t.steps[3].outcome, Outcome::OverBudget);
}

}  // namespace
}  // namespace sc
