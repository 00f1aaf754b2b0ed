#pragma once
// Contiguous runs of float <-> float16 / bfloat16, vectorised where the CPU
// allows it (F16C for float16, AVX2 for bfloat16; checked once at run time),
// with exactly the results of the scalar conversions in engine/half.h: the
// hardware rounds to nearest even like them, and the lanes where the two
// could differ (float -> float16 NaNs under the 1.13 profile) are redone by
// the scalar code. float -> bfloat16 writes NaNs as LibTorch's vectorised
// copy does, 0xffff (BFloat16Nan::Vector), tail included (Note [NaN bits of
// LibTorch's loops], engine/nan_bits.h).
#include <cstdint>

namespace sc::engine::cpu {

void float_to_half_run(uint16_t* dst, const float* src, int64_t n);
void half_to_float_run(float* dst, const uint16_t* src, int64_t n);
void float_to_bfloat16_run(uint16_t* dst, const float* src, int64_t n);
void bfloat16_to_float_run(float* dst, const uint16_t* src, int64_t n);

// Whether the vector paths above are in use on this CPU (for tests and the
// benchmarks' context line).
bool half_conversion_vectorised();

}  // namespace sc::engine::cpu
