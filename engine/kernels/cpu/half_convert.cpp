#include "engine/kernels/cpu/half_convert.h"

#include "engine/half.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define SC_HALF_SIMD 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace sc::engine::cpu {
namespace {

// The scalar code (engine/half.h), also every vector loop's tail.
struct FloatToHalf {
  using Dst = uint16_t;
  using Src = float;
  static void scalar(uint16_t* dst, const float* src, int64_t n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = float_to_half(src[i]);
  }
};
struct HalfToFloat {
  using Dst = float;
  using Src = uint16_t;
  static void scalar(float* dst, const uint16_t* src, int64_t n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = half_to_float(src[i]);
  }
};
struct FloatToBFloat16 {
  using Dst = uint16_t;
  using Src = float;
  static void scalar(uint16_t* dst, const float* src, int64_t n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = float_to_bfloat16(src[i], BFloat16Nan::Vector);
  }
};
struct BFloat16ToFloat {
  using Dst = float;
  using Src = uint16_t;
  static void scalar(float* dst, const uint16_t* src, int64_t n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = bfloat16_to_float(src[i]);
  }
};

#ifdef SC_HALF_SIMD

// Each conversion's block of kLanes elements, per instruction set:
//  - float -> float16: vcvtps2ph with an explicit round-to-nearest-even is
//    float_to_half's rounding, overflow to inf and subnormals included; NaN
//    lanes are redone by the scalar code (the profile's HalfNan: vcvtps2ph
//    keeps the payload, 1.13 did not).
//  - float16 -> float: vcvtph2ps is exact and quiets a NaN keeping its
//    payload, as half_to_float.
//  - float -> bfloat16: (x + 0x7fff + ((x >> 16) & 1)) >> 16 in integers
//    (float_to_bfloat16's formula), NaN -> 0xffff (BFloat16Nan::Vector).
//  - bfloat16 -> float: the bits shifted up.
#define SC_TARGET_AVX2 __attribute__((target("avx,avx2,f16c"), always_inline)) static inline
#define SC_TARGET_AVX512 __attribute__((target("avx512f"), always_inline)) static inline

template <class Conversion>
void redo_nan_lanes(uint16_t* dst, const float* src, unsigned nan_lanes) {
  for (int k = 0; nan_lanes != 0; ++k, nan_lanes >>= 1)
    if (nan_lanes & 1u) Conversion::scalar(dst + k, src + k, 1);
}

struct FloatToHalfAvx2 : FloatToHalf {
  static constexpr int kLanes = 8;
  SC_TARGET_AVX2 void block(uint16_t* dst, const float* src) {
    const __m256 x = _mm256_loadu_ps(src);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    const int nan = _mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    if (nan) redo_nan_lanes<FloatToHalf>(dst, src, static_cast<unsigned>(nan));
  }
};
struct FloatToHalfAvx512 : FloatToHalf {
  static constexpr int kLanes = 16;
  SC_TARGET_AVX512 void block(uint16_t* dst, const float* src) {
    const __m512 x = _mm512_loadu_ps(src);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    const __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    if (nan) redo_nan_lanes<FloatToHalf>(dst, src, nan);
  }
};

// The KeepPayload profiles' blocks: vcvtps2ph's NaN is float_to_half's there.
struct FloatToHalfKeepPayloadAvx2 : FloatToHalf {
  static constexpr int kLanes = 8;
  SC_TARGET_AVX2 void block(uint16_t* dst, const float* src) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst),
                     _mm256_cvtps_ph(_mm256_loadu_ps(src), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
};
struct FloatToHalfKeepPayloadAvx512 : FloatToHalf {
  static constexpr int kLanes = 16;
  SC_TARGET_AVX512 void block(uint16_t* dst, const float* src) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst),
                        _mm512_cvtps_ph(_mm512_loadu_ps(src), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
};

struct HalfToFloatAvx2 : HalfToFloat {
  static constexpr int kLanes = 8;
  SC_TARGET_AVX2 void block(float* dst, const uint16_t* src) {
    _mm256_storeu_ps(dst, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src))));
  }
};
struct HalfToFloatAvx512 : HalfToFloat {
  static constexpr int kLanes = 16;
  SC_TARGET_AVX512 void block(float* dst, const uint16_t* src) {
    _mm512_storeu_ps(dst, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src))));
  }
};

