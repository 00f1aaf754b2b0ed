#pragma once
// The failure signature of a finding: what makes two findings "the same bug"
// (deduplication) and what the minimizer keeps while it shrinks a program.
//
//   <op>: <field class> [<left side>|<right side>]
//
// where <op> is the op of the first differing step and <field class> is the
// diff's field without its result/storage number ("result 0 strides" ->
// "strides", "storage 2 contents" -> "contents"). Fields that say what each side
// did keep both sides: "outcome ok|RuntimeError", "error kind
// RuntimeError|IndexError", "error message RuntimeError". A crash or a hang
// in a backend is "crash <signal name> on <backend> at <op>" / "timeout on
// <backend> at <op>". Examples:
//   t: strides
//   view: outcome ok|RuntimeError
//   copy_: contents
//   crash SIGSEGV on libtorch:cpu at index_select
// Step indices, names, sizes and values are left out on purpose: a smaller
// program with the same signature shows the same bug.
#include <functional>
#include <string>
#include <string_view>

#include "program/compare.h"

namespace sc {

// The signature of a program on which an UNDEFINED claim of the engine does
// not hold under brute force (program/undefined_check.h).
inline constexpr std::string_view kUndefinedCheckSignature = "undefined-check";

// "" when the comparison is not a failure (pass, undefined, skipped).
std::string failure_signature(const Program&, const Comparison&);

// The field without result/storage numbers: "result 0 strides" -> "strides".
std::string field_class(const std::string& field);

// A backend that died: `signal` is a signal number; `op` the step it was running ("" if unknown).
std::string crash_signature(int signal, const std::string& backend, const std::string& op);
std::string timeout_signature(const std::string& backend, const std::string& op);

// The signature of `program` as `compare` sees it, computed in a forked child
// (program/findings/isolated.h) with a wall-time limit, so a crash or a hang is
// a signature too. `compare` must call on_step before each step.
struct IsolatedSignature {
  std::string signature;  // "" when the program does not fail
  std::string verdict;    // when it does not fail: "pass", "undefined", "skipped"
  std::string error;      // the program could not be run (compare threw, fork failed)
};
using StepHook = std::function<void(const std::string& backend, size_t step)>;
// With check_claims, the engine's UNDEFINED claims made while `compare` runs
// (its left side must be engine:cpu) are checked by brute force, as replay
// and generate --stats check them (program/undefined_check.h): a wrong claim
// is the signature "undefined-check", replay's word for it. Without it such a
// finding read "pass", and a claim's own crash (a sanitizer's report in the
// claim code) was never reached.
IsolatedSignature signature_isolated(const Program& program,
                                     const std::function<Comparison(const Program&, const StepHook&)>& compare,
                                     double timeout_s, bool check_claims = false);

}  // namespace sc
