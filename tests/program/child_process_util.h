#pragma once
// Runs a test body in a forked child and captures how it died: the signal
// and its stdout and stderr (small outputs: the pipes are read after the
// child ends). The crash trail's and the crash note's tests raise fatal
// signals there.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace sc::test {

struct Died {
  int signal = 0;
  std::string out, err;
};

inline std::string drain(int fd) {
  std::string s;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<size_t>(n));
  close(fd);
  return s;
}

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

}  // namespace sc::test
