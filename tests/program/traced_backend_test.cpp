// The interpreter (program/traced_backend.h) on the engine: errors come back as
// the step's outcome (Note [Errors cross the interpreter as values]), and a
// storage's hash follows every write although unchanged storages are not
// hashed again (Note [Storage hashes are remembered]).
#include <gtest/gtest.h>

#include "program/backend.h"
#include "program/parser.h"

namespace sc {
namespace {

Trace run_engine(const std::string& text, bool record_contents) {
  register_engine_backend();
  RunOptions o;
  o.record_contents = record_contents;
  return make_backend("engine:cpu")->run(parse_program(text), o);
}

const StorageObs& storage(const StepObs& s, int id) {
  for (const StorageObs& st : s.storages)
    if (st.id == id) return st;
  ADD_FAILURE() << "no storage " << id;
  return s.storages.at(0);
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
  ASSERT_EQ(recorded.steps.size(), hashed.steps.size());
  for (size_t i = 0; i < recorded.steps.size(); ++i) {
    ASSERT_EQ(recorded.steps[i].storages.size(), hashed.steps[i].storages.size()) << i;
    for (size_t k = 0; k < recorded.steps[i].storages.size(); ++k) {
      const StorageObs& r = recorded.steps[i].storages[k];
      const StorageObs& h = hashed.steps[i].storages[k];
      EXPECT_EQ(r.hash, contents_hash(r.bytes.data(), r.bytes.size(), nullptr)) << "step " << i << " storage " << k;
      EXPECT_EQ(h.hash, r.hash) << "step " << i << " storage " << k;
      EXPECT_TRUE(h.bytes.empty());
    }
  }
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

}  // namespace
}  // namespace sc
