// Note [The crash trail]: a fatal signal after crash_trail::set writes the
// marker and the trail to stderr, then the process still dies of the signal.
#include "program/crash_trail.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <string>

namespace sc {
namespace {

struct Died {
  int signal = 0;
  std::string err;
};

// Runs `body` in a child whose stderr is captured.
template <class F>
Died run_child(F body) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    body();
    _exit(0);
  }
  close(fds[1]);
  Died d;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) d.err.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) d.signal = WTERMSIG(status);
  return d;
}

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
