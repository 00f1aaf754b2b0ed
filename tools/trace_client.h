#pragma once
// The client side of `stridecheck serve` (tools/serve.cpp): a server process
// (any stridecheck binary, e.g. one built against another LibTorch version)
// that runs programs on one backend and answers with recorded traces. A
// server that crashes or hangs on a program is killed and reported; the next
// program starts a fresh one, so one LibTorch crash never ends a campaign.
#include <sys/types.h>

#include <cstdint>
#include <string>

namespace sc::tool {

struct ServedTrace {
  enum class Kind { Trace, Error, Crashed, Timeout } kind = Kind::Error;
  std::string body;  // Trace: the `#>` lines; otherwise the reason, one line
};
std::string_view served_kind_name(ServedTrace::Kind);  // "trace", "error", "crashed", "timeout"

class TraceServer {
 public:
  TraceServer(std::string binary, std::string backend, int64_t budget_bytes);
  ~TraceServer();
  TraceServer(const TraceServer&) = delete;
  TraceServer& operator=(const TraceServer&) = delete;

  // Sends a program (starting the server when none runs). Then receive() its
  // answer; sending to two servers before receiving lets both run at once.
  // With `contents`, the answer also has "#= <step> <storage> <hex>" lines.
  void send(const std::string& program_text, bool contents = false);
  ServedTrace receive(double timeout_s);

  const std::string& backend() const { return backend_; }
  const std::string& binary() const { return binary_; }

 private:
  void start();
  void stop(bool kill_it);  // closes the pipes and reaps the process
  std::string reap_reason();

  std::string binary_, backend_;
  int64_t budget_;
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string pending_;    // bytes read past the last answer
  std::string send_error_; // set when the request could not be written
};

}  // namespace sc::tool
