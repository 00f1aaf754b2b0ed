#pragma once
// Note [NaN operand choice found by the kernel]: the binary kernel finds the
// elements of Note [NaN operand choice] (engine/nan_choice.h), those whose
// two operands are NaNs with different bits, while it computes them: each
// block of kNanScanBlock elements of a run is scanned just before it is
// written (the block's operands are then in L1 for the arithmetic, so the
// scan adds no memory traffic; a separate pass over the operands before the
// kernel cost more than the kernel). Same answer as
// elements_choosing_between_nans before the kernel whenever no element's
// operands are written before that element is read (the caller's condition,
// engine/elementwise.cpp). Where the output shares no memory with the
// operands, the block is written first and then looked at for NaNs (cheaper:
// one array, in L1), and only a block that has one is looked at for pairs;
// otherwise (in place) the operands are scanned before the block is written.
//
// any_nan_pair and any_nan are vector loops where the run is contiguous
// (compiled for the x86-64 baseline and with target("avx2"), chosen once,
// as Note [Vectorised binary runs]); the offsets themselves are collected by
// the scalar loop of note_nan_pairs, in the rare blocks where some pair exists.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "engine/kernels/cpu/binary_runs.h"
#include "engine/kernels/cpu/types.h"

namespace sc::engine::cpu {

// 4 KiB of each operand: the block's three operands stay in L1, and the
// per-block calls are few.
template <class T>
inline constexpr int64_t kNanScanBlock = 4096 / static_cast<int64_t>(sizeof(T));

// The element types with a NaN choice (bfloat16 has none: Note [NaN operand
// choice]) and their bits: NaN iff (bits & kAbs) > kInf.
template <class T>
struct NanBits {
  static constexpr bool kHasChoice = false;
};
template <>
struct NanBits<Half> {
  static constexpr bool kHasChoice = true;
  using Bits = uint16_t;
  using SignedBits = int16_t;
  static constexpr Bits kAbs = 0x7fff, kInf = 0x7c00;
};
template <>
struct NanBits<float> {
  static constexpr bool kHasChoice = true;
  using Bits = uint32_t;
  using SignedBits = int32_t;
  static constexpr Bits kAbs = 0x7fffffffu, kInf = 0x7f800000u;
};
template <>
struct NanBits<double> {
  static constexpr bool kHasChoice = true;
  using Bits = uint64_t;
  using SignedBits = int64_t;
  static constexpr Bits kAbs = 0x7fffffffffffffffull, kInf = 0x7ff0000000000000ull;
};

namespace nan_pair_detail {

template <class T>
inline typename NanBits<T>::Bits bits_at(const std::byte* p) {
  typename NanBits<T>::Bits b;
  std::memcpy(&b, p, sizeof b);
  return b;
}
template <class T>
inline bool is_nan_bits(typename NanBits<T>::Bits b) {
  return (b & NanBits<T>::kAbs) > NanBits<T>::kInf;
}

// Both operands contiguous: whether some i < n has a NaN in both.
template <class T>
[[gnu::always_inline]] inline bool contiguous_pairs(const std::byte* a, const std::byte* b, int64_t n) {
  // Signed: the masked bits are below the sign bit, and x86 compares signed.
  using S = typename NanBits<T>::SignedBits;
  constexpr S abs = static_cast<S>(NanBits<T>::kAbs), inf = static_cast<S>(NanBits<T>::kInf);
  const S* __restrict x = reinterpret_cast<const S*>(a);
  const S* __restrict y = reinterpret_cast<const S*>(b);
  S acc = 0;
  for (int64_t i = 0; i < n; ++i) acc |= static_cast<S>(((x[i] & abs) > inf) & ((y[i] & abs) > inf));
  return acc != 0;
}

// A contiguous run: whether some i < n is a NaN.
template <class T>
[[gnu::always_inline]] inline bool contiguous_nans(const std::byte* a, int64_t n) {
  using S = typename NanBits<T>::SignedBits;
  constexpr S abs = static_cast<S>(NanBits<T>::kAbs), inf = static_cast<S>(NanBits<T>::kInf);
  const S* __restrict x = reinterpret_cast<const S*>(a);
  S acc = 0;
  for (int64_t i = 0; i < n; ++i) acc |= static_cast<S>((x[i] & abs) > inf);
  return acc != 0;
}

template <class T>
bool contiguous_pairs_baseline(const std::byte* a, const std::byte* b, int64_t n) {
  return contiguous_pairs<T>(a, b, n);
}
template <class T>
bool contiguous_nans_baseline(const std::byte* a, int64_t n) {
  return contiguous_nans<T>(a, n);
}
#if SC_BINARY_RUNS_AVX2
template <class T>
__attribute__((target("avx2"))) bool contiguous_pairs_avx2(const std::byte* a, const std::byte* b, int64_t n) {
  return contiguous_pairs<T>(a, b, n);
}
template <class T>
__attribute__((target("avx2"))) bool contiguous_nans_avx2(const std::byte* a, int64_t n) {
  return contiguous_nans<T>(a, n);
}
#endif

}  // namespace nan_pair_detail

// Whether some element i < n of a run (operand byte strides sa, sb) has a
// NaN in both operands (their bits not yet compared: a "maybe").
template <class T>
bool any_nan_pair(const std::byte* a, int64_t sa, const std::byte* b, int64_t sb, int64_t n) {
  using namespace nan_pair_detail;
  constexpr int64_t z = sizeof(T);
  if (sa == z && sb == z) {
    using Fn = bool (*)(const std::byte*, const std::byte*, int64_t);
#if SC_BINARY_RUNS_AVX2
    static const Fn fn = binary_runs_detail::cpu_has_avx2() ? &contiguous_pairs_avx2<T> : &contiguous_pairs_baseline<T>;
#else
    static const Fn fn = &contiguous_pairs_baseline<T>;
#endif
    return fn(a, b, n);
  }
  // A stride-0 operand that is not a NaN: no pair in the run.
  if ((sa == 0 && !is_nan_bits<T>(bits_at<T>(a))) || (sb == 0 && !is_nan_bits<T>(bits_at<T>(b)))) return false;
  for (int64_t i = 0; i < n; ++i)
    if (is_nan_bits<T>(bits_at<T>(a + i * sa)) && is_nan_bits<T>(bits_at<T>(b + i * sb))) return true;
  return false;
}

// Whether some element i < n of a run (byte stride s) is a NaN: after the
// kernel wrote a block, a NaN pair's element holds a NaN (add, sub, mul and
// div of two NaNs give a NaN), so a block without one has no pair.
template <class T>
bool any_nan(const std::byte* p, int64_t s, int64_t n) {
  using namespace nan_pair_detail;
  if (s == static_cast<int64_t>(sizeof(T))) {
    using Fn = bool (*)(const std::byte*, int64_t);
#if SC_BINARY_RUNS_AVX2
    static const Fn fn = binary_runs_detail::cpu_has_avx2() ? &contiguous_nans_avx2<T> : &contiguous_nans_baseline<T>;
#else
    static const Fn fn = &contiguous_nans_baseline<T>;
#endif
    return fn(p, n);
  }
  for (int64_t i = 0; i < n; ++i)
    if (is_nan_bits<T>(bits_at<T>(p + i * s))) return true;
  return false;
}

// Appends to `found` the byte offsets from `base` (the written storage's
// data) of the elements i < n of a run whose operands are NaNs with
// different bits. p/st: the run's (out, a, b) pointers and byte strides.
template <class T>
void note_nan_pairs(std::byte* const* p, const int64_t* st, int64_t n, const std::byte* base,
                    std::vector<int64_t>& found) {
  using namespace nan_pair_detail;
  for (int64_t i = 0; i < n; ++i) {
    const auto x = bits_at<T>(p[1] + i * st[1]), y = bits_at<T>(p[2] + i * st[2]);
    if (is_nan_bits<T>(x) && is_nan_bits<T>(y) && x != y) found.push_back((p[0] - base) + i * st[0]);
  }
}

}  // namespace sc::engine::cpu
