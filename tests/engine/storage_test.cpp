// engine/storage.cpp: allocate zero-fills; allocate_for_overwrite is filled
// with kPoisonByte when poisoning is on (Note [Poisoned fresh storage]), so
// a byte no kernel wrote reads the same in every process.
#include "engine/storage.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace sc::engine {
namespace {

struct PoisonFor {
  bool before = poison_fresh_storage();
  explicit PoisonFor(bool on) { set_poison_fresh_storage(on); }
  ~PoisonFor() { set_poison_fresh_storage(before); }
};

bool all_bytes(const Storage& s, unsigned char b) {
  return std::all_of(s.data(), s.data() + s.nbytes(), [b](std::byte x) { return x == std::byte{b}; });
}

TEST(Storage, ForOverwriteIsPoisonedWhenAsked) {
  PoisonFor on(true);
  for (int64_t n : {int64_t{1}, int64_t{63}, int64_t{64}, int64_t{1000}, int64_t{1} << 20}) {
    EXPECT_TRUE(all_bytes(*Storage::allocate_for_overwrite(n), kPoisonByte)) << n;
    EXPECT_TRUE(all_bytes(*Storage::allocate(n), 0)) << n;
  }
  EXPECT_EQ(Storage::allocate_for_overwrite(0)->nbytes(), 0);
}

TEST(Storage, AllocateIsZeroWithoutPoison) {
  PoisonFor off(false);
  EXPECT_FALSE(poison_fresh_storage());
  EXPECT_TRUE(all_bytes(*Storage::allocate(4096), 0));
  EXPECT_EQ(Storage::allocate_for_overwrite(4096)->nbytes(), 4096);
}

}  // namespace
}  // namespace sc::engine
