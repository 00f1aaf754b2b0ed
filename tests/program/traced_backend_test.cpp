// The interpreter (program/traced_backend.h) on the engine: errors come back as
// the step's outcome (Note [Errors cross the interpreter as values]), and a
// storage's hash follows every write although unchanged storages are not
// hashed again (Note [Storage hashes are remembered]).
#include <gtest/gtest.h>

#include "program/backend.h"
#include "program/parser.h"
#include "program/traced_backend.h"
#include "tests/program/engine_run_util.h"

namespace sc {
namespace {

Trace run_engine(const std::string& text, bool record_contents) {
  RunOptions o;
  o.record_contents = record_contents;
  return testing::run_on_engine(text, o);
}

const StorageObs& storage(const StepObs& s, int id) {
  for (const StorageObs& st : s.storages)
    if (st.id == id) return st;
  ADD_FAILURE() << "no storage " << id;
  return s.storages.at(0);
}

// A hashed-only run observes what the recorded run did: per step and storage,
// the recorded hash is contents_hash of the recorded bytes (undefined ones
// masked), the hashed run has that hash and undefined mask and no bytes.
void expect_hashed_like_recorded(const Trace& recorded, const Trace& hashed, const std::string& run) {
  ASSERT_EQ(recorded.steps.size(), hashed.steps.size()) << run;
  for (size_t i = 0; i < recorded.steps.size(); ++i) {
    ASSERT_EQ(recorded.steps[i].storages.size(), hashed.steps[i].storages.size()) << run << " step " << i;
    for (size_t k = 0; k < recorded.steps[i].storages.size(); ++k) {
      const StorageObs& r = recorded.steps[i].storages[k];
      const StorageObs& h = hashed.steps[i].storages[k];
      const uint8_t* mask = r.undefined.empty() ? nullptr : r.undefined.data();
      EXPECT_EQ(r.hash, contents_hash(r.bytes.data(), r.bytes.size(), mask)) << run << " step " << i << " storage " << k;
      EXPECT_EQ(h.hash, r.hash) << run << " step " << i << " storage " << k;
      EXPECT_EQ(h.undefined, r.undefined) << run << " step " << i << " storage " << k;
      EXPECT_TRUE(h.bytes.empty()) << run << " step " << i << " storage " << k;
    }
  }
}

// Storage 0 is 1.5 MiB (past the memo's bound), storage 1 is small.
constexpr const char* kWrites =
    "a = arange 6\n"
    "big = zeros [196608] dtype=int64\n"
    "b = view a [2,3]\n"
    "c = zero_ b\n"
    "d = view a [3,2]\n"
    "e = add_ a 1\n"
    "f = fill_ big 7\n"
    "g = view big [2,-1]\n"
    "h = view a [7]\n"
    "i = add_ a 1\n";

TEST(TracedBackend, HashesFollowEveryWriteOfSmallAndLargeStorages) {
  const Trace recorded = run_engine(kWrites, true);
  const Trace hashed = run_engine(kWrites, false);
  expect_hashed_like_recorded(recorded, hashed, "hashed run");
  const auto& s = hashed.steps;
  const int small = 0, big = 1;
  EXPECT_NE(storage(s[3], small).hash, storage(s[2], small).hash);  // zero_ through a view
  EXPECT_EQ(storage(s[4], small).hash, storage(s[3], small).hash);  // a view writes nothing
  EXPECT_NE(storage(s[5], small).hash, storage(s[4], small).hash);  // add_
  EXPECT_EQ(storage(s[5], big).hash, storage(s[1], big).hash);
  EXPECT_NE(storage(s[6], big).hash, storage(s[5], big).hash);  // fill_ of 1.5 MiB
  EXPECT_EQ(storage(s[7], big).hash, storage(s[6], big).hash);
  EXPECT_NE(storage(s[9], small).hash, storage(s[8], small).hash);  // after an erroring step
}

// Note [hashes shared between runs]: a storage whose bytes are ones this
// thread hashed lately (in this run or an earlier one) takes that hash; it is
// still the hash of its own bytes, after every write, also when the bytes
// return to earlier contents, and with undefined flags (empty_like).
TEST(TracedBackend, HashesTakenFromEarlierRunsAreTheHashesOfTheBytes) {
  constexpr const char* kProgram =
      "a = zeros [4,3]\n"
      "b = zeros [4,3]\n"         // the same bytes as a: hashed once
      "c = fill_ a 2\n"
      "d = fill_ b 2\n"
      "e = zero_ a\n"             // back to a's first bytes
      "f = empty_like a\n"        // undefined bytes
      "g = copy_ f a\n"
      "h = ones [6] dtype=int64\n"
      "i = mul_ h 0\n";           // 48 zero bytes, as a's float32 zeros: the same entry
  const Trace recorded = run_engine(kProgram, true);
  for (int rep = 0; rep < 3; ++rep) {
    const Trace hashed = run_engine(kProgram, false);  // from the second run on, every hash is a lookup
    expect_hashed_like_recorded(recorded, hashed, "run " + std::to_string(rep));
  }
  const auto& s = recorded.steps;
  EXPECT_EQ(storage(s[1], 0).hash, storage(s[1], 1).hash);  // a and b: the same bytes
  EXPECT_NE(storage(s[2], 0).hash, storage(s[1], 0).hash);  // fill_
  EXPECT_EQ(storage(s[4], 0).hash, storage(s[1], 0).hash);  // zero_: a's first bytes again
  EXPECT_FALSE(storage(s[5], 2).undefined.empty());          // empty_like: undefined until written
  EXPECT_EQ(storage(s[8], 3).hash, storage(s[1], 0).hash);  // int64 zeros, float32 zeros: the same 48 bytes
}

TEST(TracedBackend, AnErrorIsTheStepsOutcomeAndTheRunGoesOn) {
  const Trace t = run_engine(kWrites, false);
  const StepObs& h = t.steps[8];
  EXPECT_EQ(h.outcome, Outcome::Error);
  EXPECT_EQ(h.error_kind, "RuntimeError");
  EXPECT_EQ(h.error_message, "shape '[7]' is invalid for input of size 6");
  EXPECT_TRUE(h.results.empty());
  EXPECT_EQ(t.steps[9].outcome, Outcome::Ok);
  const Trace index = run_engine("a = arange 3\nb = select a 0 5\nc = view a [3]\n", false);
  EXPECT_EQ(index.steps[1].outcome, Outcome::Error);
  EXPECT_EQ(index.steps[1].error_kind, "IndexError");
  EXPECT_EQ(index.steps[1].error_message, "select(): index 5 out of range for tensor of size [3] at dimension 0");
  EXPECT_EQ(index.steps[2].outcome, Outcome::Ok);
}

// RecentHashes (Note [hashes shared between runs]) keeps each entry's size
// and first word beside it to skip entries without reading them: an entry is
// still found only for the very same bytes and undefined flags.
TEST(RecentHashes, FindsOnlyTheSameBytesAndFlags) {
  RecentHashes recent;
  std::vector<uint8_t> bytes(40);
  for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<uint8_t>(k * 7 + 1);
  auto e = std::make_shared<HashedBytes>();
  e->bytes = bytes;
  e->hash = contents_hash(bytes.data(), bytes.size(), nullptr);
  recent.add(e);
  const std::vector<uint8_t> none;
  EXPECT_EQ(recent.find(bytes.data(), bytes.size(), none), e);
  std::vector<uint8_t> tail_differs = bytes;  // same size and first word
  tail_differs[30] ^= 1;
  EXPECT_EQ(recent.find(tail_differs.data(), tail_differs.size(), none), nullptr);
  std::vector<uint8_t> head_differs = bytes;
  head_differs[3] ^= 1;
  EXPECT_EQ(recent.find(head_differs.data(), head_differs.size(), none), nullptr);
  EXPECT_EQ(recent.find(bytes.data(), bytes.size() - 1, none), nullptr);  // a prefix
  std::vector<uint8_t> undefined(bytes.size(), 0);
  undefined[5] = 1;
  EXPECT_EQ(recent.find(bytes.data(), bytes.size(), undefined), nullptr);
  // Short contents: the first word is what there is.
  auto small = std::make_shared<HashedBytes>();
  small->bytes = {1, 2, 3};
  recent.add(small);
  const std::vector<uint8_t> same{1, 2, 3}, other{1, 2, 4};
  EXPECT_EQ(recent.find(same.data(), same.size(), none), small);
  EXPECT_EQ(recent.find(other.data(), other.size(), none), nullptr);
  EXPECT_EQ(recent.find(bytes.data(), bytes.size(), none), e);  // older entries are still found
}

}  // namespace
}  // namespace sc
