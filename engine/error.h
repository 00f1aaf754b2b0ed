#pragma once
// Two error channels (STYLE lesson 4): user-facing errors carry LibTorch's
// kind and message (TorchError); broken invariants are assertions (SC_ASSERT).
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sc::engine {

// The Python exception class a c10 exception turns into.
enum class ErrorKind { RuntimeError, IndexError, ValueError, TypeError, NotImplementedError };
std::string_view error_kind_name(ErrorKind);

struct TorchError : std::exception {
  TorchError(ErrorKind k, std::string m) : kind(k), message(std::move(m)) {}
  const char* what() const noexcept override { return message.c_str(); }
  ErrorKind kind;
  std::string message;
};

// A backend declines to run a step that would crash it or corrupt its memory
// (a known LibTorch bug): the step is reported as refused, never as passed.
struct StepRefused : std::exception {
  explicit StepRefused(std::string m) : message(std::move(m)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};

// A step would allocate past the configured budget: it is not run (DESIGN.md, Limits).
struct BudgetExceeded : std::exception {
  explicit BudgetExceeded(std::string m) : message(std::move(m)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};

template <class... Args>
std::string str_cat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

template <class... Args>
[[noreturn]] void raise(ErrorKind kind, const Args&... args) {
  throw TorchError(kind, str_cat(args...));
}

// TORCH_CHECK: a RuntimeError with LibTorch's message when cond is false.
#define SC_CHECK(cond, ...)                                                      \
  do {                                                                           \
    if (!(cond)) ::sc::engine::raise(::sc::engine::ErrorKind::RuntimeError, __VA_ARGS__); \
  } while (false)
#define SC_CHECK_KIND(cond, kind, ...)                                           \
  do {                                                                           \
    if (!(cond)) ::sc::engine::raise(::sc::engine::ErrorKind::kind, __VA_ARGS__); \
  } while (false)

[[noreturn]] void assertion_failed(const char* cond, const char* file, int line, const std::string& msg);
#define SC_ASSERT(cond, ...)                                                     \
  do {                                                                           \
    if (!(cond))                                                                 \
      ::sc::engine::assertion_failed(#cond, __FILE__, __LINE__, ::sc::engine::str_cat("" __VA_OPT__(, ) __VA_ARGS__)); \
  } while (false)

}  // namespace sc::engine
