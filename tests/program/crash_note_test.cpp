// Note [A report that survives a crash]: a fatal signal after crash_note::set
// writes the marker and the last note to stdout, passes the signal on to the
// handler installed before, and the process still dies of it.
#include "program/crash_note.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <string>

#include "program/crash_trail.h"
#include "tests/program/child_process_util.h"

namespace sc {
namespace {

using test::Died;
using test::run_child;

TEST(CrashNote, AFatalSignalWritesTheLastNoteAndStillKillsTheProcess) {
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE}) {
    const Died d = run_child([sig] {
      // The default action is the handler before ours: under ASan/UBSan the
      // sanitizer's SIGSEGV/SIGFPE handler would be, and it reports and exits 1.
      std::signal(sig, SIG_DFL);
      crash_note::enable();
      crash_note::set("programs so far: 3, running seed 7");
      crash_note::set("programs so far: 4, running seed 8");
      std::raise(sig);
    });
    EXPECT_EQ(d.signal, sig);
    EXPECT_NE(d.out.find(std::string(crash_note::kMarker) + " " + std::to_string(sig) +
                         "\nprograms so far: 4, running seed 8\n"),
              std::string::npos)
        << d.out;
    EXPECT_EQ(d.out.find("seed 7"), std::string::npos) << d.out;
  }
}

TEST(CrashNote, TheHandlerInstalledBeforeStillRuns) {
  const Died d = run_child([] {
    crash_trail::enable();
    crash_trail::set("a = zeros [2]");
    crash_note::enable();
    crash_note::set("running seed 5");
    std::raise(SIGSEGV);
  });
  EXPECT_EQ(d.signal, SIGSEGV);
  EXPECT_NE(d.out.find("running seed 5"), std::string::npos) << d.out;
  EXPECT_NE(d.err.find(crash_trail::kMarker), std::string::npos) << d.err;
}

TEST(CrashNote, WithoutEnableNothingIsWritten) {
  const Died d = run_child([] {
    crash_note::set("running seed 5");
    std::signal(SIGABRT, SIG_DFL);
    std::raise(SIGABRT);
  });
  EXPECT_EQ(d.signal, SIGABRT);
  EXPECT_EQ(d.out, "");
}

}  // namespace
}  // namespace sc
