#include "engine/kernels/cpu/half_convert.h"

#include <cpuid.h>
#include <immintrin.h>

#include "engine/half.h"

namespace sc::engine::cpu {
namespace {

void float_to_half_scalar(uint16_t* dst, const float* src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = float_to_half(src[i]);
}
void half_to_float_scalar(float* dst, const uint16_t* src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = half_to_float(src[i]);
}
void float_to_bfloat16_scalar(uint16_t* dst, const float* src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = float_to_bfloat16(src[i], BFloat16Nan::Vector);
}
void bfloat16_to_float_scalar(float* dst, const uint16_t* src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = bfloat16_to_float(src[i]);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define SC_HALF_SIMD 1

// F16C from CPUID leaf 1 (ECX bit 29): clang 14's __builtin_cpu_supports has
// no "f16c" (a compile error in the clang fuzz and ASan builds).
bool cpu_has_f16c() {
  static const bool has = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
  }();
  return has;
}
bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}

// vcvtps2ph with an explicit round-to-nearest-even: float_to_half's rounding,
// overflow to inf and subnormals included. NaN lanes are redone by the
// scalar code (the profile's HalfNan: vcvtps2ph keeps the payload, 1.13 did not).
__attribute__((target("avx,f16c"))) void float_to_half_f16c(uint16_t* dst, const float* src, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(src + i);
    const __m128i h = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
    const int nan = _mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    if (nan)
      for (int k = 0; k < 8; ++k)
        if (nan >> k & 1) dst[i + k] = float_to_half(src[i + k]);
  }
  float_to_half_scalar(dst + i, src + i, n - i);
}

// vcvtph2ps is exact and quiets a NaN keeping its payload, as half_to_float.
__attribute__((target("avx,f16c"))) void half_to_float_f16c(float* dst, const uint16_t* src, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  half_to_float_scalar(dst + i, src + i, n - i);
}

// float_to_bfloat16 eight at a time: (x + 0x7fff + ((x >> 16) & 1)) >> 16,
// NaN -> 0xffff (BFloat16Nan::Vector).
__attribute__((target("avx2"))) void float_to_bfloat16_avx2(uint16_t* dst, const float* src, int64_t n) {
  const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7fff);
  const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
  const __m256i nan_bits = _mm256_set1_epi32(0xffff);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(x, 16), one);
    __m256i r = _mm256_srli_epi32(_mm256_add_epi32(x, _mm256_add_epi32(bias, lsb)), 16);
    const __m256i is_nan = _mm256_cmpgt_epi32(_mm256_and_si256(x, abs_mask), inf);
    r = _mm256_blendv_epi8(r, nan_bits, is_nan);
    const __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), packed);
  }
  float_to_bfloat16_scalar(dst + i, src + i, n - i);
}

__attribute__((target("avx2"))) void bfloat16_to_float_avx2(float* dst, const uint16_t* src, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m256i w = _mm256_slli_epi32(_mm256_cvtepu16_epi32(b), 16);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), w);
  }
  bfloat16_to_float_scalar(dst + i, src + i, n - i);
}
#endif

}  // namespace

bool half_conversion_vectorised() {
#ifdef SC_HALF_SIMD
  return cpu_has_f16c() && cpu_has_avx2();
#else
  return false;
#endif
}

void float_to_half_run(uint16_t* dst, const float* src, int64_t n) {
#ifdef SC_HALF_SIMD
  if (cpu_has_f16c()) return float_to_half_f16c(dst, src, n);
#endif
  float_to_half_scalar(dst, src, n);
}

void half_to_float_run(float* dst, const uint16_t* src, int64_t n) {
#ifdef SC_HALF_SIMD
  if (cpu_has_f16c()) return half_to_float_f16c(dst, src, n);
#endif
  half_to_float_scalar(dst, src, n);
}

void float_to_bfloat16_run(uint16_t* dst, const float* src, int64_t n) {
#ifdef SC_HALF_SIMD
  if (cpu_has_avx2()) return float_to_bfloat16_avx2(dst, src, n);
#endif
  float_to_bfloat16_scalar(dst, src, n);
}

void bfloat16_to_float_run(float* dst, const uint16_t* src, int64_t n) {
#ifdef SC_HALF_SIMD
  if (cpu_has_avx2()) return bfloat16_to_float_avx2(dst, src, n);
#endif
  bfloat16_to_float_scalar(dst, src, n);
}

}  // namespace sc::engine::cpu
