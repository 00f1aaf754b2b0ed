#pragma once
// Note [A report that survives a crash]
// A long run of programs (`generate --stats`) prints its report at the end; a
// fatal signal in a backend (LibTorch itself dies on some inputs: SIGFPE in
// index_select, SIGSEGV on a SymInt pointer) ended the process before that,
// and the whole run left nothing on stdout. With the note on, the run keeps a
// short text up to date (what ran so far, which program is running now); a
// fatal signal writes a header naming the signal and that text to stdout
// (write(2) only, async-signal-safe), then hands the signal to the handler
// that was installed before (the crash trail's, say) or to the default
// action, so the exit status still says what happened.
#include <string>

namespace sc::crash_note {

inline constexpr const char* kMarker = "# stridecheck: killed by signal";

// Installs the handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
void enable();
// Replaces the note. Called from one thread between the steps it describes;
// the handler reads the last complete note (two buffers, swapped).
void set(const std::string& text);

}  // namespace sc::crash_note
