#pragma once
// Note [The crash trail]
// The generator runs each step on the engine to learn its results' headers
// (generator.cpp, emit), so an engine that crashes on a step takes the tool
// that generates with it, and no program is printed: `generate --seed S` and
// `decode INPUT` could not turn a crashing seed or fuzzer input into a program
// (scripts/fuzz.sh reported only "crash while generating seed S" or "decode
// failed"). With the trail on, the generator keeps the text of the program so
// far plus the step about to run on the engine; a fatal signal writes it to
// stderr after kMarker (write(2) only, which is async-signal-safe) and then
// raises the signal again with its default action, so the exit status still
// says what happened. The text is a program that runs the crashing step last.
#include <string>

namespace sc::crash_trail {

inline constexpr const char* kMarker = "# stridecheck crash trail";

// Installs the handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
void enable();
bool enabled();
// Replaces the trail (the generator calls it before each engine step).
void set(std::string text);

}  // namespace sc::crash_trail
