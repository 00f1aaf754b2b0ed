#include "program/compare.h"

#include <algorithm>
#include <limits>

#include "program/trace_text.h"

namespace sc {

namespace {

// The first step either trace did not run (over a budget, timed out, refused).
size_t first_not_run(const Comparison& c) {
  size_t i = 0;
  auto ran = [](const Trace& t, size_t k) {
    if (k >= t.steps.size()) return true;
    const Outcome o = t.steps[k].outcome;
    return o != Outcome::OverBudget && o != Outcome::TimedOut && o != Outcome::Refused;
  };
  while (i < std::max(c.left.steps.size(), c.right.steps.size()) && ran(c.left, i) && ran(c.right, i)) ++i;
  return i;
}

bool stopped_by_a_budget(const Trace& t) {
  return std::any_of(t.steps.begin(), t.steps.end(), [](const StepObs& s) { return s.outcome == Outcome::OverBudget; });
}

}  // namespace

Comparison compare_backends(const Program& p, Backend& left, Backend& right, const RunOptions& options) {
  Comparison c;
  if (!options.record_contents && !options.observe_written_only) {
    RunOptions written_only = options;
    written_only.observe_written_only = true;
    return compare_backends(p, left, right, written_only);
  }
  c.left = left.run(p, options);
  c.right = right.run(p, options);
  // Note [Observing only the storages a step may write]: a stale trace is
  // run again reading every storage after every step.
  if (c.left.stale || c.right.stale) {
    RunOptions every = options;
    every.observe_written_only = false;
    if (c.left.stale) c.left = left.run(p, every);
    if (c.right.stale) c.right = right.run(p, every);
  }
  c.diff = diff_traces(p, c.left, c.right);
  // Hashes only: when the contents differ, run again keeping the bytes so the
  // diff can name the first differing element.
  if (!options.record_contents && c.diff.verdict == Verdict::Fail && c.diff.first->field.ends_with(" contents")) {
    RunOptions full = options;
    full.record_contents = true;
    full.observe_written_only = false;
    // A program whose hashes the budgets did not stop is rerun whole: its
    // kept contents do not count (opinfo_elementwise_float32.prog keeps 3 MB
    // a step; an excused NaN choice at its step 409, where builds differ,
    // must be seen as the excuse it is, not a failure without the element).
    if (!stopped_by_a_budget(c.left) && !stopped_by_a_budget(c.right))
      full.trace_budget_bytes = std::numeric_limits<int64_t>::max();
    Comparison named;
    named.left = left.run(p, full);
    named.right = right.run(p, full);
    named.diff = diff_traces(p, named.left, named.right);
    // Kept contents count against the trace budget (Note [The trace
    // budget]): a rerun it stops at or before the hashes' difference (their
    // run went past that step) keeps the hashes' verdict, a failure without
    // the element named. A stop after it (an excused NaN choice there, then
    // a step over the allocation budget) is the rerun's verdict.
    if (named.diff.verdict != Verdict::Skipped || first_not_run(named) > c.diff.first->step) c = std::move(named);
  }
  return c;
}

Comparison compare_with_recording(const Program& p, Backend& backend, const RunOptions& options) {
  if (p.recorded.empty()) throw RecordingError("no recorded observations ('#>' lines): run `stridecheck record` first");
  Comparison c;
  c.right = parse_recorded(p.recorded);
  if (c.right.steps.size() != p.steps.size())
    throw RecordingError("the recording has " + std::to_string(c.right.steps.size()) + " steps but the program has " +
                         std::to_string(p.steps.size()) + ": re-record it");
  c.left = backend.run(p, options);
  c.diff = diff_traces(p, c.left, c.right);
  return c;
}

}  // namespace sc
