#include "tools/trace_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace sc::tool {

std::string_view served_kind_name(ServedTrace::Kind k) {
  switch (k) {
    case ServedTrace::Kind::Trace: return "trace";
    case ServedTrace::Kind::Error: return "error";
    case ServedTrace::Kind::Crashed: return "crashed";
    case ServedTrace::Kind::Timeout: return "timeout";
  }
  return "?";
}

TraceServer::TraceServer(std::string binary, std::string backend, int64_t budget_bytes)
    : binary_(std::move(binary)), backend_(std::move(backend)), budget_(budget_bytes) {}

TraceServer::~TraceServer() { stop(/*kill_it=*/false); }

void TraceServer::start() {
  int in[2], out[2];  // in: parent -> server stdin; out: server stdout -> parent
  if (pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  std::string budget = std::to_string(budget_);
  std::vector<const char*> argv = {binary_.c_str(), "serve", "--backend", backend_.c_str(), "--budget", budget.c_str(),
                                   nullptr};
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    execv(binary_.c_str(), const_cast<char* const*>(argv.data()));
    std::fprintf(stderr, "stridecheck: cannot run %s: %s\n", binary_.c_str(), std::strerror(errno));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  pid_ = pid;
  to_ = in[1];
  from_ = out[0];
  pending_.clear();
}

void TraceServer::stop(bool kill_it) {
  if (to_ >= 0) close(to_);
  if (from_ >= 0) close(from_);
  to_ = from_ = -1;
  if (pid_ > 0) {
    if (kill_it) kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = -1;
}

std::string TraceServer::reap_reason() {
  if (to_ >= 0) close(to_);
  if (from_ >= 0) close(from_);
  to_ = from_ = -1;
  int status = 0;
  while (pid_ > 0 && waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

void TraceServer::send(const std::string& text, bool contents) {
  send_error_.clear();
  if (pid_ < 0) start();
  std::string frame = (contents ? "contents " : "program ") + std::to_string(text.size()) + "\n" + text;
  const char* p = frame.data();
  size_t left = frame.size();
  while (left > 0) {
    ssize_t w = write(to_, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      send_error_ = std::string("write to the server: ") + std::strerror(errno);
      return;
    }
    p += w;
    left -= static_cast<size_t>(w);
  }
}

ServedTrace TraceServer::receive(double timeout_s) {
  // The server died before it read the whole request: how it ended is the
  // reason (the write error, EPIPE, only says that it is gone).
  if (!send_error_.empty()) return {ServedTrace::Kind::Crashed, reap_reason()};
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  // The frame: "<kind> <n>\n" then n bytes.
  std::string kind;
  size_t need = 0;
  bool have_header = false;
  char buf[65536];
  while (true) {
    if (!have_header) {
      size_t nl = pending_.find('\n');
      if (nl != std::string::npos) {
        std::string header = pending_.substr(0, nl);
        size_t sp = header.find(' ');
        kind = header.substr(0, sp);
        if (sp == std::string::npos || std::sscanf(header.c_str() + sp + 1, "%zu", &need) != 1 ||
            (kind != "trace" && kind != "error")) {
          stop(/*kill_it=*/true);
          return {ServedTrace::Kind::Error, "unexpected answer from the server: '" + header.substr(0, 80) + "'"};
        }
        pending_.erase(0, nl + 1);
        have_header = true;
      }
    }
    if (have_header && pending_.size() >= need) {
      std::string body = pending_.substr(0, need);
      pending_.erase(0, need);
      if (kind == "error" && !body.empty() && body.back() == '\n') body.pop_back();
      return {kind == "trace" ? ServedTrace::Kind::Trace : ServedTrace::Kind::Error, body};
    }
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      stop(/*kill_it=*/true);
      char t[64];
      std::snprintf(t, sizeof t, "%g", timeout_s);
      return {ServedTrace::Kind::Timeout, std::string("no answer after ") + t + " s; killed"};
    }
    int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
    pollfd pfd{from_, POLLIN, 0};
    int r = poll(&pfd, 1, ms);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t n = read(from_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return {ServedTrace::Kind::Crashed, reap_reason()};
    pending_.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace sc::tool
