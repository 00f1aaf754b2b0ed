// Note [The crash trail]: a fatal signal after crash_trail::set writes the
// marker and the trail to stderr, then the process still dies of the signal.
#include "program/crash_trail.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <string>

#include "tests/program/child_process_util.h"

namespace sc {
namespace {

using test::Died;
using test::run_child;

TEST(CrashTrail, AFatalSignalWritesTheTrailAndStillKillsTheProcess) {
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE}) {
    const Died d = run_child([sig] {
      crash_trail::enable();
      crash_trail::set("a = zeros [2,1]\ndiagonal a -1");
      std::raise(sig);
    });
    EXPECT_EQ(d.signal, sig);
    const std::string head = std::string(crash_trail::kMarker) + " (signal " + std::to_string(sig) + ")";
    EXPECT_NE(d.err.find(head), std::string::npos) << d.err;
    EXPECT_NE(d.err.find("\na = zeros [2,1]\ndiagonal a -1\n"), std::string::npos) << d.err;
  }
}

TEST(CrashTrail, WithoutEnableNothingIsWritten) {
  const Died d = run_child([] {
    crash_trail::set("a = zeros [2]");
    std::signal(SIGABRT, SIG_DFL);
    std::raise(SIGABRT);
  });
  EXPECT_EQ(d.signal, SIGABRT);
  EXPECT_EQ(d.err.find(crash_trail::kMarker), std::string::npos) << d.err;
  EXPECT_FALSE(crash_trail::enabled());
}

}  // namespace
}  // namespace sc
