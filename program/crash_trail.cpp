#include "program/crash_trail.h"

#include <csignal>
#include <cstring>
#include <unistd.h>

namespace sc::crash_trail {
namespace {

std::string g_trail;          // written before each engine step, read only by the handler
volatile sig_atomic_t g_on = 0;

void write_all(const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void on_fatal_signal(int sig) {
  char line[96];
  size_t n = 0;
  auto put = [&](const char* s) {
    for (; *s && n < sizeof line; ++s) line[n++] = *s;
  };
  put("\n");
  put(kMarker);
  put(" (signal ");
  char digits[12];
  int d = 0;
  for (int v = sig; d == 0 || v > 0; v /= 10) digits[d++] = static_cast<char>('0' + v % 10);
  while (d > 0 && n < sizeof line) line[n++] = digits[--d];
  put("): the program so far, its last step running\n");
  write_all(line, n);
  write_all(g_trail.data(), g_trail.size());
  if (g_trail.empty() || g_trail.back() != '\n') write_all("\n", 1);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

void enable() {
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
  g_on = 1;
}

bool enabled() { return g_on != 0; }

void set(std::string text) { g_trail = std::move(text); }

}  // namespace sc::crash_trail
