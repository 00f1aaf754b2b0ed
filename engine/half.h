#pragma once
// float16 and bfloat16 <-> float, round to nearest even (as c10::Half / c10::BFloat16),
// with the NaN bits LibTorch writes on each path (Note [NaN bits of conversions]).
#include <cstdint>

#include "engine/host_device.h"

namespace sc::engine {

// Note [NaN bits of conversions]: a NaN's sign and payload survive some of
// LibTorch's conversions and not others (measured on x86-64 with F16C and
// AVX2/AVX512, LibTorch 1.13.1 and 2.15.0, one intra-op thread):
//   float -> float16: c10's software fp16_ieee_from_fp32_value gives
//     sign | 0x7e00 (1.13); 2.15 compiles c10::Half(float) to _cvtss_sh,
//     which quiets and keeps the payload's top 10 bits: sign | 0x7e00 |
//     mantissa >> 13 (0xffe00000 -> 0xff00). HalfNan; profile entry
//     HalfFromFloatKeepsNanPayload.
//   float16 -> float: quiet, payload kept (sign | 0x7fc00000 | mantissa << 13):
//     both versions' arithmetic paths (1.13's software conversion multiplies,
//     which quiets; 2.15's _cvtsh_ss/vcvtph2ps). 2.15's contiguous copy writes
//     0x7fffffff for the NaNs of its scalar tail instead (engine/nan_bits.h).
//   float -> bfloat16: c10::BFloat16's round_to_nearest_even gives 0x7fc0
//     (the scalar loops); the vectorised conversion (cvtfp32_bf16) gives
//     0xffff, sign and payload dropped (BFloat16Nan). Which elements go
//     through the vector loop: engine/nan_bits.h.
//   bfloat16 -> float: exact, a signalling NaN stays signalling.
enum class HalfNan : uint8_t {
  Canonical,    // sign | 0x7e00
  KeepPayload,  // sign | 0x7e00 | mantissa >> 13 (_cvtss_sh)
};
enum class BFloat16Nan : uint8_t {
  Scalar,  // kBFloat16ScalarNan (c10::BFloat16)
  Vector,  // kBFloat16VectorNan (Vectorized<BFloat16>'s conversion)
};
inline constexpr uint16_t kBFloat16ScalarNan = 0x7fc0;
inline constexpr uint16_t kBFloat16VectorNan = 0xffff;

// The HalfNan of the imitated LibTorch (host only: engine/nan_bits.cpp).
HalfNan profile_half_nan();

SC_HOST_DEVICE inline uint16_t half_nan_from_float_bits(uint32_t x, HalfNan rule) {
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t payload = rule == HalfNan::KeepPayload ? ((x & 0x7fffffu) >> 13) : 0u;
  return static_cast<uint16_t>(sign | 0x7e00u | payload);
}

SC_HOST_DEVICE inline float half_to_float(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    if (mant == 0) return bits_to_float(sign);
    // subnormal
    float f = static_cast<float>(mant) * (1.0f / 16777216.0f);  // 2^-24
    return sign ? -f : f;
  }
  if (exp == 31) return bits_to_float(sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0u));  // NaN: quiet
  return bits_to_float(sign | ((exp + 112) << 23) | (mant << 13));
}

SC_HOST_DEVICE inline uint16_t float_to_half(float f, HalfNan nan) {
  uint32_t x = float_to_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx > 0x7f800000u) return half_nan_from_float_bits(x, nan);
  if (absx == 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (absx < 0x38800000u) {  // subnormal or zero in half
    // value = absx as float; half subnormal unit = 2^-24
    float af = bits_to_float(absx);
    float scaled = af * 16777216.0f;  // exact in float for these magnitudes
    // round to nearest even
    uint32_t r = static_cast<uint32_t>(scaled);
    float frac = scaled - static_cast<float>(r);
    if (frac > 0.5f || (frac == 0.5f && (r & 1u))) ++r;
    return static_cast<uint16_t>(sign | r);
  }
  uint32_t exp = ((absx >> 23) - 112) << 10;
  uint32_t mant = (absx >> 13) & 0x3ffu;
  uint32_t h = exp | mant;
  uint32_t rest = absx & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

// c10::Half(float) of the imitated LibTorch (on the GPU: the canonical NaN).
SC_HOST_DEVICE inline uint16_t float_to_half(float f) {
#if defined(__CUDA_ARCH__)
  return float_to_half(f, HalfNan::Canonical);
#else
  if (f != f) return float_to_half(f, profile_half_nan());
  return float_to_half(f, HalfNan::Canonical);
#endif
}

SC_HOST_DEVICE inline bool is_bfloat16_nan(uint16_t b) { return (b & 0x7fffu) > 0x7f80u; }
SC_HOST_DEVICE inline bool is_half_nan(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }

SC_HOST_DEVICE inline float bfloat16_to_float(uint16_t b) { return bits_to_float(static_cast<uint32_t>(b) << 16); }

SC_HOST_DEVICE inline uint16_t float_to_bfloat16(float f, BFloat16Nan nan = BFloat16Nan::Scalar) {
  uint32_t x = float_to_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return nan == BFloat16Nan::Vector ? kBFloat16VectorNan : kBFloat16ScalarNan;
  uint32_t rounding_bias = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding_bias) >> 16);
}

}  // namespace sc::engine