struct FloatToBFloat16Avx2 : FloatToBFloat16 {
  static constexpr int kLanes = 8;
  SC_TARGET_AVX2 void block(uint16_t* dst, const float* src) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_srli_epi32(_mm256_add_epi32(x, _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lsb)), 16);
    const __m256i is_nan =
        _mm256_cmpgt_epi32(_mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff)), _mm256_set1_epi32(0x7f800000));
    r = _mm256_blendv_epi8(r, _mm256_set1_epi32(0xffff), is_nan);
    const __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), packed);
  }
};
struct FloatToBFloat16Avx512 : FloatToBFloat16 {
  static constexpr int kLanes = 16;
  SC_TARGET_AVX512 void block(uint16_t* dst, const float* src) {
    const __m512i x = _mm512_loadu_si512(src);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1));
    __m512i r = _mm512_srli_epi32(_mm512_add_epi32(x, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lsb)), 16);
    const __mmask16 is_nan =
        _mm512_cmpgt_epi32_mask(_mm512_and_si512(x, _mm512_set1_epi32(0x7fffffff)), _mm512_set1_epi32(0x7f800000));
    r = _mm512_mask_mov_epi32(r, is_nan, _mm512_set1_epi32(0xffff));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), _mm512_cvtepi32_epi16(r));  // lanes < 2^16: no truncation
  }
};

struct BFloat16ToFloatAvx2 : BFloat16ToFloat {
  static constexpr int kLanes = 8;
  SC_TARGET_AVX2 void block(float* dst, const uint16_t* src) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), _mm256_slli_epi32(_mm256_cvtepu16_epi32(b), 16));
  }
};
struct BFloat16ToFloatAvx512 : BFloat16ToFloat {
  static constexpr int kLanes = 16;
  SC_TARGET_AVX512 void block(float* dst, const uint16_t* src) {
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    _mm512_storeu_si512(dst, _mm512_slli_epi32(_mm512_cvtepu16_epi32(b), 16));
  }
};

#undef SC_TARGET_AVX2
#undef SC_TARGET_AVX512

// The loop of every vector run: whole blocks, then the scalar code for the
// rest. One per instruction set, since a target attribute cannot be a
// template parameter (and the blocks inline only into a loop of their target).
template <class Block>
__attribute__((target("avx,avx2,f16c"))) void run_avx2(typename Block::Dst* dst, const typename Block::Src* src,
                                                       int64_t n) {
  int64_t i = 0;
  for (; i + 2 * Block::kLanes <= n; i += 2 * Block::kLanes) {  // two blocks in flight
    Block::block(dst + i, src + i);
    Block::block(dst + i + Block::kLanes, src + i + Block::kLanes);
  }
  for (; i + Block::kLanes <= n; i += Block::kLanes) Block::block(dst + i, src + i);
  Block::scalar(dst + i, src + i, n - i);
}
template <class Block>
__attribute__((target("avx512f"))) void run_avx512(typename Block::Dst* dst, const typename Block::Src* src,
                                                   int64_t n) {
  int64_t i = 0;
  for (; i + 2 * Block::kLanes <= n; i += 2 * Block::kLanes) {  // two blocks in flight
    Block::block(dst + i, src + i);
    Block::block(dst + i + Block::kLanes, src + i + Block::kLanes);
  }
  for (; i + Block::kLanes <= n; i += Block::kLanes) Block::block(dst + i, src + i);
  Block::scalar(dst + i, src + i, n - i);
}

// F16C from CPUID leaf 1 (ECX bit 29): clang 14's __builtin_cpu_supports has
// no "f16c" (a compile error in the clang fuzz and ASan builds).
bool cpu_has_f16c() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
}
#endif

std::vector<HalfConversions> detect() {
  std::vector<HalfConversions> v;
#ifdef SC_HALF_SIMD
  if (__builtin_cpu_supports("avx512f"))
    v.push_back({"AVX512F", run_avx512<FloatToHalfAvx512>, run_avx512<FloatToHalfKeepPayloadAvx512>,
                 run_avx512<HalfToFloatAvx512>, run_avx512<FloatToBFloat16Avx512>, run_avx512<BFloat16ToFloatAvx512>});
  if (__builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2") && cpu_has_f16c())
    v.push_back({"F16C/AVX2", run_avx2<FloatToHalfAvx2>, run_avx2<FloatToHalfKeepPayloadAvx2>,
                 run_avx2<HalfToFloatAvx2>, run_avx2<FloatToBFloat16Avx2>, run_avx2<BFloat16ToFloatAvx2>});
#endif
  v.push_back({"scalar", FloatToHalf::scalar, FloatToHalf::scalar, HalfToFloat::scalar, FloatToBFloat16::scalar,
               BFloat16ToFloat::scalar});
  return v;
}

}  // namespace

const std::vector<HalfConversions>& half_conversions_available() {
  static const std::vector<HalfConversions> v = detect();
  return v;
}

const HalfConversions& half_conversions() {
  static const HalfConversions& best = half_conversions_available().front();
  return best;
}

}  // namespace sc::engine::cpu
