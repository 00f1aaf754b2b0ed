#include "program/compare.h"

#include "program/trace_text.h"

namespace sc {

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
