// fill_ of an expanded tensor (LibTorch 1.13 allows it: no overlap check, fill
// is idempotent) writes each distinct location once, so a 1e9 x 1e9 expand is
// filled at once instead of hanging the generator and the harness.
#include <gtest/gtest.h>

#include "engine/creation.h"
#include "engine/inplace.h"
#include "engine/views.h"
#include "tests/engine/test_util.h"

namespace sc::engine {
namespace {
using testing::values;

TEST(FillExpanded, HugeStrideZeroDimsFillTheDistinctLocations) {
  Tensor base = zeros({3}, DType::Float32);
  Tensor big = expand(base, {1000000000, 1000000000, 3});
  fill_(big, Scalar::floating(2.5));
  EXPECT_EQ(values(base), (std::vector<double>{2.5, 2.5, 2.5}));
  EXPECT_EQ(base.version().value, 1);
  EXPECT_FALSE(base.storage->has_undefined_bytes());
}

TEST(FillExpanded, ZeroDimExpandAndEmptyDims) {
  Tensor s = zeros({}, DType::Int32);
  fill_(expand(s, {1000000000}), Scalar::integer(7));
  EXPECT_EQ(values(s), (std::vector<double>{7}));
  Tensor e = zeros({2}, DType::Int32);
  fill_(expand(e, {0, 2}), Scalar::integer(9));  // nothing to write
  EXPECT_EQ(values(e), (std::vector<double>{0, 0}));
}

}  // namespace
}  // namespace sc::engine
