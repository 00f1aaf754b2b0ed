#pragma once
// One block of a transposing copy of `Size`-byte elements (4 or 8), bits
// moved unchanged (shuffles only, no arithmetic: NaN payloads survive):
//   dst[i1][i0] = src[i0][i1]   for i0 < m0, i1 < m1,
// where dst row i1 starts at dst + i1 * dst_row and runs along i0
// contiguously, and src row i0 starts at src + i0 * src_row and runs along i1
// contiguously. SSE2 micro-tiles (4x4 floats, 2x2 doubles), the x86-64
// baseline; the edges element by element.
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace sc::engine::cpu {

template <int Size>
inline void transpose_scalar(std::byte* dst, int64_t dst_row, const std::byte* src, int64_t src_row, int64_t b0,
                             int64_t e0, int64_t b1, int64_t e1) {
  for (int64_t i1 = b1; i1 < e1; ++i1)
    for (int64_t i0 = b0; i0 < e0; ++i0) std::memcpy(dst + i1 * dst_row + i0 * Size, src + i0 * src_row + i1 * Size, Size);
}

template <int Size>
inline void transpose_block(std::byte* dst, int64_t dst_row, const std::byte* src, int64_t src_row, int64_t m0,
                            int64_t m1) {
  static_assert(Size == 4 || Size == 8);
#if defined(__SSE2__)
  constexpr int64_t kMicro = Size == 4 ? 4 : 2;
  const int64_t full0 = m0 / kMicro * kMicro, full1 = m1 / kMicro * kMicro;
  for (int64_t i1 = 0; i1 < full1; i1 += kMicro) {
    for (int64_t i0 = 0; i0 < full0; i0 += kMicro) {
      const std::byte* s = src + i0 * src_row + i1 * Size;
      std::byte* d = dst + i1 * dst_row + i0 * Size;
      if constexpr (Size == 4) {
        __m128 r0 = _mm_loadu_ps(reinterpret_cast<const float*>(s));
        __m128 r1 = _mm_loadu_ps(reinterpret_cast<const float*>(s + src_row));
        __m128 r2 = _mm_loadu_ps(reinterpret_cast<const float*>(s + 2 * src_row));
        __m128 r3 = _mm_loadu_ps(reinterpret_cast<const float*>(s + 3 * src_row));
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        _mm_storeu_ps(reinterpret_cast<float*>(d), r0);
        _mm_storeu_ps(reinterpret_cast<float*>(d + dst_row), r1);
        _mm_storeu_ps(reinterpret_cast<float*>(d + 2 * dst_row), r2);
        _mm_storeu_ps(reinterpret_cast<float*>(d + 3 * dst_row), r3);
      } else {
        const __m128d r0 = _mm_loadu_pd(reinterpret_cast<const double*>(s));
        const __m128d r1 = _mm_loadu_pd(reinterpret_cast<const double*>(s + src_row));
        _mm_storeu_pd(reinterpret_cast<double*>(d), _mm_unpacklo_pd(r0, r1));
        _mm_storeu_pd(reinterpret_cast<double*>(d + dst_row), _mm_unpackhi_pd(r0, r1));
      }
    }
  }
  transpose_scalar<Size>(dst, dst_row, src, src_row, full0, m0, 0, full1);
  transpose_scalar<Size>(dst, dst_row, src, src_row, 0, m0, full1, m1);
#else
  transpose_scalar<Size>(dst, dst_row, src, src_row, 0, m0, 0, m1);
#endif
}

}  // namespace sc::engine::cpu
