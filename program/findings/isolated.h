#pragma once
// Runs a piece of work in a forked child with a wall-time limit, so a crash or
// a hang in LibTorch or the engine is a result, never the tool's end (replay,
// minimize, repro). The child writes where it is (backend and step) into a page
// shared across the fork before each step, so the parent can name the step a
// crash or a hang happened in.
#include <cstdint>
#include <functional>
#include <string>

namespace sc {

struct ChildProgress {
  char backend[64];
  int64_t step;  // -1 before the first step
  void set(const std::string& backend_name, size_t step_index);
};

struct ChildResult {
  enum class End { Reported, Crashed, TimedOut, Failed };
  End end = End::Failed;
  std::string report;    // Reported: what the work returned
  int signal = 0;        // Crashed: the signal, 0 when it exited with a status
  int exit_status = 0;   // Crashed without a signal
  std::string backend;   // Crashed/TimedOut: the backend running when it ended ("" before the first step)
  int64_t step = -1;     // Crashed/TimedOut: the step it was running
  std::string error;     // Failed: why no child ran (pipe, fork)
};

// `work` runs in the child; its result comes back through a pipe. The child
// never returns into the caller's code.
ChildResult run_isolated(const std::function<std::string(ChildProgress*)>& work, double timeout_s);

}  // namespace sc
