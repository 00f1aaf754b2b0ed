#pragma once
// UNDEFINED verified by brute force (issue 6). The engine's exact overlap
// solver and its undefined-contents flow decide which bytes the diff skips,
// and both backends' traces take the solver's word for each result's exact
// overlap: nothing in the diff notices a wrong answer. Every driver that
// compares (the differential property, the fuzz target) runs the engine under
// an engine::ClaimLog and hands the claims and the engine's trace here; each
// claim on at most engine::kBruteForceElements elements is checked by
// enumerating the element offsets:
//   - an internal overlap answered Yes: two index tuples share a location, and
//     the locations marked as written twice are exactly those; answered No:
//     no two tuples share a location;
//   - an input answered to overlap the written tensor: some byte is shared;
//     answered No: none is; taken as lined up: every element reads exactly
//     its own bytes;
//   - elements reading undefined bytes: exactly the elements whose read
//     element has an undefined byte (or is a bool byte other than 0/1);
//   - each result's exact internal overlap in the trace, the same way (once
//     per sizes, strides and answer, at most kTraceOverlapElements elements
//     per trace);
//   - TooHard (which marks everything undefined) on a tensor small enough to
//     enumerate: the solver gave up where an exact answer was cheap.
// A failed check is a finding, as a divergence is.
#include <functional>
#include <string>
#include <vector>

#include "engine/undefined_claims.h"
#include "program/compare.h"
#include "program/observation.h"

namespace sc {

// The most elements the trace's overlap answers are enumerated over, per
// trace (64 results of the largest checked size).
inline constexpr int64_t kTraceOverlapElements = int64_t{64} * engine::kBruteForceElements;

struct UndefinedCheck {
  std::vector<std::string> findings;  // one line each: the claim and what enumeration found
  int64_t checked = 0;                // claims and trace answers verified
  int64_t too_big = 0;                // not checked: past kBruteForceElements (or no snapshot)
  bool ok() const { return findings.empty(); }
};

// Whether the engine's claims can be checked on a run of these backends: the
// engine on the CPU first (its claims are logged), a LibTorch second.
bool claims_checkable(const std::vector<std::string>& backend_names);

// Checks one claim; "" when it holds, else the finding. `too_big` is set when
// it could not be checked.
std::string check_claim(const engine::UndefinedClaim&, bool* too_big = nullptr);

// Every claim, and every exact-overlap answer in `engine_trace`'s results.
UndefinedCheck check_undefined(const std::vector<engine::UndefinedClaim>& claims, const Trace& engine_trace);

// The findings as a report (one per line, the first few).
std::string format_undefined_check(const UndefinedCheck&);

// One comparison with the engine's claims checked, the one path for every
// driver that compares (replay, coverage, neighbours, signature, the fuzz
// target, the differential property): `compare` runs under an
// engine::ClaimLog, then its claims are checked against the engine's trace
// (comparison.left). With check false, `compare` runs alone and `claims` is
// empty (ok, nothing checked): for runs whose first backend is not the CPU
// engine (claims_checkable) or that compare against a recording.
struct ClaimCheckedComparison {
  Comparison comparison;
  UndefinedCheck claims;
};
ClaimCheckedComparison compare_checking_claims(const std::function<Comparison()>& compare, bool check = true);

}  // namespace sc
