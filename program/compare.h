#pragma once
// Runs one program on two backends (or one backend against the observations
// recorded in the file) and diffs the traces: the one path every driver uses
// (STYLE lesson 7).
#include <string>

#include "program/backend.h"
#include "program/diff.h"

namespace sc {

struct Comparison {
  Trace left, right;
  DiffResult diff;
};

// With options.record_contents false, the traces keep storage hashes only; when
// they differ in contents, both backends run again with contents so the diff
// names the first differing element (memory stays small for big programs).
Comparison compare_backends(const Program&, Backend& left, Backend& right, const RunOptions&);

// Compares a backend's trace (left) with the recording in Program::recorded
// (right). Throws RecordingError when the file has no recording or it is malformed.
Comparison compare_with_recording(const Program&, Backend& backend, const RunOptions&);

}  // namespace sc
