// Note [elements outside their storage]: which headers' elements lie inside
// their storage, and which steps the interpreter refuses for it.
#include "program/storage_bounds.h"

#include <gtest/gtest.h>

#include "program/parser.h"

namespace sc {
namespace {

constexpr int64_t k2to62 = int64_t{1} << 62;

TEST(ElementsInsideStorage, AHeaderEndingAtTheLastByteIsInside) {
  EXPECT_TRUE(elements_inside_storage({{2, 3}, {3, 1}, 0, 4, 24}));
  EXPECT_FALSE(elements_inside_storage({{2, 3}, {3, 1}, 0, 4, 23}));
  EXPECT_TRUE(elements_inside_storage({{2}, {1}, 4, 2, 12}));
  EXPECT_FALSE(elements_inside_storage({{2}, {1}, 5, 2, 12}));
}

TEST(ElementsInsideStorage, HeadersWithoutElementsAreAlwaysInside) {
  EXPECT_TRUE(elements_inside_storage({{0, 5}, {5, 1}, k2to62, 8, 0}));
  EXPECT_TRUE(elements_inside_storage({{4, -1}, {1, 1}, k2to62, 4, 0}));
}

TEST(ElementsInsideStorage, OffsetsWhoseByteCountWrapsInt64AreOutside) {
  // as_strided(tensor [100, 0] bfloat16, [2], [1], 2^62): LibTorch 1.13 accepts it.
  EXPECT_FALSE(elements_inside_storage({{2}, {1}, k2to62, 2, 4}));
  EXPECT_FALSE(elements_inside_storage({{2}, {INT64_MAX}, 0, 8, 1 << 20}));
}

TEST(ElementsInsideStorage, ExtentsPastTwoTo127AreOutsideWithoutOverflow) {
  // Each dim spans (2^63 - 2) * (2^63 - 1) elements, about 2^126: their sum,
  // and the sum times the itemsize, pass 2^127 (UBSan caught the like of it).
  EXPECT_FALSE(elements_inside_storage({{INT64_MAX, INT64_MAX, 2}, {INT64_MAX, INT64_MAX, 1}, 0, 8, INT64_MAX}));
  EXPECT_FALSE(elements_inside_storage({{INT64_MAX, INT64_MAX}, {-INT64_MAX, -INT64_MAX}, INT64_MAX, 4, INT64_MAX}));
  EXPECT_FALSE(elements_inside_storage({{INT64_MAX, 2}, {INT64_MAX, 1}, 0, 8, INT64_MAX}));
}

TEST(ElementsInsideStorage, NegativeStridesCountBelowTheOffset) {
  EXPECT_TRUE(elements_inside_storage({{3}, {-1}, 2, 1, 3}));
  EXPECT_FALSE(elements_inside_storage({{3}, {-1}, 1, 1, 3}));
}

// The last step of `text` after two bound tensors, a and c.
Step parse_step(const std::string& text) {
  return parse_program("a = zeros [2]\nc = zeros [2]\n" + text, "test.prog").steps.back();
}

TEST(RefuseOutOfStorage, OnlyStepsThatTouchElementsAreRefused) {
  auto outside = [](const std::string&) { return StorageExtent{{2}, {1}, k2to62, 2, 4}; };
  auto inside = [](const std::string&) { return StorageExtent{{2}, {1}, 0, 2, 4}; };
  for (const char* text : {"b = add a a\n", "b = clone a\n", "add_ a 1\n", "b = mul a 2 out=c\n", "copy_ c a\n",
                           "b = reshape a [2]\n", "b = flatten a\n"}) {
    EXPECT_TRUE(refuse_out_of_storage(parse_step(text), outside).has_value()) << text;
    EXPECT_FALSE(refuse_out_of_storage(parse_step(text), inside).has_value()) << text;
  }
  for (const char* text : {"b = as_strided a [1] [1] 0\n", "b = view a [2]\n", "b = zeros [2]\n",
                           "b = unflatten a 0 [2,1]\n", "b = T a\n"})
    EXPECT_FALSE(refuse_out_of_storage(parse_step(text), outside).has_value()) << text;
}

}  // namespace
}  // namespace sc
