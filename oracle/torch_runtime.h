#pragma once
// LibTorch's process-wide settings for the oracle, its errors and its warnings.
//
// - Errors: a c10::Error captures a C++ backtrace when it is built (~4.6 ms
//   each, DESIGN.md "Oracle"); the oracle installs an empty stack-trace fetcher
//   once. Each error becomes an engine::TorchError with the Python exception
//   kind LibTorch would raise and its message without backtrace.
// - Warnings: TORCH_WARN_ONCE becomes TORCH_WARN (warn_always), because the
//   engine warns every time; a step's warnings are collected by a handler that
//   is installed for the duration of the step (the handler is thread-local in
//   c10, so it is installed around each step, on the thread that runs it).
//
// The c10 warning API changed in LibTorch 2.x (c10::Warning became a class,
// the free functions moved to c10::WarningUtils, WarningHandler::process takes
// a Warning); the new API comes with TORCH_WARN_DEPRECATION, which is what
// selects the branch below, so any LibTorch found through CMAKE_PREFIX_PATH builds.
#include <c10/util/Exception.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace sc::oracle {

#ifdef TORCH_WARN_DEPRECATION
#define SC_TORCH_WARNING_API_V2 1
namespace c10_warning = ::c10::WarningUtils;
#else
#define SC_TORCH_WARNING_API_V2 0
namespace c10_warning = ::c10::Warning;
#endif

// Idempotent; cheap after the first call (a function-local static).
void ensure_torch_runtime();

// "msg\nException raised from f at file:line (most recent call first):\n..." -> "msg":
// drops the first line that starts with "Exception raised from" and everything
// after it, then trailing whitespace; a leading source location
// "<file>.cpp:<line>: " (or .h) is dropped too.
std::string clean_error_message(std::string_view what);

// A caught exception as a TorchError:
//   c10::IndexError -> IndexError, c10::ValueError -> ValueError,
//   c10::TypeError -> TypeError, c10::NotImplementedError -> NotImplementedError,
//   any other c10::Error or std::exception (LibTorch 1.13 throws plain
//   std::runtime_error from some shape inference) -> RuntimeError;
//   a TorchError is itself.
engine::TorchError as_torch_error(const c10::Error&);
engine::TorchError as_torch_error(const std::exception&);

// Call inside a catch block: the exception being handled as a TorchError
// (as_torch_error); an engine::StepRefused is rethrown.
engine::TorchError current_exception_as_torch_error();

// Collects the message of every warning raised on this thread while it lives.
class WarningCapture : public ::c10::WarningHandler {
 public:
  explicit WarningCapture(std::vector<std::string>& sink)
      : sink_(sink), previous_(c10_warning::get_warning_handler()) {
    c10_warning::set_warning_handler(this);
  }
  ~WarningCapture() override { c10_warning::set_warning_handler(previous_); }
  WarningCapture(const WarningCapture&) = delete;
  WarningCapture& operator=(const WarningCapture&) = delete;

#if SC_TORCH_WARNING_API_V2
  void process(const ::c10::Warning& warning) override { sink_.push_back(warning.msg()); }
#else
  void process(const ::c10::SourceLocation&, const std::string& msg, const bool) override {
    sink_.push_back(msg);
  }
#endif

 private:
  std::vector<std::string>& sink_;
  ::c10::WarningHandler* previous_;
};

}  // namespace sc::oracle
