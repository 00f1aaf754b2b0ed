// Note [A report that survives a crash]: a fatal signal after crash_note::set
// writes the marker and the last note to stdout, passes the signal on to the
// handler installed before, and the process still dies of it.
#include "program/crash_note.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <string>

#include "program/crash_trail.h"

namespace sc {
namespace {

struct Died {
  int signal = 0;
  std::string out, err;
};

std::string drain(int fd) {
  std::string s;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<size_t>(n));
  close(fd);
  return s;
}

// Runs `body` in a child whose stdout and stderr are captured (small outputs:
// the pipes are read after the child ends).
template <class F>
Died run_child(F body) {
  int out[2], err[2];
  EXPECT_EQ(pipe(out), 0);
  EXPECT_EQ(pipe(err), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    close(out[0]);
    close(err[0]);
    body();
    _exit(0);
  }
  close(out[1]);
  close(err[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  Died d;
  d.out = drain(out[0]);
  d.err = drain(err[0]);
  if (WIFSIGNALED(status)) d.signal = WTERMSIG(status);
  return d;
}

TEST(CrashNote, AFatalSignalWritesTheLastNoteAndStillKillsTheProcess) {
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE}) {
    const Died d = run_child([sig] {
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
