#pragma once
// Reading and writing one element of any dtype, with LibTorch's conversions
// (c10::convert / static_cast semantics: float -> int truncates toward zero,
// anything -> bool is != 0, float -> half/bfloat16 rounds to nearest even).
#include <cstddef>
#include <cstdint>

#include "engine/dtype.h"

namespace sc::engine {

// A LibTorch Scalar: an integer, a floating value or a bool.
struct Scalar {
  enum class Kind : uint8_t { Int, Float, Bool } kind = Kind::Int;
  int64_t i = 0;
  double f = 0.0;
  static Scalar integer(int64_t v) { return {Kind::Int, v, 0.0}; }
  static Scalar floating(double v) { return {Kind::Float, 0, v}; }
  static Scalar boolean(bool v) { return {Kind::Bool, v ? 1 : 0, 0.0}; }
  bool is_floating() const { return kind == Kind::Float; }
  bool is_integral() const { return kind == Kind::Int; }
  bool is_bool() const { return kind == Kind::Bool; }
  double to_double() const { return kind == Kind::Float ? f : static_cast<double>(i); }
};

void store_double(DType, std::byte* p, double v);
void store_int(DType, std::byte* p, int64_t v);
void store_scalar(DType, std::byte* p, const Scalar& s);
double load_double(DType, const std::byte* p);
int64_t load_int(DType, const std::byte* p);

}  // namespace sc::engine
