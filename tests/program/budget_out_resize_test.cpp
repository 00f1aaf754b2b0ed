// An out= resize grows out's storage to (numel + storage_offset) * itemsize
// bytes (generated seed 5042078: `mul v8 true out=v4`, v4 an empty float32
// view at offset 2^31 - 1, grew its storage to 8 GiB on both backends and
// the run was killed for memory). The budget counts that growth.
#include <gtest/gtest.h>

#include "program/backend.h"
#include "program/budget.h"
#include "program/parser.h"
#include "tests/program/engine_run_util.h"

namespace sc {
namespace {

std::optional<AllocationEstimate> estimate(const std::string& line, const InputHeader& self, const InputHeader& out) {
  Program p = parse_program("a = zeros [1]\no = zeros [1]\n" + line + "\n", "budget.prog");
  return allocation_estimate(p.steps[2], [&](const std::string& n) { return n == "o" ? out : self; });
}

constexpr int64_t kOffset = (int64_t{1} << 31) - 1;

TEST(BudgetOutResize, CountsTheStorageGrowthToNumelPlusOffset) {
  InputHeader self{{1}, {1}, 8, engine::DType::Int64, 0, 8};
  InputHeader out{{0, 0, 5, 1}, {5, 5, 1, 1}, 8, engine::DType::Int64, kOffset, 3566 * 8};
  auto e = estimate("y = mul a 2 out=o", self, out);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, 8 + (1 + kOffset) * 8);  // the result's 8 bytes a element, and the grown storage
  EXPECT_NE(e->what.find("out's storage grown to 17179869184 bytes"), std::string::npos) << e->what;
  auto n = estimate("y = neg a out=o", self, out);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->bytes, 8 + (1 + kOffset) * 8);
}

TEST(BudgetOutResize, NothingGrowsWhenTheShapeMatchesOrTheStorageIsBigEnough) {
  InputHeader self{{1}, {1}, 8, engine::DType::Int64, 0, 8};
  InputHeader same{{1}, {1}, 8, engine::DType::Int64, kOffset, 8};  // same shape: no resize
  EXPECT_EQ(estimate("y = mul a 2 out=o", self, same)->bytes, 8);
  InputHeader roomy{{0}, {1}, 8, engine::DType::Int64, 10, 11 * 8};  // storage holds offset + numel
  EXPECT_EQ(estimate("y = mul a 2 out=o", self, roomy)->bytes, 8);
  InputHeader unknown{{0}, {1}, 8, engine::DType::Int64, kOffset, std::nullopt};
  EXPECT_EQ(estimate("y = mul a 2 out=o", self, unknown)->bytes, 8);
  // (numel + offset) * itemsize overflows: resize_ raises before allocating.
  InputHeader far{{0}, {1}, 8, engine::DType::Int64, int64_t{1} << 61, 0};
  EXPECT_EQ(estimate("y = mul a 2 out=o", self, far)->bytes, 8);
}

// Through the interpreter on the engine: the step is over budget instead of
// allocating 8 GiB.
TEST(BudgetOutResize, TheInterpreterSkipsTheHugeResize) {
  RunOptions o;
  o.budget_bytes = int64_t{64} << 20;
  Trace t = testing::run_on_engine(
      "v0 = arange 3566\n"
      "v4 = as_strided v0 [0,0,5,1] [5,5,1,1] 2147483647\n"
      "v8 = arange 1\n"
      "v13 = mul v8 true out=v4\n",
      o);
  ASSERT_EQ(t.steps.size(), 4u);
  EXPECT_EQ(t.steps[3].outcome, Outcome::OverBudget) << t.steps[3].note;
  EXPECT_NE(t.steps[3].note.find("out's storage grown to 8589934592 bytes"), std::string::npos) << t.steps[3].note;
}

// A 0-d out whose resize to [2^32,2^32] raised (numel overflow) keeps
// strides [0,0] and its cached is_non_overlapping_and_dense(): TensorIterator's
// internal-overlap check asks the flag first and passes, so a later out=
// resize from there allocates (generated seed 38772 of the message-reach
// law's search: 16 GiB on both sides). Only a header without the flag
// overlaps itself before anything is allocated.
TEST(BudgetOutResize, AStaleDenseFlagLetsAStrideZeroOutResize) {
  InputHeader self{{int64_t{1} << 32, 1}, {0, 0}, 4, engine::DType::Float32, 0, 12};
  InputHeader stale{{int64_t{1} << 32, int64_t{1} << 32}, {0, 0}, 4, engine::DType::Float32, 0, 4, true};
  auto e = estimate("y = mul a 257 out=o", self, stale);
  ASSERT_TRUE(e);
  EXPECT_GE(e->bytes, (int64_t{1} << 32) * 4);
  EXPECT_NE(e->what.find("out's storage grown to 17179869184 bytes"), std::string::npos) << e->what;
  InputHeader fresh = stale;
  fresh.non_overlapping_and_dense.reset();
  EXPECT_FALSE(estimate("y = mul a 257 out=o", self, fresh));
  fresh.non_overlapping_and_dense = false;
  EXPECT_FALSE(estimate("y = mul a 257 out=o", self, fresh));
}

TEST(BudgetOutResize, TheInterpreterSkipsAResizeFromAStaleDenseHeader) {
  RunOptions o;
  o.budget_bytes = int64_t{64} << 20;
  Trace t = testing::run_on_engine(
      "o = zeros []\n"
      "w = zeros [3,1,1]\n"
      "p = as_strided w [4294967296,1] [0,0] 0\n"
      "q = as_strided w [1,4294967296] [0,0] 0\n"
      "r = add p q out=o\n"
      "mul p 257 out=o\n",
      o);
  ASSERT_EQ(t.steps.size(), 6u);
  EXPECT_EQ(t.steps[4].error_message, "numel: integer multiplication overflow");
  EXPECT_EQ(t.steps[5].outcome, Outcome::OverBudget) << t.steps[5].note;
}

}  // namespace
}  // namespace sc
