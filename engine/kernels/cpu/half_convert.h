#pragma once
// Contiguous runs of float <-> float16 / bfloat16, vectorised where the CPU
// allows it (AVX512F, else F16C + AVX2; chosen once at run time, the build
// stays x86-64 baseline), with exactly the results of the scalar conversions
// in engine/half.h: the hardware rounds to nearest even like them, and the
// lanes where the two could differ (float -> float16 NaNs: the profile's
// HalfNan) are redone by the scalar code. float -> bfloat16 writes NaNs as
// LibTorch's vectorised copy does, 0xffff (BFloat16Nan::Vector), tail
// included (Note [NaN bits of LibTorch's loops], engine/nan_bits.h).
#include <cstdint>
#include <vector>

#include "engine/half.h"

namespace sc::engine::cpu {

// The four runs as one instruction set implements them.
struct HalfConversions {
  const char* isa;  // "AVX512F", "F16C/AVX2" or "scalar"
  void (*float_to_half)(uint16_t* dst, const float* src, int64_t n);
  // The same for the HalfNan::KeepPayload profiles only: there the
  // hardware's NaN is float_to_half's (sign | 0x7e00 | mantissa >> 13), so
  // the loop has no NaN test (LibTorch 2.x's fbgemm loop is the same three
  // instructions: load, vcvtps2ph, store).
  void (*float_to_half_keep_payload)(uint16_t* dst, const float* src, int64_t n);
  void (*half_to_float)(float* dst, const uint16_t* src, int64_t n);
  void (*float_to_bfloat16)(uint16_t* dst, const float* src, int64_t n);
  void (*bfloat16_to_float)(float* dst, const uint16_t* src, int64_t n);
};

// Every implementation this CPU can run, fastest first; the last one is the
// scalar code (tests compare each with it).
const std::vector<HalfConversions>& half_conversions_available();
// The one the kernels use: the fastest.
const HalfConversions& half_conversions();

// (float_to_half_keep_payload where the profile's HalfNan allows it.)
inline void float_to_half_run(uint16_t* dst, const float* src, int64_t n) {
  const HalfConversions& c = half_conversions();
  (profile_half_nan() == HalfNan::KeepPayload ? c.float_to_half_keep_payload : c.float_to_half)(dst, src, n);
}
inline void half_to_float_run(float* dst, const uint16_t* src, int64_t n) {
  half_conversions().half_to_float(dst, src, n);
}
inline void float_to_bfloat16_run(uint16_t* dst, const float* src, int64_t n) {
  half_conversions().float_to_bfloat16(dst, src, n);
}
inline void bfloat16_to_float_run(float* dst, const uint16_t* src, int64_t n) {
  half_conversions().bfloat16_to_float(dst, src, n);
}

}  // namespace sc::engine::cpu
