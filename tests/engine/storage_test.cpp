// engine/storage.cpp: allocate zero-fills; allocate_for_overwrite is filled
// with kPoisonByte when poisoning is on (Note [Poisoned fresh storage]), so
// a byte no kernel wrote reads the same in every process.
#include "engine/storage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

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

// The batch marks (the undefined-contents flow's) set and clear exactly the
// flags that marking element by element does, drop the mask with its last
// flag, and scribble the marked bytes when asked.
TEST(Storage, BatchMarksEqualElementByElementMarks) {
  struct Run {
    int64_t base, step, n, item;
  };
  for (const Run& r : {Run{0, 4, 10, 4}, Run{36, -4, 10, 4}, Run{3, 5, 7, 2}, Run{8, 0, 3, 8}, Run{1, 1, 40, 1},
                       Run{5, 8, 1, 8}, Run{0, 4, 0, 4}}) {
    auto a = Storage::allocate(48), b = Storage::allocate(48);
    a->mark_undefined(2, 3);  // flags set before: counted once
    b->mark_undefined(2, 3);
    a->mark_undefined_strided(r.base, r.step, r.n, r.item);
    std::vector<int64_t> offs;
    for (int64_t k = 0; k < r.n; ++k) {
      b->mark_undefined(r.base + k * r.step, r.item);
      offs.push_back(r.base + k * r.step);
    }
    EXPECT_EQ(a->undefined_mask(), b->undefined_mask()) << r.base << " " << r.step;
    auto c = Storage::allocate(48);
    c->mark_undefined(2, 3);
    c->mark_undefined_at(offs, r.item);
    EXPECT_EQ(c->undefined_mask(), b->undefined_mask()) << r.base << " " << r.step;
    // Clearing the same elements leaves only the first mark's flags outside them.
    a->mark_defined_strided(r.base, r.step, r.n, r.item);
    for (int64_t k = 0; k < r.n; ++k) b->mark_defined(r.base + k * r.step, r.item);
    EXPECT_EQ(a->undefined_mask(), b->undefined_mask()) << r.base << " " << r.step;
    // Clearing the rest drops the mask, as the last mark_defined does.
    a->mark_defined_strided(0, 1, 48, 1);
    EXPECT_FALSE(a->has_undefined_bytes());
  }
}

// A storage without flags marked whole or in part (empty_like marks all of
// it) counts every flag it set: clearing them drops the mask again.
TEST(Storage, MarksOnAStorageWithoutFlagsCountEveryFlag) {
  struct Range {
    int64_t off, n;
  };
  for (const Range& r : {Range{0, 48}, Range{4, 8}, Range{47, 1}, Range{0, 1}}) {
    auto a = Storage::allocate(48);
    a->mark_undefined(r.off, r.n);
    std::vector<uint8_t> want(48, 0);
    for (int64_t k = r.off; k < r.off + r.n; ++k) want[static_cast<size_t>(k)] = 1;
    EXPECT_EQ(a->undefined_mask(), want) << r.off << " " << r.n;
    a->mark_defined(r.off, r.n);
    EXPECT_FALSE(a->has_undefined_bytes()) << r.off << " " << r.n;
  }
}

