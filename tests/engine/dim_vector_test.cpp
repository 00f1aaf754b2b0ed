// DimVector behaves as std::vector<int64_t> does, inline (rank <= kInlineDims)
// and on the heap (larger ranks, 65 and beyond), and across the border between them.
#include "engine/dim_vector.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <vector>

namespace sc::engine {
namespace {

constexpr size_t kInline = DimVector::kInlineDims;

std::vector<int64_t> iota_vec(size_t n, int64_t start = 0) {
  std::vector<int64_t> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

void expect_same(const DimVector& d, const std::vector<int64_t>& v) {
  ASSERT_EQ(d.size(), v.size());
  EXPECT_EQ(d.empty(), v.empty());
  EXPECT_GE(d.capacity(), d.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(d[i], v[i]) << "index " << i;
  EXPECT_EQ(std::vector<int64_t>(d), v);
}

TEST(DimVector, ConstructsAsAVectorDoesAtEveryRank) {
  for (size_t n : {size_t{0}, size_t{1}, kInline - 1, kInline, kInline + 1, size_t{65}, size_t{200}}) {
    SCOPED_TRACE(n);
    expect_same(DimVector(n), std::vector<int64_t>(n));
    expect_same(DimVector(n, -7), std::vector<int64_t>(n, -7));
    const auto v = iota_vec(n, -3);
    expect_same(DimVector(v), v);
    expect_same(DimVector(v.begin(), v.end()), v);
    const DimVector d(v);
    DimVector copy(d);
    expect_same(copy, v);
    DimVector moved(std::move(copy));
    expect_same(moved, v);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from DimVector is empty
    DimVector assigned{1, 2, 3};
    assigned = d;
    expect_same(assigned, v);
    DimVector move_assigned(size_t{70}, 1);
    move_assigned = std::move(moved);
    expect_same(move_assigned, v);
    EXPECT_EQ(d, DimVector(v));
    EXPECT_EQ(d.vec(), v);
  }
  expect_same(DimVector{4, 5, 6}, {4, 5, 6});
  expect_same(DimVector{}, {});
}

TEST(DimVector, StaysInlineUpToTheBoundAndGrowsPastIt) {
  DimVector d;
  const int64_t* inline_data = d.data();
  for (size_t i = 0; i < kInline; ++i) d.push_back(static_cast<int64_t>(i));
  EXPECT_EQ(d.data(), inline_data);  // no allocation for rank <= kInlineDims
  d.push_back(99);
  EXPECT_NE(d.data(), inline_data);
  auto v = iota_vec(kInline);
  v.push_back(99);
  expect_same(d, v);
  // A copy of a small vector is inline again (its own buffer).
  DimVector small{1, 2};
  DimVector small_copy = small;
  EXPECT_NE(small_copy.data(), small.data());
  small_copy[0] = 5;
  EXPECT_EQ(small[0], 1);
}

TEST(DimVector, SelfAssignmentAndSwapKeepTheValues) {
  for (size_t n : {size_t{3}, size_t{65}}) {
    const auto v = iota_vec(n);
    DimVector d(v);
    DimVector& alias = d;
    d = alias;
    expect_same(d, v);
    d = std::move(alias);
    expect_same(d, v);
    DimVector other{9};
    swap(d, other);
    expect_same(other, v);
    expect_same(d, {9});
  }
}

// Random edits applied to a DimVector and a std::vector side by side.
TEST(DimVector, RandomEditsMatchStdVector) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    DimVector d;
    std::vector<int64_t> v;
    for (int step = 0; step < 60; ++step) {
      const int64_t x = static_cast<int64_t>(rng() % 1000) - 500;
      const size_t pos = v.empty() ? 0 : rng() % (v.size() + 1);
      switch (rng() % 10) {
        case 0:
        case 1:
          d.push_back(x), v.push_back(x);
          break;
        case 2:
          d.insert(d.begin() + pos, x), v.insert(v.begin() + pos, x);
          break;
        case 3: {
          const size_t n = rng() % 9;
          d.insert(d.begin() + pos, n, x), v.insert(v.begin() + static_cast<std::ptrdiff_t>(pos), n, x);
          break;
        }
        case 4: {  // a range from the vector itself
          const std::vector<int64_t> copy = v;
          const size_t a = copy.empty() ? 0 : rng() % copy.size(), b = a + (copy.empty() ? 0 : rng() % (copy.size() - a + 1));
          d.insert(d.begin() + pos, d.begin() + a, d.begin() + b);
          v.insert(v.begin() + pos, copy.begin() + a, copy.begin() + b);
          break;
        }
        case 5:
          if (!v.empty() && pos < v.size()) d.erase(d.begin() + pos), v.erase(v.begin() + pos);
          break;
        case 6: {
          const size_t b = pos + (v.size() > pos ? rng() % (v.size() - pos + 1) : 0);
          d.erase(d.begin() + pos, d.begin() + b), v.erase(v.begin() + pos, v.begin() + b);
          break;
        }
        case 7: {
          const size_t n = rng() % 20;
          d.resize(n, x), v.resize(n, x);
          break;
        }
        case 8:
          if (!v.empty()) d.pop_back(), v.pop_back();
          break;
        case 9:
          if (rng() % 4 == 0) d.clear(), v.clear();
          break;
      }
      ASSERT_NO_FATAL_FAILURE(expect_same(d, v)) << "round " << round << " step " << step;
    }
  }
}

TEST(DimVector, ComparesAsVectorsDo) {
  EXPECT_EQ(DimVector({1, 2}), DimVector({1, 2}));
  EXPECT_NE(DimVector({1, 2}), DimVector({1, 2, 3}));
  EXPECT_NE(DimVector({1, 2}), DimVector({2, 1}));
  EXPECT_LT(DimVector({1, 2}), DimVector({1, 2, 0}));
  EXPECT_LT(DimVector({1, 2}), DimVector({1, 3}));
  const std::vector<int64_t> v{1, 2};
  EXPECT_TRUE(DimVector({1, 2}) == v);
  EXPECT_TRUE(v == DimVector({1, 2}));
  EXPECT_EQ(DimVector(iota_vec(65)), DimVector(iota_vec(65)));
  EXPECT_NE(DimVector(iota_vec(65)), DimVector(iota_vec(65, 1)));
}

TEST(DimVector, AtChecksTheIndex) {
  DimVector d{1, 2, 3};
  EXPECT_EQ(d.at(2), 3);
  EXPECT_THROW(d.at(3), std::out_of_range);
  EXPECT_EQ(d.front(), 1);
  EXPECT_EQ(d.back(), 3);
  EXPECT_EQ(*d.rbegin(), 3);
}

}  // namespace
}  // namespace sc::engine
