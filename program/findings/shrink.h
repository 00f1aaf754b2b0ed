#pragma once
// The reducer (Csmith/C-Reduce style): shrinks a program while a test says it
// still shows the same failure. Passes, repeated until none makes progress:
//   1. steps: delta debugging (ddmin) over the steps; a removed step takes the
//      steps that read its names with it;
//   2. names: an input replaced by an earlier value, so the chain between
//      them is read by nobody and goes in the next steps pass;
//   3. arguments: ops toward a simpler one of the same family (reshape ->
//      view, mul_ -> add_, ...), list elements removed (ranks), integers toward
//      0 then 1 (sizes toward 0/1), floats toward 0.0/1.0, dtype= toward
//      float32, keyword and trailing default arguments dropped;
// then names are renamed a, b, c, ... in order of definition.
// Every candidate is checked by the parser (ops, SSA) before it is tested.
// Deterministic: the same program and test give the same result.
#include <functional>
#include <string>
#include <vector>

#include "program/ir.h"

namespace sc {

struct ShrinkPolicy {
  int max_tests = 3000;  // calls of `still_fails`; the best program so far is kept when it runs out
};

struct ShrinkResult {
  Program program;                // without comments or recordings
  std::vector<std::string> log;   // what was removed or simplified, one line each
  int tests = 0;                  // calls of still_fails
  bool out_of_tests = false;      // stopped at max_tests
};

// `still_fails(candidate)` is true when the candidate shows the same failure
// as `program` (the caller compares failure signatures, program/findings/signature.h).
// `program` itself is not tested.
ShrinkResult shrink_program(const Program& program, const std::function<bool(const Program&)>& still_fails,
                            const ShrinkPolicy& policy = {});

}  // namespace sc
