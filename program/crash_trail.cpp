#include "program/crash_trail.h"

#include <csignal>
#include <cstring>
#include <unistd.h>

#include "program/signal_write.h"

namespace sc::crash_trail {
namespace {

std::string g_trail;          // written before each engine step, read only by the handler
volatile sig_atomic_t g_on = 0;

void on_fatal_signal(int sig) {
  signal_write::Line<96>()
      .put("\n")
      .put(kMarker)
      .put(" (signal ")
      .put_decimal(sig)
      .put("): the program so far, its last step running\n")
      .write_to(STDERR_FILENO);
  signal_write::text(STDERR_FILENO, g_trail);
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
