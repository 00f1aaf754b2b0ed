// slice, narrow, select, split, split_with_sizes, chunk, unbind (engine/views/slice.cpp).
#include <limits>

#include "tests/engine/views/views_test_util.h"
#include "engine/version_profile.h"

namespace sc::engine {
namespace {
using testing::expect_view_of;
using testing::Geometry;
using testing::geometry;
using testing::iota;
using testing::strided;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::vector<Geometry> geometries(const std::vector<Tensor>& ts) {
  std::vector<Geometry> out;
  for (const Tensor& t : ts) out.push_back(geometry(t));
  return out;
}

TEST(Slice, SeedOffsetAndStride) {
  // x[1:, 1:, ::2] of a (2,3,4): offset 16, strides (12,4,2)
  Tensor x = iota({2, 3, 4});
  Tensor s = slice(slice(slice(x, 0, 1, std::nullopt, 1), 1, 1, std::nullopt, 1), 2, std::nullopt, std::nullopt, 2);
  EXPECT_EQ(geometry(s), (Geometry{{1, 2, 2}, {12, 4, 2}, 16}));
  expect_view_of(s, x);
}

TEST(Slice, ClampsLikeLibTorch) {
  Tensor x = iota({12});
  EXPECT_EQ(geometry(slice(x, 0, -100, 100, 5)), (Geometry{{3}, {5}, 0}));
  EXPECT_EQ(geometry(slice(x, 0, 8, 2, 1)), (Geometry{{0}, {1}, 8}));
  EXPECT_EQ(geometry(slice(x, 0, -3, -1, 1)), (Geometry{{2}, {1}, 9}));
  EXPECT_EQ(geometry(slice(x, 0, kMax, std::nullopt, 1)), (Geometry{{0}, {1}, 12}));  // no INT64_MAX special case in 1.13
  EXPECT_EQ(geometry(slice(strided(12, {12}, {1}, 2), 0, 20, 30, 1)), (Geometry{{0}, {1}, 14}));
}

TEST(Slice, Errors) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor x = iota({12});
  EXPECT_RAISES(slice(x, 0, 0, 1, 0), RuntimeError, "slice step must be positive");
  EXPECT_RAISES(slice(x, 0, 0, 1, -1), RuntimeError, "slice step must be positive");
  EXPECT_RAISES(slice(x, 5, 0, 1, 0), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 5)");
  EXPECT_RAISES(slice(strided(1, {}, {}), 0, 0, 1, 1), IndexError, "slice() cannot be applied to a 0-dim tensor.");
  EXPECT_RAISES(slice(x, 0, std::numeric_limits<int64_t>::min(), 12, 1), RuntimeError,
                "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If so, "
                "please report an enhancement request to PyTorch.)");
}

TEST(Slice, HugeStepWrapsLikeLibTorch) {
  // the round-up (12 + INT64_MAX - 1) / INT64_MAX wraps to 0 elements in LibTorch
  EXPECT_EQ(geometry(slice(iota({12}), 0, 0, 12, kMax)), (Geometry{{0}, {kMax}, 0}));
  EXPECT_EQ(geometry(slice(iota({12}), 0, 0, 12, int64_t{1} << 62)), (Geometry{{1}, {int64_t{1} << 62}, 0}));
}

TEST(Narrow, IsASliceOfLength) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor x = iota({3, 4});
  EXPECT_EQ(geometry(narrow(x, 1, 1, 2)), (Geometry{{3, 2}, {4, 1}, 1}));
  EXPECT_EQ(geometry(narrow(iota({12}), 0, 12, 0)), (Geometry{{0}, {1}, 12}));  // start may equal the size
  EXPECT_EQ(geometry(narrow(iota({12}), 0, -12, 12)), (Geometry{{12}, {1}, 0}));
  EXPECT_EQ(geometry(narrow(strided(0, {0}, {1}), 0, -1, 0)), (Geometry{{0}, {1}, 0}));
}

