#include "engine/scalar.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "engine/half.h"

namespace sc::engine {
namespace {
template <class T>
void put(std::byte* p, T v) { std::memcpy(p, &v, sizeof(T)); }
template <class T>
T get(const std::byte* p) { T v; std::memcpy(&v, p, sizeof(T)); return v; }

// float -> integer as static_cast does on x86 for in-range values; out of range
// is undefined in C++, so go through int64 like c10's conversions effectively do.
template <class I>
I float_to_int(double v) {
  if (std::isnan(v)) return static_cast<I>(std::numeric_limits<int64_t>::min());
  if (v >= 9.2233720368547758e18 || v < -9.2233720368547758e18)
    return static_cast<I>(std::numeric_limits<int64_t>::min());
  return static_cast<I>(static_cast<int64_t>(v));
}
}  // namespace

void store_double(DType d, std::byte* p, double v) {
  switch (d) {
    case DType::Bool: put<uint8_t>(p, v != 0.0 ? 1 : 0); break;
    case DType::UInt8: put<uint8_t>(p, float_to_int<uint8_t>(v)); break;
    case DType::Int8: put<int8_t>(p, float_to_int<int8_t>(v)); break;
    case DType::Int16: put<int16_t>(p, float_to_int<int16_t>(v)); break;
    case DType::Int32: put<int32_t>(p, float_to_int<int32_t>(v)); break;
    case DType::Int64: put<int64_t>(p, float_to_int<int64_t>(v)); break;
    case DType::Float16: put<uint16_t>(p, float_to_half(static_cast<float>(v))); break;
    case DType::BFloat16: put<uint16_t>(p, float_to_bfloat16(static_cast<float>(v))); break;
    case DType::Float32: put<float>(p, static_cast<float>(v)); break;
    case DType::Float64: put<double>(p, v); break;
  }
}

void store_int(DType d, std::byte* p, int64_t v) {
  switch (d) {
    case DType::Bool: put<uint8_t>(p, v != 0 ? 1 : 0); break;
    case DType::UInt8: put<uint8_t>(p, static_cast<uint8_t>(v)); break;
    case DType::Int8: put<int8_t>(p, static_cast<int8_t>(v)); break;
    case DType::Int16: put<int16_t>(p, static_cast<int16_t>(v)); break;
    case DType::Int32: put<int32_t>(p, static_cast<int32_t>(v)); break;
    case DType::Int64: put<int64_t>(p, v); break;
    case DType::Float16: put<uint16_t>(p, float_to_half(static_cast<float>(v))); break;
    case DType::BFloat16: put<uint16_t>(p, float_to_bfloat16(static_cast<float>(v))); break;
    case DType::Float32: put<float>(p, static_cast<float>(v)); break;
    case DType::Float64: put<double>(p, static_cast<double>(v)); break;
  }
}

void store_scalar(DType d, std::byte* p, const Scalar& s) {
  if (s.is_floating()) store_double(d, p, s.f);
  else store_int(d, p, s.i);
}

double load_double(DType d, const std::byte* p) {
  switch (d) {
    case DType::Bool: return get<uint8_t>(p) ? 1.0 : 0.0;
    case DType::UInt8: return get<uint8_t>(p);
    case DType::Int8: return get<int8_t>(p);
    case DType::Int16: return get<int16_t>(p);
    case DType::Int32: return get<int32_t>(p);
    case DType::Int64: return static_cast<double>(get<int64_t>(p));
    case DType::Float16: return half_to_float(get<uint16_t>(p));
    case DType::BFloat16: return bfloat16_to_float(get<uint16_t>(p));
    case DType::Float32: return get<float>(p);
    case DType::Float64: return get<double>(p);
  }
  return 0.0;
}

int64_t load_int(DType d, const std::byte* p) {
  switch (d) {
    case DType::Bool: return get<uint8_t>(p) ? 1 : 0;
    case DType::UInt8: return get<uint8_t>(p);
    case DType::Int8: return get<int8_t>(p);
    case DType::Int16: return get<int16_t>(p);
    case DType::Int32: return get<int32_t>(p);
    case DType::Int64: return get<int64_t>(p);
    default: return float_to_int<int64_t>(load_double(d, p));
  }
}

}  // namespace sc::engine
