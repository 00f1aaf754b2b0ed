#include "program/value_draws.h"

#include <limits>

namespace sc::value_draws {

namespace {

using engine::DType;

template <class T, size_t N>
T one_of(Choices& c, const T (&v)[N]) {
  return v[c.below(static_cast<uint32_t>(N))];
}

// Values halfway between two neighbours at a reduced precision: round to
// nearest even goes one way, truncation or round-half-up the other.
constexpr double kHalfTies[] = {1.00048828125,  // 1 + 2^-11: float16 rounds to 1
                                1.00146484375,  // 1 + 3 * 2^-11: to 1 + 2^-9
                                -1.00048828125, 2049.0, 2051.0,
                                2.98023223876953125e-08,  // 2^-25: half the smallest subnormal, to 0
                                8.940696716308594e-08,    // 3 * 2^-25: to 2^-23
                                65520.0};                 // halfway to 2^16: to inf
constexpr double kBFloat16Ties[] = {1.00390625,  // 1 + 2^-8: bfloat16 rounds to 1
                                    1.01171875,  // 1 + 3 * 2^-8: to 1 + 2^-6
                                    -1.00390625, 257.0, 259.0, 3.3961775292304e38};  // the last: to inf
constexpr double kFloat32Ties[] = {16777217.0, 1.0000000596046448, 3.4028235677973366e38};

}  // namespace

double rounding_tie(Choices& c) {
  switch (c.below(3)) {
    case 0: return one_of(c, kHalfTies);
    case 1: return one_of(c, kBFloat16Ties);
    default: return one_of(c, kFloat32Ties);
  }
}

double finite_limit(Choices& c, DType d) {
  double v;
  const uint32_t which = c.below(3);  // 0: smallest subnormal, 1: smallest normal, 2: largest finite
  switch (d) {
    case DType::Float16: v = which == 0 ? 5.960464477539063e-08 : which == 1 ? 6.103515625e-05 : 65504.0; break;
    case DType::BFloat16:
      v = which == 0 ? 9.183549615799121e-41 : which == 1 ? 1.1754943508222875e-38 : 3.3895313892515355e38;
      break;
    case DType::Float64:
      v = which == 0 ? 4.9406564584124654e-324 : which == 1 ? 2.2250738585072014e-308 : 1.7976931348623157e308;
      break;
    default: v = which == 0 ? 1.401298464324817e-45 : which == 1 ? 1.1754943508222875e-38 : 3.4028234663852886e38;
  }
  return c.percent(30) ? -v : v;
}

double special_float(Choices& c, DType d) {
  const double inf = std::numeric_limits<double>::infinity();
  switch (c.below(10)) {
    case 0:
    case 1: return std::numeric_limits<double>::quiet_NaN();
    case 2: return c.percent(50) ? inf : -inf;
    case 3: return c.percent(70) ? -0.0 : 0.0;
    case 4:
    case 5: return finite_limit(c, d);
    case 6:
    case 7: return rounding_tie(c);
    default: {
      constexpr double plain[] = {1.0, -2.5, 0.5, 3.0, -1.0};
      return one_of(c, plain);
    }
  }
}

int64_t special_bits(Choices& c, DType d) {
  switch (d) {
    case DType::Float16: {
      constexpr uint16_t v[] = {0x7c01, 0x7d00, 0x7e00, 0x7e01, 0x7fff, 0xfc01, 0xfe00, 0xffff,  // NaNs
                                0x7c00, 0xfc00, 0x8000, 0x0001, 0x7bff, 0x3c00};
      return static_cast<int16_t>(one_of(c, v));
    }
    case DType::BFloat16: {
      constexpr uint16_t v[] = {0x7f81, 0x7fa0, 0x7fc0, 0x7fc1, 0x7fff, 0xff81, 0xffc0, 0xffff,  // NaNs
                                0x7f80, 0xff80, 0x8000, 0x0001, 0x7f7f, 0x3f80};
      return static_cast<int16_t>(one_of(c, v));
    }
    case DType::Float64: {
      constexpr uint64_t v[] = {0x7ff0000000000001, 0x7ff4000000000000, 0x7ff8000000000000, 0x7ff8000000000001,
                                0x7fffffffffffffff, 0xfff0000000000001, 0xfff8000000000000, 0xffffffffffffffff,
                                0x7ff8000020000000,  // a payload bit that survives the conversion to float32
                                0x7ff0000000000000, 0xfff0000000000000, 0x8000000000000000, 0x0000000000000001,
                                0x7fefffffffffffff, 0x3ff0000000000000};
      return static_cast<int64_t>(one_of(c, v));
    }
    default: {  // float32
      constexpr uint32_t v[] = {0x7f800001, 0x7fa00000, 0x7fc00000, 0x7fc00001, 0x7fffffff, 0xff800001,
                                0xffc00000, 0xffffffff,
                                0x7f802000,  // a signalling payload that float16's conversion keeps (>> 13)
                                0x7fc02000, 0x7f800000, 0xff800000, 0x80000000, 0x00000001, 0x7f7fffff, 0x3f800000};
      return static_cast<int32_t>(one_of(c, v));
    }
  }
}

DType bits_dtype(DType d) {
  switch (engine::itemsize(d)) {
    case 1: return DType::Int8;
    case 2: return DType::Int16;
    case 4: return DType::Int32;
    default: return DType::Int64;
  }
}

int64_t boundary_length(Choices& c) {
  constexpr int64_t near[] = {31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 191, 192, 193, 255, 256, 257, 320, 511, 513};
  if (c.percent(60)) return one_of(c, near);
  return c.between(65, 1100);
}

}  // namespace sc::value_draws
