#pragma once
// Typed elements for the CPU kernels: the C++ type behind each DType, the
// per-element conversions LibTorch's kernels perform (c10::convert, i.e.
// static_cast as compiled for x86-64, or for the GPU where nvcc compiles this
// header into engine/kernels/cuda: SC_HOST_DEVICE), the "opmath" type
// arithmetic runs in, and a dispatch from a runtime DType to a typed callable.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "engine/dtype.h"
#include "engine/half.h"
#include "engine/host_device.h"

namespace sc::engine::cpu {

struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

template <class T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// at::opmath_type: float for float16/bfloat16, the type itself otherwise.
template <class T>
using opmath_t = std::conditional_t<is_reduced_float_v<T>, float, T>;

SC_HOST_DEVICE inline float to_float(Half h) { return half_to_float(h.bits); }
SC_HOST_DEVICE inline float to_float(BFloat16 b) { return bfloat16_to_float(b.bits); }

// float/double -> integer as x86-64 compiles static_cast: targets narrower
// than 64 bits go through a 32-bit cvtt (NaN and out-of-range give INT32_MIN,
// then the low bits are kept); 64-bit targets through a 64-bit cvtt (INT64_MIN).
// uint8 goes through int64 (c10's static_cast_with_inter_type<uint8_t>, on
// the CPU too): 2^53 + 2 -> uint8 is 2, not INT32_MIN's low byte 0
// (generated seed 2150230, 1.13 and 2.15).
// Measured with LibTorch 1.13: float 300 -> int8 44, NaN -> int8 0, 1e10 -> int32 INT32_MIN.
template <class I, class F>
SC_HOST_DEVICE inline I float_to_int_x86(F v) {
  const double d = static_cast<double>(v);
  if constexpr (sizeof(I) == 8 || std::is_same_v<I, uint8_t>) {
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
      return static_cast<I>(INT64_MIN);
    return static_cast<I>(static_cast<int64_t>(d));
  } else {
    if (!(d >= -2147483648.0 && d < 2147483648.0))
      return static_cast<I>(INT32_MIN);
    return static_cast<I>(static_cast<int32_t>(d));
  }
}

// Note [float to integer on CUDA]: nvcc compiles the same static_cast to a
// saturating cvt.rzi: targets narrower than 64 bits go through a 32-bit cvt
// (NaN gives 0, out-of-range values clamp to INT32_MIN/INT32_MAX, then the
// low bits are kept: 1e10 -> int8 is -1, where x86-64 gives 0), 64-bit targets
// through a 64-bit cvt; uint8 goes through int64 (c10's
// static_cast_with_inter_type<uint8_t>). Checked against nvcc 13's PTX for
// sm_90; written out here so the host can test it.
template <class I, class F>
SC_HOST_DEVICE inline I float_to_int_cuda(F v) {
  const double d = static_cast<double>(v);
  if constexpr (sizeof(I) == 8 || std::is_same_v<I, uint8_t>) {
    if (d != d) return I(0);
    if (d >= 9223372036854775808.0) return static_cast<I>(INT64_MAX);
    if (d < -9223372036854775808.0) return static_cast<I>(INT64_MIN);
    return static_cast<I>(static_cast<int64_t>(d));
  } else {
    if (d != d) return I(0);
    if (d >= 2147483648.0) return static_cast<I>(INT32_MAX);
    if (d < -2147483648.0) return static_cast<I>(INT32_MIN);
    return static_cast<I>(static_cast<int32_t>(d));
  }
}

// The conversion of the device this code is compiled for.
template <class I, class F>
SC_HOST_DEVICE inline I float_to_int(F v) {
#if defined(__CUDA_ARCH__)
  return float_to_int_cuda<I>(v);
#else
  return float_to_int_x86<I>(v);
#endif
}

// c10::convert<To>(From): what a LibTorch kernel stores when it converts one element.
template <class To, class From>
SC_HOST_DEVICE inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_reduced_float_v<From>) {
    return convert<To>(to_float(v));
  } else if constexpr (std::is_same_v<To, Half>) {
    return Half{float_to_half(static_cast<float>(v))};  // double -> float -> half, as c10::Half(float)
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return BFloat16{float_to_bfloat16(static_cast<float>(v))};
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);  // NaN -> true
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return float_to_int<To>(v);
  } else {
    return static_cast<To>(v);  // integer wrap-around (C++20), int -> float rounding
  }
}

// Reads one element. A bool's byte can hold any value (`view dtype=bool` of
// other data), and reading it as a C++ bool is undefined behaviour (UBSan:
// "load of value 2, which is not a valid value for type 'bool'"), so a bool is
// read through its byte: nonzero is true. What LibTorch computes from such a
// byte is undefined too; engine/undefined.cpp marks every element that reads one.
template <class T>
inline T load(const std::byte* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return std::to_integer<uint8_t>(*p) != 0;
  } else {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
}

// Arithmetic helpers: integers wrap (two's complement), reduced floats compute
// in float and round once.
template <class T>
using wide_unsigned_t = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

template <class T>
struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) with T the element type of `d`.
template <class F>
decltype(auto) dispatch_dtype(DType d, F&& f) {
  switch (d) {
    case DType::Bool: return f(Tag<bool>{});
    case DType::UInt8: return f(Tag<uint8_t>{});
    case DType::Int8: return f(Tag<int8_t>{});
    case DType::Int16: return f(Tag<int16_t>{});
    case DType::Int32: return f(Tag<int32_t>{});
    case DType::Int64: return f(Tag<int64_t>{});
    case DType::Float16: return f(Tag<Half>{});
    case DType::BFloat16: return f(Tag<BFloat16>{});
    case DType::Float32: return f(Tag<float>{});
    case DType::Float64: return f(Tag<double>{});
  }
  return f(Tag<float>{});
}

}  // namespace sc::engine::cpu
