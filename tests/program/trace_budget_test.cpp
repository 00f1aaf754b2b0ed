// The trace budget (Note [The trace budget], program/traced_backend.h): a
// program whose Observation trace would pass RunOptions::trace_budget_bytes
// stops at the step that would pass it, over budget, and the diff counts it
// as skipped; the tools say so. Small budgets here: nothing allocates more
// than a few kilobytes.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "program/compare.h"
#include "program/parser.h"
#include "tests/program/engine_run_util.h"
#include "tests/program/tool_test_util.h"

namespace sc {
namespace {

// `a = zeros [n]`, then `steps` more steps of `make` ("clone a": a storage
// each, "view a [-1]": a value each).
std::string program_of(int n, int steps, const std::string& make) {
  std::string text = "a = zeros [" + std::to_string(n) + "]\n";
  for (int i = 0; i < steps; ++i) text += "v" + std::to_string(i) + " = " + make + "\n";
  return text;
}

// What the Note counts for one observation.
int64_t observed_bytes(const StepObs& s, bool contents) {
  int64_t b = 48 * static_cast<int64_t>(s.versions.size()) + 128 * static_cast<int64_t>(s.storages.size());
  if (contents)
    for (const StorageObs& st : s.storages) b += st.nbytes;
  return b;
}

// The first step over budget (the step count when none is).
size_t first_over_budget(const Trace& t) {
  size_t k = 0;
  while (k < t.steps.size() && t.steps[k].outcome != Outcome::OverBudget) ++k;
  return k;
}

// The law: the steps before the first over-budget one observe at most the
// budget, and adding the last of them once more passes it; every later step
// is over budget and observes nothing. Returns the first over-budget step.
size_t expect_stopped_by_the_budget(const Trace& t, int64_t budget, bool contents) {
  const size_t k = first_over_budget(t);
  EXPECT_GT(k, 0u);
  EXPECT_LT(k, t.steps.size()) << "never stopped";
  if (k == 0 || k == t.steps.size()) return k;
  int64_t before = 0;
  for (size_t i = 0; i < k; ++i) before += observed_bytes(t.steps[i], contents);
  EXPECT_LE(before, budget);
  EXPECT_GT(before + observed_bytes(t.steps[k - 1], contents), budget);
  EXPECT_NE(t.steps[k].note.find("the trace would pass its budget of " + std::to_string(budget) + " bytes"),
            std::string::npos)
      << t.steps[k].note;
  for (size_t i = k; i < t.steps.size(); ++i) {
    EXPECT_EQ(t.steps[i].outcome, Outcome::OverBudget) << "step " << i;
    EXPECT_TRUE(t.steps[i].versions.empty() && t.steps[i].storages.empty()) << "step " << i;
  }
  return k;
}

TEST(TraceBudget, AProgramOfLiveClonesStopsWhereItsTraceWouldPassTheBudget) {
  const std::string text = program_of(2, 40, "clone a");
  RunOptions o;
  o.record_contents = false;
  EXPECT_EQ(first_over_budget(testing::run_on_engine(text, o)), 41u) << "the default budget runs all 41 steps";
  o.trace_budget_bytes = 40000;
  // 176 bytes per clone and step: 176 * k(k+1)/2 <= 40000 < 176 * k(k+3)/2
  EXPECT_EQ(expect_stopped_by_the_budget(testing::run_on_engine(text, o), o.trace_budget_bytes, false), 20u);
}

// Kept contents count, so `run` stops a program of a big storage sooner than
// the hashing tools (a 100 MB storage and 20 views held 4.3 GB in `run`).
TEST(TraceBudget, KeptContentsCount) {
  const std::string text = program_of(1000, 30, "view a [-1]");  // 4,000 bytes of contents
  RunOptions o;
  o.trace_budget_bytes = 40000;
  o.record_contents = false;
  const Trace hashed = testing::run_on_engine(text, o);
  EXPECT_EQ(first_over_budget(hashed), 31u) << "hashes only: the 31 steps fit";
  o.record_contents = true;
  EXPECT_EQ(expect_stopped_by_the_budget(testing::run_on_engine(text, o), o.trace_budget_bytes, true), 9u);
}

TEST(TraceBudget, TheDiffCountsTheProgramAsSkippedNamingTheStep) {
  register_engine_backend();
  auto left = make_backend("engine:cpu"), right = make_backend("engine:cpu");
  const Program p = parse_program(program_of(2, 40, "clone a"), "clones.prog");
  RunOptions o;
  o.record_contents = false;
  o.trace_budget_bytes = 40000;
  const Comparison c = compare_backends(p, *left, *right, o);
  EXPECT_EQ(c.diff.verdict, Verdict::Skipped);
  EXPECT_NE(c.diff.note.find("clones.prog:21: v19 = clone a: over_budget on engine:cpu: the trace would pass"),
            std::string::npos)
      << c.diff.note;
}

// engine:cpu with storage 0's contents changed from step `from` on: in the
// hashed run only, or in both runs.
class Tampered : public Backend {
 public:
  Tampered(size_t from, bool with_contents_too) : from_(from), both_(with_contents_too) {
    register_engine_backend();
    engine_ = make_backend("engine:cpu");
  }
  std::string name() const override { return "tampered:cpu"; }
  std::string version() const override { return engine_->version(); }
  Trace run(const Program& p, const RunOptions& o) override {
    Trace t = engine_->run(p, o);
    if (o.record_contents && !both_) return t;
    for (size_t i = from_; i < t.steps.size(); ++i)
      for (StorageObs& st : t.steps[i].storages)
        if (st.id == 0) {
          st.hash ^= 1;
          if (!st.bytes.empty()) st.bytes[0] ^= 1;
        }
    return t;
  }

