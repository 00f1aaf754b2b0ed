#include "engine/layout.h"

#include <gtest/gtest.h>

namespace sc::engine {
namespace {

TEST(ContiguousStrides, RowMajor) { EXPECT_EQ(contiguous_strides({2, 3, 4}), (Shape{12, 4, 1})); }

TEST(IsContiguous, SizeOneDimsAreIgnored) {
  // seed: a (2,1,3) tensor transposed to (1,2,3) has strides (3,3,1) and is contiguous
  EXPECT_TRUE(is_contiguous(Shape{1, 2, 3}, Shape{3, 3, 1}));
}

TEST(ChannelsLast, StridesOfSeedExample) {
  EXPECT_EQ(strides_for_format({2, 3, 4, 5}, MemoryFormat::ChannelsLast), (Shape{60, 1, 15, 3}));
}

}  // namespace
}  // namespace sc::engine
