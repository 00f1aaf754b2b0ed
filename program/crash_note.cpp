#include "program/crash_note.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <unistd.h>

#include "program/signal_write.h"

namespace sc::crash_note {
namespace {

// Two buffers: set() fills the one the handler does not read, then flips
// `g_current`, so a signal during set() still finds a whole note.
std::string g_notes[2];
std::atomic<int> g_current{0};

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[sizeof kSignals / sizeof kSignals[0]];

void on_fatal_signal(int sig) {
  signal_write::Line<64>().put("\n").put(kMarker).put(" ").put_decimal(sig).put("\n").write_to(STDOUT_FILENO);
  signal_write::text(STDOUT_FILENO, g_notes[g_current.load(std::memory_order_acquire)]);
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