 private:
  size_t from_;
  bool both_;
  std::unique_ptr<Backend> engine_;
};

// compare_backends reruns a contents difference with contents kept. Where
// no budget stopped the hashed runs, the rerun runs whole (its kept contents
// do not count). Where one did, they count against the trace budget: a rerun
// stopped at or before the difference keeps the hashed run's failure; one
// skipped after it (there the contents agreed: an excused NaN choice) is
// skipped.
TEST(TraceBudget, AContentsRerunOfHashesNoBudgetStoppedRunsWhole) {
  register_engine_backend();
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  o.record_contents = false;
  o.trace_budget_bytes = 40000;  // hashes: 31 steps fit; contents: step 9 would stop
  Tampered both(12, true);
  const Comparison named = compare_backends(parse_program(program_of(1000, 30, "view a [-1]"), "t.prog"), *engine, both, o);
  EXPECT_EQ(named.diff.verdict, Verdict::Fail);
  ASSERT_TRUE(named.diff.first);
  EXPECT_EQ(named.diff.first->step, 12u);
  EXPECT_FALSE(named.left.steps.at(12).storages.at(0).bytes.empty()) << "the rerun kept contents at the difference";
}

TEST(TraceBudget, AContentsRerunStoppedBeforeTheDifferenceKeepsTheFailure) {
  register_engine_backend();
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  o.record_contents = false;
  o.trace_budget_bytes = 40000;  // hashes: 31 steps fit, then the allocation budget; contents: step 9 stops
  Tampered both(12, true);
  const Comparison kept = compare_backends(
      parse_program(program_of(1000, 30, "view a [-1]") + "z = zeros [1000000000]\n", "t.prog"), *engine, both, o);
  EXPECT_EQ(kept.diff.verdict, Verdict::Fail);
  ASSERT_TRUE(kept.diff.first);
  EXPECT_EQ(kept.diff.first->step, 12u);
  EXPECT_TRUE(kept.left.steps.at(12).storages.at(0).bytes.empty()) << "the hashed run's failure, kept";

  o.trace_budget_bytes = RunOptions{}.trace_budget_bytes;
  Tampered hashed(12, false);
  const Comparison later = compare_backends(
      parse_program(program_of(1000, 13, "view a [-1]") + "z = zeros [1000000000]\n", "t.prog"), *engine, hashed, o);
  EXPECT_EQ(later.diff.verdict, Verdict::Skipped) << "the allocation budget, after the difference the rerun passed";
}

class TraceBudgetCli : public testing::ToolTest {};

// replay and run say why; record records the stop, and replaying against the
// recording stops at the same step.
TEST_F(TraceBudgetCli, ReplayRunAndRecordStopTheProgramAndSaySo) {
  const std::string path = write("clones.prog", program_of(2, 40, "clone a"));
  const std::string engines = "--backends engine:cpu,engine:cpu --trace-budget 40000 ";
  testing::ToolResult r = testing::run_tool("replay " + engines + path);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("0 passed, 0 failed\nundefined: 0, skipped: 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(":21: v19 = clone a: over_budget on engine:cpu: the trace would pass its budget of 40000"),
            std::string::npos)
      << r.out;
  r = testing::run_tool("run " + engines + path);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("step 21: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not run: the trace budget stopped the program at an earlier step"), std::string::npos) << r.out;
  r = testing::run_tool("record --backend engine:cpu --trace-budget 40000 " + path);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find(":21: v19 = clone a: over budget: the trace would pass"), std::string::npos) << r.out;
  EXPECT_NE(read(path).find("#> step 20 over_budget note=\"the trace would pass"), std::string::npos) << read(path);
  r = testing::run_tool("replay --against-recorded --backends engine:cpu --trace-budget 40000 " + path);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("skipped: 1"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sc
