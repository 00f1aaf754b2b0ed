#pragma once
// Excuses, pinned (mutation round 4). The diff compares everything except
// what the engine excuses: bytes it marks undefined (StorageObs::undefined),
// steps it marks undefined (StepObs::undefined) and NaNs whose bits it says
// LibTorch's loops choose (StorageObs::nan_choice). An engine that excuses
// too much passes every comparison it skips, and no diff notices: the
// brute-force claim check (program/undefined_check.h) verifies the geometry
// of each claim, not whether LibTorch's result was in fact undefined.
//
// So the corpus pins each program's excuses: `stridecheck replay` counts them
// in the engine's trace, and a program that excuses anything must be listed,
// with the exact counts and a reason, in the nearest excuses.txt above it:
//   <corpus-relative path> <LibTorch version glob> steps=S undefined=U nan_choice=N [refused=R]  # reason
// A program that excuses something unlisted, or other counts than listed,
// fails; so does a listed one that excuses nothing any more (remove it).
//
// Refused steps too (mutation round 8): a step the engine declines to run
// (engine::StepRefused: LibTorch would read garbage or crash there) makes the
// diff skip the rest of the program, so an engine that refuses too much, or
// too little where LibTorch's answer depends on garbage, went unseen (the
// fill_(Tensor) refusal tests of 1.13). `refused=R` counts the engine's
// Refused steps over its whole trace (the engine runs every step; the diff
// stops at the first); omitted, it is 0.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "program/observation.h"

namespace sc {

struct Excuses {
  int64_t steps = 0;       // steps marked undefined
  int64_t undefined = 0;   // storage bytes marked undefined, summed over the steps' snapshots
  int64_t nan_choice = 0;  // storage bytes flagged as chosen NaNs, summed the same way
  int64_t refused = 0;     // steps the engine refused (Outcome::Refused), over the whole trace
  bool any() const { return steps || undefined || nan_choice || refused; }
  bool operator==(const Excuses&) const = default;
};

// "steps=S undefined=U nan_choice=N", and " refused=R" when R > 0: the form the list uses.
std::string excuses_text(const Excuses&);

// The excuses in one trace (the engine's).
Excuses count_excuses(const Trace&);

struct ExcuseEntry {
  std::string path;          // relative to the list's folder, '/'-separated
  std::string version_glob;  // fnmatch pattern: "1.13.*", "*"
  Excuses excuses;
  std::string reason;
  int line = 0;
};

struct ExcuseList {
  std::string file, root;
  std::vector<ExcuseEntry> entries;
  // The first entry for `program_path` (made relative to root) whose glob matches `version`.
  const ExcuseEntry* find(const std::string& program_path, std::string_view version) const;
};

// Throws std::runtime_error "file:line: message" on a malformed line.
ExcuseList parse_excuse_list(std::string_view text, const std::string& file, const std::string& root);
ExcuseList read_excuse_list(const std::string& file);
// The nearest excuses.txt in `program_path`'s folder or a folder above it.
std::optional<std::string> find_excuse_list_file(const std::string& program_path);

// "" when `found` agrees with the list (nothing excused and no entry, or the
// entry's exact counts); else what is wrong, with the line to write.
std::string check_excuses(const ExcuseList* list, const std::string& program_path, std::string_view version,
                          const Excuses& found);

}  // namespace sc