TEST(Narrow, Errors) {
  const ProfileScope profile("1.13");  // LibTorch 1.13's behaviour; 2.15's: corpus/, version_profile_test
  Tensor x = iota({12});
  EXPECT_RAISES(narrow(x, 0, 10, 3), RuntimeError, "start (10) + length (3) exceeds dimension size (12).");
  EXPECT_RAISES(narrow(x, 0, 3, -1), RuntimeError, "start (3) + length (-1) exceeds dimension size (12).");
  EXPECT_RAISES(narrow(x, 0, -13, 1), IndexError, "Dimension out of range (expected to be in range of [-12, 11], but got -13)");
  EXPECT_RAISES(narrow(x, 0, 13, 0), IndexError, "Dimension out of range (expected to be in range of [-12, 11], but got 13)");
  // a start on an empty dim wraps as a scalar dim would
  EXPECT_RAISES(narrow(strided(0, {0}, {1}), 0, 1, 0), IndexError,
                "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  EXPECT_RAISES(narrow(strided(1, {}, {}), 0, 0, 1), RuntimeError, "narrow() cannot be applied to a 0-dim tensor.");
}

TEST(Select, DropsTheDim) {
  Tensor x = iota({3, 4});
  EXPECT_EQ(geometry(select(x, 0, 1)), (Geometry{{4}, {1}, 4}));  // seed: x[1] has offset 4
  EXPECT_EQ(geometry(select(x, 1, -4)), (Geometry{{3}, {4}, 0}));
  expect_view_of(select(x, 1, 3), x);
}

TEST(Select, Errors) {
  Tensor x = iota({3, 4});
  EXPECT_RAISES(select(x, 1, 4), IndexError, "select(): index 4 out of range for tensor of size [3, 4] at dimension 1");
  EXPECT_RAISES(select(x, -1, -5), IndexError, "select(): index -5 out of range for tensor of size [3, 4] at dimension 1");
  EXPECT_RAISES(select(x, 2, 0), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_RAISES(select(strided(1, {}, {}), 0, 0), IndexError, "select() cannot be applied to a 0-dim tensor.");
  EXPECT_RAISES(select(strided(0, {3, 0}, {1, 1}), 1, 0), IndexError,
                "select(): index 0 out of range for tensor of size [3, 0] at dimension 1");
}

TEST(Split, EvenAndRemainder) {
  Tensor x = iota({12});
  auto parts = split(x, 5, 0);
  EXPECT_EQ(geometries(parts), (std::vector<Geometry>{{{5}, {1}, 0}, {{5}, {1}, 5}, {{2}, {1}, 10}}));
  for (const Tensor& p : parts) expect_view_of(p, x);
  EXPECT_EQ(split(x, 13, 0).size(), 1u);
  EXPECT_EQ(split(strided(0, {0}, {1}), 0, 0).size(), 1u);
  EXPECT_EQ(geometries(split(x, kMax, 0)), (std::vector<Geometry>{{{12}, {1}, 0}}));
}

TEST(Split, Errors) {
  Tensor x = iota({12});
  EXPECT_RAISES(split(x, 0, 0), RuntimeError, "split_size can only be 0 if dimension size is 0, but got dimension size of 12");
  EXPECT_RAISES(split(x, -1, 0), RuntimeError, "split expects split_size be non-negative, but got split_size=-1");
  EXPECT_RAISES(split(strided(1, {}, {}), 1, 0), RuntimeError, "split expects at least a 1-dimensional tensor");
  EXPECT_RAISES(split(iota({3, 4}), 3, 2), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(SplitWithSizes, Pieces) {
  EXPECT_EQ(geometries(split_with_sizes(iota({3, 4}), {1, 3}, -1)),
            (std::vector<Geometry>{{{3, 1}, {4, 1}, 0}, {{3, 3}, {4, 1}, 1}}));
  EXPECT_TRUE(split_with_sizes(strided(0, {0}, {1}), {}, 0).empty());
}

TEST(SplitWithSizes, NegativeSizesAreCheckedBeforeTheSum) {
  Tensor x = iota({12});
  EXPECT_RAISES(split_with_sizes(x, {13, -2}, 0), RuntimeError,
                "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[13, -2]");
  EXPECT_RAISES(split_with_sizes(x, {5, 5, 5}, 0), RuntimeError,
                "split_with_sizes expects split_sizes to sum exactly to 12 (input tensor's size at dimension 0), but "
                "got split_sizes=[5, 5, 5]");
  EXPECT_RAISES(split_with_sizes(iota({3, 4}), {1, 1}, -1), RuntimeError,
                "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size at dimension -1), but "
                "got split_sizes=[1, 1]");
}

TEST(SplitWithSizes, PiecesAreClampedSlicesOfAWrappingSum) {
  // sizes that sum to 12 modulo 2^64: LibTorch slices (and clamps) rather than narrows
  auto parts = split_with_sizes(iota({12}), {kMax, kMax, 2, 12}, 0);
  EXPECT_EQ(geometries(parts), (std::vector<Geometry>{{{12}, {1}, 0}, {{0}, {1}, 12}, {{0}, {1}, 10}, {{12}, {1}, 0}}));
}

TEST(Chunk, SplitsIntoCeilSizedPieces) {
  Tensor x = iota({12});
  EXPECT_EQ(chunk(x, 5, 0).size(), 4u);  // ceil(12/5) = 3 per piece
  EXPECT_EQ(chunk(x, 13, 0).size(), 12u);
  EXPECT_EQ(chunk(strided(0, {0}, {1}), 3, 0).size(), 3u);  // an empty dim still gives `chunks` pieces
  EXPECT_EQ(geometries(chunk(strided(0, {3, 0}, {1, 1}), 2, 1)),
            (std::vector<Geometry>{{{3, 0}, {1, 1}, 0}, {{3, 0}, {1, 1}, 0}}));
}

TEST(Chunk, Errors) {
  Tensor x = iota({12});
  EXPECT_RAISES(chunk(x, 0, 0), RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0");
  EXPECT_RAISES(chunk(strided(1, {}, {}), 1, 0), RuntimeError, "chunk expects at least a 1-dimensional tensor");
  // ceil(12 / INT64_MAX) computed as (12 + INT64_MAX - 1) / INT64_MAX wraps to 0 in LibTorch
  EXPECT_RAISES(chunk(x, kMax, 0), RuntimeError, "split_size can only be 0 if dimension size is 0, but got dimension size of 12");
}

TEST(Unbind, SelectsEveryIndex) {
  Tensor x = iota({3, 4});
  auto rows = unbind(x, -1);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(geometry(rows[3]), (Geometry{{3}, {4}, 3}));
  EXPECT_TRUE(unbind(strided(0, {0}, {1}), 0).empty());
  EXPECT_RAISES(unbind(strided(1, {}, {}), 0), IndexError, "Dimension specified as 0 but tensor has no dimensions");
}

}  // namespace
}  // namespace sc::engine
