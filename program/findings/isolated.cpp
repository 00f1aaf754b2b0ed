#include "program/findings/isolated.h"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace sc {

void ChildProgress::set(const std::string& backend_name, size_t step_index) {
  std::snprintf(backend, sizeof backend, "%s", backend_name.c_str());
  step = static_cast<int64_t>(step_index);
}

namespace {

[[noreturn]] void child_main(int fd, const std::function<std::string(ChildProgress*)>& work, ChildProgress* progress) {
  std::string out;
  try {
    out = work(progress);
  } catch (...) {
    out.clear();  // `work` reports its own errors; an escaped one is an incomplete report
    _exit(3);
  }
  const char* p = out.data();
  size_t left = out.size();
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    p += w;
    left -= static_cast<size_t>(w);
  }
  close(fd);
  std::fflush(nullptr);
  _exit(0);
}

}  // namespace

ChildResult run_isolated(const std::function<std::string(ChildProgress*)>& work, double timeout_s) {
  ChildResult r;
  int fds[2];
  if (pipe(fds) != 0) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  void* shared = mmap(nullptr, sizeof(ChildProgress), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ChildProgress* progress = shared == MAP_FAILED ? nullptr : static_cast<ChildProgress*>(shared);
  if (progress) {
    progress->backend[0] = '\0';
    progress->step = -1;
  }
  struct Unmap {
    ChildProgress* p;
    ~Unmap() {
      if (p) munmap(p, sizeof(ChildProgress));
    }
  } unmap{progress};
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    r.error = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    child_main(fds[1], work, progress);
  }
  close(fds[1]);
  std::string data;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool timed_out = false;
  char buf[65536];
  while (true) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
    pollfd pfd{fds[0], POLLIN, 0};
    int n = poll(&pfd, 1, ms);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;  // timeout: the loop checks the deadline
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // EOF: the child closed its end (finished or died)
    data.append(buf, static_cast<size_t>(got));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (progress && progress->step >= 0) {
    r.backend = progress->backend;
    r.step = progress->step;
  }
  if (timed_out) {
    r.end = ChildResult::End::TimedOut;
  } else if (WIFSIGNALED(status)) {
    r.end = ChildResult::End::Crashed;
    r.signal = WTERMSIG(status);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    r.end = ChildResult::End::Crashed;
    r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  } else {
    r.end = ChildResult::End::Reported;
    r.report = std::move(data);
  }
  return r;
}

}  // namespace sc
