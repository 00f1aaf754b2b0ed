#pragma once
// The diff: compares two Observation traces of the same program step by step
// and reports the FIRST step and field where they differ (DESIGN.md "The
// Observation trace: what is compared").
//
// Verdicts:
//   Fail       the traces differ (first difference in DiffResult::first);
//   Skipped    a step is over budget, timed out or refused on either side, before any
//              difference: never Pass (note says which step and why);
//   Undefined  the traces agree except for bytes marked undefined
//              (StorageObs::undefined, either side), or a step is marked
//              undefined (StepObs::undefined): never Pass;
//   Pass       everything compared is equal.
#include <optional>
#include <string>
#include <vector>

#include "engine/dtype.h"
#include "program/ir.h"
#include "program/observation.h"

namespace sc {

enum class Verdict { Pass, Fail, Undefined, Skipped };
std::string_view verdict_name(Verdict);  // "pass", "fail", "undefined", "skipped"

struct Difference {
  size_t step = 0;       // index into Program::steps / Trace::steps
  std::string field;     // "outcome", "error message", "result 0 strides", "storage 1 contents", ...
  std::string left, right;  // both values, as text
  std::string detail;    // extra lines (decoded element, which values reach it), may be ""
};

struct DiffResult {
  Verdict verdict = Verdict::Pass;
  std::optional<Difference> first;  // set when verdict is Fail
  std::string note;                 // why Skipped or Undefined
};

// One element of `dtype` at bytes [p, p + itemsize) as text; `detailed`:
// floats with every digit that tells two values apart, and a bool byte other
// than 0/1 named (the diff); otherwise C++'s default (the trace text).
std::string element_text(const uint8_t* p, engine::DType d, bool detailed);

// Compares `a` and `b` (traces of `program`). Never throws on mismatched
// shapes of traces: a different number of steps is itself a difference.
DiffResult diff_traces(const Program& program, const Trace& a, const Trace& b);

// "file:line: <step as text>" for step i (line omitted for in-memory programs).
std::string step_source(const Program& program, size_t i);

// A human-readable report: the verdict, and for a Fail the step's source line,
// the field and both values labelled with the backend names.
std::string format_diff(const Program& program, const Trace& a, const Trace& b, const DiffResult& d);

}  // namespace sc
