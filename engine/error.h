#pragma once
// Two error channels (STYLE lesson 4): user-facing errors carry LibTorch's
// kind and message (TorchError); broken invariants are assertions (SC_ASSERT).
#include <charconv>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

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

// Note [error messages without ostringstream]: str_cat builds every
// TorchError's message, and a generated program raises in about one step in
// six; an ostringstream (locale, sentry, buffer) cost more than the text.
// Pieces are appended as `os << piece` would print them with default flags:
// strings and characters as text (int8_t/uint8_t are characters to an
// ostream), bool as 1/0, other integers in decimal (std::to_chars: the same
// digits as num_put in the "C" locale). Anything else (floating point,
// enums with their own operator<<) still goes through an ostringstream.
namespace detail {
template <class T>
void append_piece(std::string& out, const T& v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_array_v<T> && (std::is_same_v<D, const char*> || std::is_same_v<D, char*>)) {
    out.append(v);  // a literal or char buffer: printed up to its NUL, as an ostream does
  } else if constexpr (std::is_same_v<D, const char*> || std::is_same_v<D, char*>) {
    if (v) out.append(v);  // an ostream prints nothing for a null pointer
  } else if constexpr (std::is_same_v<D, std::string> || std::is_same_v<D, std::string_view>) {
    out.append(v);
  } else if constexpr (std::is_same_v<D, char> || std::is_same_v<D, signed char> ||
                       std::is_same_v<D, unsigned char>) {
    out.push_back(static_cast<char>(v));
  } else if constexpr (std::is_same_v<D, bool>) {
    out.push_back(v ? '1' : '0');
  } else if constexpr (std::is_integral_v<D> && (sizeof(D) <= sizeof(long long))) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  } else {
    std::ostringstream os;
    os << v;
    out.append(os.str());
  }
}
}  // namespace detail

template <class... Args>
std::string str_cat(const Args&... args) {
  std::string out;
  out.reserve(96);
  (detail::append_piece(out, args), ...);
  return out;
}

// Inlined where the check fails: the throw leaves from the checking
// function's own frame, one frame fewer for the unwinder to walk (twice:
// search and cleanup) on every error (Note [error messages without ostringstream]).
template <class... Args>
[[noreturn]] [[gnu::always_inline]] inline void raise(ErrorKind kind, const Args&... args) {
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
