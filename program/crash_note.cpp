#include "program/crash_note.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace sc::crash_note {
namespace {

// Two buffers: set() fills the one the handler does not read, then flips
// `g_current`, so a signal during set() still finds a whole note.
std::string g_notes[2];
std::atomic<int> g_current{0};

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[sizeof kSignals / sizeof kSignals[0]];

void write_all(const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(STDOUT_FILENO, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void on_fatal_signal(int sig) {
  char line[64];
  size_t n = 0;
  auto put = [&](const char* s) {
    for (; *s && n < sizeof line; ++s) line[n++] = *s;
  };
  put("\n");
  put(kMarker);
  put(" ");
  char digits[12];
  int d = 0;
  for (int v = sig; d == 0 || v > 0; v /= 10) digits[d++] = static_cast<char>('0' + v % 10);
  while (d > 0 && n < sizeof line) line[n++] = digits[--d];
  put("\n");
  write_all(line, n);
  const std::string& note = g_notes[g_current.load(std::memory_order_acquire)];
  write_all(note.data(), note.size());
  if (note.empty() || note.back() != '\n') write_all("\n", 1);
  // The handler installed before ours (or the default action) gets the signal.
  for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
    if (kSignals[i] == sig) sigaction(sig, &g_previous[i], nullptr);
  std::raise(sig);
}

}  // namespace

void enable() {
  for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(kSignals[i], &sa, &g_previous[i]);
  }
}

void set(const std::string& text) {
  const int next = 1 - g_current.load(std::memory_order_relaxed);
  g_notes[next] = text;
  g_current.store(next, std::memory_order_release);
}

}  // namespace sc::crash_note