// Clearing a range counts the flags it held, whatever their codes (a NaN
// choice's code may have its high bit set) and wherever the range starts
// and ends within a word: the mask is dropped exactly when its last flag is
// cleared, and the flags outside the ranges stay.
TEST(Storage, ClearingARangeCountsTheFlagsItHeld) {
  auto a = Storage::allocate(100);
  std::vector<uint8_t> want(100, 0);
  struct Mark {
    int64_t off, n;
    uint8_t code;
  };
  for (const Mark& m : {Mark{0, 9, 1}, Mark{9, 20, 0x80}, Mark{40, 17, 0xff}, Mark{70, 3, 7}, Mark{97, 3, 0x7f}}) {
    a->mark_nan_choice(m.off, m.n, m.code);
    for (int64_t k = m.off; k < m.off + m.n; ++k) want[static_cast<size_t>(k)] = m.code;
  }
  ASSERT_EQ(a->nan_choice_mask(), want);
  struct Range {
    int64_t off, n;
  };
  for (const Range& r : {Range{3, 13}, Range{30, 10}, Range{41, 15}, Range{60, 40}, Range{0, 0}}) {
    a->clear_nan_choice(r.off, r.n);
    for (int64_t k = r.off; k < r.off + r.n; ++k) want[static_cast<size_t>(k)] = 0;
    ASSERT_EQ(a->nan_choice_mask(), want) << r.off << " " << r.n;
    ASSERT_TRUE(a->has_nan_choice()) << r.off << " " << r.n;
  }
  a->clear_nan_choice(0, 41);  // 0..2, 16..28 and 40: byte 56 is left
  ASSERT_TRUE(a->has_nan_choice());
  a->clear_nan_choice(57, 43);  // no flag there
  ASSERT_TRUE(a->has_nan_choice());
  a->clear_nan_choice(50, 7);  // the last one
  EXPECT_FALSE(a->has_nan_choice());
  // A long range of set flags (counted word by word, in lanes summed every 255 words).
  auto b = Storage::allocate(5000);
  b->mark_undefined(0, 5000);
  b->mark_defined(1, 4998);
  ASSERT_TRUE(b->has_undefined_bytes());
  b->mark_defined(0, 1);
  ASSERT_TRUE(b->has_undefined_bytes());
  b->mark_defined(4999, 1);
  EXPECT_FALSE(b->has_undefined_bytes());
  b->mark_undefined(0, 5000);
  b->mark_defined(0, 4999);  // all but the last
  ASSERT_TRUE(b->has_undefined_bytes());
  b->mark_defined(0, 5000);  // the whole storage
  EXPECT_FALSE(b->has_undefined_bytes());
}

// Note [Masks shared as snapshots]: a snapshot keeps the flags it was taken
// with, whichever way the storage changes them afterwards (every kind of mark
// copies shared flags first), and the storage sees its own changes.
TEST(Storage, SnapshotsOfMasksKeepTheirFlagsWhileTheStorageChanges) {
  using Change = void (*)(Storage&);
  const Change changes[] = {
      [](Storage& s) { s.mark_undefined(4, 2); },
      [](Storage& s) { s.mark_defined(1, 1); },
      [](Storage& s) { s.mark_undefined_strided(0, 3, 3, 1); },
      [](Storage& s) { s.mark_defined_strided(0, 1, 8, 1); },
      [](Storage& s) { s.mark_undefined_at({5, 6}, 2); },
      [](Storage& s) { s.resize_bytes(12); },
  };
  for (size_t c = 0; c < std::size(changes); ++c) {
    auto s = Storage::allocate(8);
    s->mark_undefined(1, 1);
    s->mark_nan_choice(2, 2, 3);
    const std::vector<uint8_t> undefined_before = s->undefined_mask(), nan_before = s->nan_choice_mask();
    const auto undefined = s->undefined_snapshot(), nan = s->nan_choice_snapshot();
    changes[c](*s);
    s->clear_nan_choice(2, 1);
    EXPECT_EQ(*undefined, undefined_before) << c;
    EXPECT_EQ(*nan, nan_before) << c;
    EXPECT_NE(s->undefined_mask(), undefined_before) << c;  // each change changes a flag or the size
    EXPECT_EQ(s->nan_choice_mask()[2], 0) << c;
    EXPECT_EQ(s->nan_choice_mask()[3], 3) << c;
  }
}

TEST(Storage, BatchMarksScribbleWhenAsked) {
  Storage::set_undefined_scribble(0x5c);
  auto a = Storage::allocate(16);
  a->mark_undefined_strided(0, 8, 2, 2);
  a->mark_undefined_at({12}, 2);
  Storage::set_undefined_scribble(-1);
  const auto* p = reinterpret_cast<const unsigned char*>(a->data());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(p[i], (i < 2 || (i >= 8 && i < 10) || i >= 12 && i < 14) ? 0x5c : 0) << i;
}

}  // namespace
}  // namespace sc::engine
