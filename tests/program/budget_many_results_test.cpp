// split/chunk/unbind count one tensor object (512 bytes) a result against the
// budget, so unbind of an expanded 1e9-long dim is over budget, not out of memory.
#include <gtest/gtest.h>

#include "program/budget.h"
#include "program/parser.h"

namespace sc {
namespace {

std::optional<AllocationEstimate> estimate(const std::string& line, InputHeader in) {
  Program p = parse_program("x = zeros [1]\n" + line + "\n", "budget.prog");
  return allocation_estimate(p.steps[1], [&](const std::string&) { return in; });
}

TEST(BudgetManyResults, CountsOneHeaderAResult) {
  InputHeader big{{10, 20000000}, {0, 0}, 4};
  auto u = estimate("a, b = unbind x 1", big);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->bytes, int64_t{20000000} * 512);
  auto s = estimate("a, b = split x 3 -1", big);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->bytes, int64_t{6666667} * 512);
  auto c = estimate("a, b = chunk x 7 0", big);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->bytes, 7 * 512);
}

TEST(BudgetManyResults, EmptyDimAndRejectedArguments) {
  InputHeader empty{{0}, {1}, 4};
  auto c = estimate("a, b = chunk x 1000 0", empty);  // 1000 empty chunks
  ASSERT_TRUE(c);
  EXPECT_EQ(c->bytes, 1000 * 512);
  EXPECT_FALSE(estimate("a, b = unbind x 1", empty));  // dim out of range: LibTorch raises
  EXPECT_FALSE(estimate("a, b = chunk x 0 0", empty));
  EXPECT_FALSE(estimate("a, b = split x [1,2] 0", empty));  // split_with_sizes: bounded by the text
}

}  // namespace
}  // namespace sc

namespace sc {
namespace {

// index_select's result numel is the product of the other sizes times the
// index count, not numel / sizes[dim] (which a saturated numel underestimates).
TEST(BudgetIndexSelect, HugeSelfDoesNotUnderestimate) {
  InputHeader huge{{8, 1000000000, 2, 1000000000000}, {0, 0, 0, 0}, 4};
  auto e = estimate("y = index_select x 3 [0,1]", huge);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, int64_t{8} * 1000000000 * 2 * 2 * 4);
}

}  // namespace
}  // namespace sc

namespace sc {
namespace {

// index_select along dim 1 of a non-contiguous self first makes self
// contiguous inside LibTorch (index_select_out_cpu_dim1_): that copy counts.
// Generated seed 16782 (an expanded [65536,65536] float32) made LibTorch
// allocate 16 GiB there while the budget saw an 8-element result.
TEST(BudgetIndexSelect, Dim1OfANonContiguousSelfCountsItsContiguousCopy) {
  InputHeader expanded{{65536, 65536}, {0, 1}, 4};
  auto e = estimate("y = index_select x 1 [5,7]", expanded);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, (int64_t{65536} * 2 + int64_t{65536} * 65536) * 4);
  auto neg = estimate("y = index_select x -1 [5,7]", expanded);  // dim -1 is dim 1 here
  ASSERT_TRUE(neg);
  EXPECT_EQ(neg->bytes, e->bytes);
  // Contiguous self, other dims, no index, an empty self: no copy.
  InputHeader contiguous{{65536, 65536}, {65536, 1}, 4};
  EXPECT_EQ(estimate("y = index_select x 1 [5,7]", contiguous)->bytes, int64_t{65536} * 2 * 4);
  EXPECT_EQ(estimate("y = index_select x 0 [5,7]", expanded)->bytes, int64_t{65536} * 2 * 4);
  EXPECT_EQ(estimate("y = index_select x 1 []", expanded)->bytes, 0);
  InputHeader empty{{0, 65536}, {0, 1}, 4};
  EXPECT_EQ(estimate("y = index_select x 1 [5]", empty)->bytes, 0);
  // A 1-d self takes the other path.
  InputHeader flat{{1000000}, {0}, 4};
  EXPECT_EQ(estimate("y = index_select x 0 [1]", flat)->bytes, 4);
}

}  // namespace
}  // namespace sc
