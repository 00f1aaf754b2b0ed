// detach and alias (engine/views/alias.cpp).
#include "tests/engine/views/views_test_util.h"

namespace sc::engine {
namespace {
using testing::expect_view_of;
using testing::geometry;
using testing::iota;

TEST(Detach, SharesStorageAndVersionButIsNotAView) {
  Tensor x = iota({3, 4});
  Tensor d = detach(x);
  EXPECT_FALSE(d.is_view());  // C++ LibTorch 1.13: x.detach().is_view() == false
  EXPECT_NE(d.id, x.id);
  EXPECT_EQ(d.storage, x.storage);
  EXPECT_EQ(&d.version(), &x.version());
  EXPECT_EQ(geometry(d), geometry(x));
}

TEST(Detach, ViewsOfADetachAreViewsOfTheDetach) {
  Tensor d = detach(iota({3, 4}));
  Tensor v = t(d);
  EXPECT_EQ(v.base_id, d.id);
}

TEST(Alias, IsAViewOfTheRoot) {
  Tensor x = iota({3, 4});  // itself a view of the arange
  Tensor a = alias(x);
  expect_view_of(a, x);
  EXPECT_EQ(a.base_id, x.base_id);
  EXPECT_EQ(geometry(a), geometry(x));
}

}  // namespace
}  // namespace sc::engine
