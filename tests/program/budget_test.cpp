#include "program/budget.h"

#include <gtest/gtest.h>

#include <limits>

#include "program/parser.h"

namespace sc {
namespace {

std::optional<AllocationEstimate> estimate(const std::string& line, InputHeader in = {}) {
  Program p = parse_program("x = zeros [1]\n" + line + "\n", "budget.prog");
  return allocation_estimate(p.steps[1], [&](const std::string&) { return in; });
}

TEST(Budget, CreationCountsItsBytes) {
  auto e = estimate("y = zeros [1000,1000] dtype=float64");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, 8'000'000);
}

TEST(Budget, HugeSizesSaturateInsteadOfOverflowing) {
  // 2^40 * 2^20 elements of 8 bytes: 2^63 bytes would overflow int64; a real
  // allocation of 2^62 bytes is counted (saturating sums elsewhere).
  auto e = estimate("y = ones [1099511627776,1048576] dtype=float32");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bytes, int64_t{1} << 62);
}

TEST(Budget, NegativeSizesAreLeftToLibTorchsOwnError) { EXPECT_FALSE(estimate("y = zeros [-1]")); }

TEST(Budget, ViewsAllocateNothing) {
  EXPECT_FALSE(estimate("y = expand x [1000000000,4]", {{1, 4}, {4, 1}, 4}));
}

// reshape/flatten of an expanded tensor: a view when computeStride can
// express it (no bytes), a copy of every element when it cannot.
TEST(Budget, ReshapeCountsOnlyWhenItCopies) {
  InputHeader expanded{{1000000000, 4}, {0, 1}, 4};
  EXPECT_FALSE(estimate("y = reshape x [1000000000,4,1]", expanded));
  EXPECT_FALSE(estimate("y = flatten x 1 1", expanded));
  auto copy = estimate("y = reshape x [-1]", expanded);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->bytes, 16'000'000'000);
  InputHeader transposed{{3, 4}, {1, 3}, 4};
  ASSERT_TRUE(estimate("y = flatten x", transposed));
  EXPECT_FALSE(estimate("y = reshape x [12,1,1]", {{12}, {1}, 4}));
}

}  // namespace
}  // namespace sc

namespace sc {
namespace {

TEST(StepElements, InPlaceOpsCountTheElementsTheyWrite) {
  Program p = parse_program("x = zeros [1]\nfill_ x 1\ny = add x x\n", "work.prog");
  InputHeader huge{{1000000000, 1000000000}, {0, 0}, 4};
  auto header = [&](const std::string&) { return huge; };
  auto n = inplace_elements(p.steps[1], header);
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 1000000000000000000);
  EXPECT_FALSE(inplace_elements(p.steps[2], header));  // bounded by what it allocates
}

// Note [an out= that needs no resize]: written as it is, however many
// elements its shape claims; an out= of another shape is resized (allocates).
TEST(StepElements, AnOutThatHasTheResultShapeCountsItsElements) {
  Program p = parse_program(
      "x = zeros [1]\ny = zeros [2]\nz = zeros [1]\nmul x -3 out=x\nadd x y out=z\nneg x out=z\nadd x y\n",
      "work.prog");
  const int64_t big = int64_t{3} << 61;
  InputHeader huge{{2, big}, {0, 0}, 4};
  InputHeader row{{big}, {0}, 4};
  InputHeader small{{1}, {1}, 4};
  auto header = [&](const std::string& n) { return n == "x" ? huge : n == "y" ? row : small; };
  auto n = inplace_elements(p.steps[3], header);  // mul x -3 out=x: x has the result's shape
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, std::numeric_limits<int64_t>::max());  // 6 * 2^61 elements: saturates
  auto z_big = [&](const std::string& n) { return n == "y" ? row : huge; };
  n = inplace_elements(p.steps[4], z_big);  // add x y out=z, z of the broadcast shape [2, 3 * 2^61]
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(inplace_elements(p.steps[4], header));  // z of another shape: resized, it allocates
  EXPECT_FALSE(inplace_elements(p.steps[5], header));  // neg x out=z: likewise
  EXPECT_FALSE(inplace_elements(p.steps[6], header));  // no out=: allocates its result
}

}  // namespace
}  // namespace sc
