#pragma once
// Observation traces as text, two ways:
//  - readable: one block per step (outcome, each result's header facts, error,
//    warnings, versions, storages with nbytes, hash and the first elements),
//    alone or two backends side by side (`stridecheck run`);
//  - recorded: a compact serialization into `#>` lines kept in a program file
//    (`stridecheck record`), storage contents as hashes only, and its parser
//    (`stridecheck replay --against-recorded`).
//
// Recorded format, one line per fact (values never contain spaces unless quoted;
// quoted strings use C escapes \\ \" \n \t \r \xNN):
//   #> trace <backend> "<backend version>"
//   #> step <i> <outcome> [kind="<error kind>"] [message="<msg>"] [note="<note>"]
//   #> result <i> <dtype> sizes=[..] strides=[..] offset=<n> flags=<cLld> same=<name|-> view=<0|1>
//        base=<name|?|-> storage=<k> overlap=<torch>/<exact>
//        flags: 'c' contiguous, 'l' channels_last, 'L' channels_last_3d, 'd' non_overlapping_and_dense,
//        '-' in place of each that is false
//   #> warning <i> "<text>"
//   #> undefined <i> "<reason>"
//   #> versions <i> name:v name:v ...
//   #> storages <i> id:nbytes:hash[:u=a-b,c-d] ... (hash "-" on devices without contents)
// where <i> is the 0-based step index.
#include <stdexcept>
#include <string>
#include <functional>
#include <utility>
#include <vector>

#include "program/ir.h"
#include "program/observation.h"

namespace sc {

// Readable text.
std::vector<std::string> render_step(const StepObs&);  // lines, no trailing newline
std::string render_trace(const Program&, const Trace&);
// Both traces, step by step, side by side; lines that differ are marked '!'.
std::string render_side_by_side(const Program&, const Trace& a, const Trace& b);
// The same text, handed to `emit` one step at a time.
void render_side_by_side(const Program&, const Trace& a, const Trace& b,
                         const std::function<void(const std::string&)>& emit);

// Recorded `#>` lines.
std::vector<std::string> serialize_trace(const Trace&);
struct RecordingError : std::runtime_error {
  explicit RecordingError(const std::string& what, int index = -1, std::string why = "")
      : std::runtime_error(what), index(index), why(std::move(why)) {}
  int index;        // the 0-based recorded line (Program::recorded) at fault; -1: none
  std::string why;  // the message without its "recorded line N: "
};
// Parses Program::recorded lines (with their "#>" prefix). Storage contents
// come back as hashes (bytes empty, has_contents true) with the undefined mask
// rebuilt from the recorded ranges. Throws RecordingError on malformed lines.
Trace parse_recorded(const std::vector<std::string>& lines);

}  // namespace sc
