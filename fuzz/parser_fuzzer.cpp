// libFuzzer target: the program parser on any bytes.
//   - Never crashes: a malformed program is a ParseError (file:line:col),
//     nothing else may escape (an uncaught exception aborts).
//   - What parses prints back to text that parses to the same program, and
//     printing that program again gives the same text (a fixed point),
//     comments and recorded `#>` lines included.
//   - The recorded lines parse as a trace (program/trace_text.h) or raise a
//     RecordingError naming one of them (replay --against-recorded reports
//     it at that line of the file); nothing else escapes.
// Seeds: corpus/**/*.prog; dictionary: fuzz/parser_fuzzer.dict (scripts/fuzz.sh).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "program/parser.h"
#include "program/printer.h"
#include "program/trace_text.h"

namespace {

[[noreturn]] void fail(const char* what, std::string_view input, const std::string& printed, const char* detail) {
  std::fprintf(stderr, "\n=== parser round trip: %s ===\n--- input ---\n%.*s\n--- printed ---\n%s\n%s\n", what,
               static_cast<int>(input.size()), input.data(), printed.c_str(), detail);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  sc::Program program;
  try {
    program = sc::parse_program(input, "<fuzz>");
  } catch (const sc::ParseError& e) {
    if (e.line < 0 || e.col < 0) fail("a ParseError without a position", input, "", e.what());
    return 0;
  }
  if (!program.recorded.empty()) {
    try {
      (void)sc::parse_recorded(program.recorded);
    } catch (const sc::RecordingError& e) {
      if (e.index < 0 || e.index >= static_cast<int>(program.recorded.size()))
        fail("a RecordingError without one of the recorded lines", input, "", e.what());
    }
  }
  const std::string printed = sc::print_program(program);
  sc::Program reparsed;
  try {
    reparsed = sc::parse_program(printed, "<printed>");
  } catch (const sc::ParseError& e) {
    fail("the printed program does not parse", input, printed, e.what());
  }
  if (!reparsed.same_as(program)) fail("the printed program parses to another program", input, printed, "");
  if (reparsed.recorded != program.recorded) fail("recorded lines changed", input, printed, "");
  const std::string again = sc::print_program(reparsed);
  if (again != printed) fail("printing is not a fixed point", input, printed, again.c_str());
  return 0;
}
