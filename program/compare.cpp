#include "program/compare.h"

#include "program/trace_text.h"

namespace sc {

namespace {

// Does any step leave a storage with an element flagged as a chosen NaN
// (Note [NaN operand choice], engine/nan_choice.h)?
bool flags_chosen_nans(const Trace& t) {
  for (const StepObs& s : t.steps)
    for (const StorageObs& st : s.storages)
      for (uint8_t f : st.nan_choice)
        if (f) return true;
  return false;
}

}  // namespace

Comparison compare_backends(const Program& p, Backend& left, Backend& right, const RunOptions& options) {
  Comparison c;
  c.left = left.run(p, options);
  c.right = right.run(p, options);
  c.diff = diff_traces(p, c.left, c.right);
  // Hashes only: when the contents differ, run again keeping the bytes so the
  // diff can name the first differing element; and when a storage holds a
  // flagged NaN, so the diff can check that it is a NaN on both sides (Note
  // [Chosen NaNs checked], program/diff.cpp).
  const bool contents_differ = c.diff.verdict == Verdict::Fail && c.diff.first->field.ends_with(" contents");
  if (!options.record_contents &&
      (contents_differ || (c.diff.verdict != Verdict::Fail && (flags_chosen_nans(c.left) || flags_chosen_nans(c.right))))) {
    RunOptions full = options;
    full.record_contents = true;
    c.left = left.run(p, full);
    c.right = right.run(p, full);
    c.diff = diff_traces(p, c.left, c.right);
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
