#pragma once
// Note [errors returned, not thrown]: a generated program raises in about
// one step in six, and a C++ throw costs the engine ~15k instructions
// (callgrind, issue 10): the unwinder walks every frame between the check
// and EngineTraits::apply twice, and each frame holding a Shape or a Tensor
// adds a landing pad and an _Unwind_Resume. The ops that raise most often in
// generated programs therefore have a `_checked` form that returns the error
// as a value (Checked<T>: the result or the Failure); the program's op table
// calls those forms, so their common errors never unwind. The throwing form
// is the checked one followed by value_or_throw(): one body, so the checks,
// their order and the messages are the same in both.
//
// Inside a checked function:
//   SC_CHECK_OR_RETURN(cond, pieces...)            SC_CHECK's RuntimeError
//   SC_CHECK_KIND_OR_RETURN(cond, Kind, pieces...)  SC_CHECK_KIND's error
//   SC_TRY(expr)              expr is a MaybeFailure: returned when set
//   SC_TRY_ASSIGN(lhs, expr)  expr is a Checked<T>: its failure is returned,
//                             else lhs = its value
// Callees that still throw may be called as before: their TorchError
// propagates as an exception (caught by the op table's caller as always).
#include <optional>
#include <utility>
#include <variant>

#include "engine/error.h"

namespace sc::engine {

// LibTorch throws two of at::infer_size's messages as a plain
// std::runtime_error rather than a c10::Error ("only one dimension can be
// inferred", "shape ... is invalid"); unflatten catches exactly those, so
// they carry this type.
struct PlainRuntimeError : TorchError {
  explicit PlainRuntimeError(std::string m) : TorchError(ErrorKind::RuntimeError, std::move(m)) {}
};

// The error a raising function would have thrown. `plain`: it would have
// been a PlainRuntimeError.
struct Failure {
  TorchError error;
  bool plain = false;
};
using MaybeFailure = std::optional<Failure>;

template <class... Args>
Failure fail(ErrorKind kind, const Args&... args) {
  return Failure{TorchError(kind, str_cat(args...)), false};
}
template <class... Args>
Failure fail_plain(const Args&... args) {
  return Failure{TorchError(ErrorKind::RuntimeError, str_cat(args...)), true};
}

// Throws the failure as the raising function would have: inlined where the
// checked call returns, so the throw leaves from that frame
// (Note [error messages without ostringstream]).
[[noreturn]] [[gnu::always_inline]] inline void throw_failure(Failure&& f) {
  if (f.plain) throw PlainRuntimeError(std::move(f.error.message));
  throw std::move(f.error);
}
[[gnu::always_inline]] inline void throw_if(MaybeFailure&& f) {
  if (f) [[unlikely]] throw_failure(std::move(*f));
}

template <class T>
class [[nodiscard]] Checked {
 public:
  Checked(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Checked(Failure failure) : v_(std::in_place_index<1>, std::move(failure)) {}
  bool ok() const { return v_.index() == 0; }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  Failure&& failure() && { return std::get<1>(std::move(v_)); }
  const Failure& failure() const& { return std::get<1>(v_); }
  [[gnu::always_inline]] T value_or_throw() && {
    if (!ok()) [[unlikely]] throw_failure(std::get<1>(std::move(v_)));
    return std::get<0>(std::move(v_));
  }

 private:
  std::variant<T, Failure> v_;
};

}  // namespace sc::engine

#define SC_CHECK_OR_RETURN(cond, ...)                                                         \
  do {                                                                                        \
    if (!(cond)) [[unlikely]]                                                                 \
      return ::sc::engine::fail(::sc::engine::ErrorKind::RuntimeError, __VA_ARGS__);          \
  } while (false)
#define SC_CHECK_KIND_OR_RETURN(cond, kind, ...)                                              \
  do {                                                                                        \
    if (!(cond)) [[unlikely]]                                                                 \
      return ::sc::engine::fail(::sc::engine::ErrorKind::kind, __VA_ARGS__);                  \
  } while (false)
#define SC_TRY(expr)                                                                          \
  do {                                                                                        \
    if (::sc::engine::MaybeFailure sc_try_failure_ = (expr)) [[unlikely]]                     \
      return std::move(*sc_try_failure_);                                                     \
  } while (false)
#define SC_TRY_ASSIGN(lhs, expr)                                                              \
  do {                                                                                        \
    auto sc_try_checked_ = (expr);                                                            \
    if (!sc_try_checked_.ok()) [[unlikely]]                                                   \
      return std::move(sc_try_checked_).failure();                                            \
    lhs = std::move(sc_try_checked_).value();                                                 \
  } while (false)
