#pragma once
// Note [Vectorised binary runs]: the innermost run of an elementwise binary
// kernel (add, sub, mul, div) whose operands are all contiguous, or one of
// them a broadcast scalar (stride 0), is a plain array loop. It is compiled
// three times, for the x86-64 baseline (SSE2), with target("avx2") and with
// target("avx512f"), and the widest the CPU has is chosen once at run time
// (__builtin_cpu_supports), so the build stays baseline and runs anywhere
// (engine/kernels/cpu/half_convert.cpp does the same). (Neither target
// enables FMA or F16C in GCC; LibTorch's AVX512 build runs 512-bit loops
// too: Add_Broadcast/1M took 85 us with AVX2, LibTorch 77 us.)
//
// Results are bit-identical to the element-by-element loop: each lane runs
// Op::apply on its own element, which is one IEEE operation for float and
// double (the avx2 target enables no FMA, and a single operation has nothing
// to contract) and a wrap-around unsigned operation for integers. (One
// exception, shared with LibTorch's own scalar and vector loops: with two NaN
// operands x86 returns the first one's NaN, and the compiler may swap the
// operands of + and *, which commute, so which NaN's sign and payload come
// out is not fixed; the engine flags such results, Note [NaN operand choice]
// in engine/nan_choice.h, and the diff compares them as NaNs.) What the
// compiler may not assume is that the output misses the inputs: in-place ops
// write their first operand. So the loops are chosen by how the output
// overlaps the inputs: not at all (`__restrict`), exactly the first or second
// operand (read and written at the same index), or all three the same array.
// Any other overlap (an out= view shifted by a few elements) keeps the
// strided loop, whose element order then decides what is read.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "engine/kernels/cpu/types.h"

namespace sc::engine::cpu {

// Which operand is a broadcast scalar in a contiguous run.
enum class RunForm : uint8_t {
  VV,  // out[i] = op(a[i], b[i])
  VS,  // out[i] = op(a[i], b)
  SV,  // out[i] = op(a, b[i])
};

namespace binary_runs_detail {

inline bool disjoint(const std::byte* x, const std::byte* y, int64_t bytes) {
  return x + bytes <= y || y + bytes <= x;
}

// Returns false (nothing written) when the output overlaps an input in a way
// none of the loops below handles.
// (bool is left to the strided loop: its bytes are read through load<bool>,
// since a bool's byte may hold any value.)
template <class T, class Op>
[[gnu::always_inline]] inline bool contiguous_run(RunForm form, std::byte* o, const std::byte* a, const std::byte* b,
                                                  int64_t n) {
  if constexpr (std::is_same_v<T, bool>) return false;
  const int64_t bytes = n * static_cast<int64_t>(sizeof(T));
  T* const out = reinterpret_cast<T*>(o);
  const T* const x = reinterpret_cast<const T*>(a);
  const T* const y = reinterpret_cast<const T*>(b);
  switch (form) {
    case RunForm::VV: {
      const bool oa = o == a, ob = o == b;
      if (oa && ob) {
        T* __restrict p = out;
        for (int64_t i = 0; i < n; ++i) p[i] = Op::apply(p[i], p[i]);
        return true;
      }
      if (oa && disjoint(o, b, bytes)) {
        T* __restrict p = out;
        const T* __restrict q = y;
        for (int64_t i = 0; i < n; ++i) p[i] = Op::apply(p[i], q[i]);
        return true;
      }
      if (ob && disjoint(o, a, bytes)) {
        T* __restrict p = out;
        const T* __restrict q = x;
        for (int64_t i = 0; i < n; ++i) p[i] = Op::apply(q[i], p[i]);
        return true;
      }
      if (disjoint(o, a, bytes) && disjoint(o, b, bytes)) {
        T* __restrict p = out;
        const T* __restrict q = x;
        const T* __restrict r = y;
        for (int64_t i = 0; i < n; ++i) p[i] = Op::apply(q[i], r[i]);
        return true;
      }
      return false;
    }
    case RunForm::VS:
    case RunForm::SV: {
      // The scalar is read once, before the run, as the strided loop reads
      // a VS run's scalar; an SV run's scalar is read per element there, so
      // one that lies in the output is left to it.
      if (form == RunForm::SV && a >= o && a < o + bytes) return false;
      const T s = load<T>(form == RunForm::VS ? b : a);
      const std::byte* v = form == RunForm::VS ? a : b;
      if (o == v) {
        T* __restrict p = out;
        if (form == RunForm::VS)
          for (int64_t i = 0; i < n; ++i) p[i] = Op::apply(p[i], s);
        else
          for (int64_t i = 0; i < n; ++i) p[i] = Op::apply(s, p[i]);
        return true;
      }
      if (disjoint(o, v, bytes)) {
        T* __restrict p = out;
        const T* __restrict q = reinterpret_cast<const T*>(v);
        if (form == RunForm::VS)
          for (int64_t i = 0; i < n; ++i) p[i] = Op::apply(q[i], s);
        else
          for (int64_t i = 0; i < n; ++i) p[i] = Op::apply(s, q[i]);
        return true;
      }
      return false;
    }
  }
  return false;
}

template <class T, class Op>
bool run_baseline(RunForm f, std::byte* o, const std::byte* a, const std::byte* b, int64_t n) {
  return contiguous_run<T, Op>(f, o, a, b, n);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define SC_BINARY_RUNS_AVX2 1
template <class T, class Op>
__attribute__((target("avx2"))) bool run_avx2(RunForm f, std::byte* o, const std::byte* a, const std::byte* b,
                                              int64_t n) {
  return contiguous_run<T, Op>(f, o, a, b, n);
}
template <class T, class Op>
__attribute__((target("avx512f"))) bool run_avx512(RunForm f, std::byte* o, const std::byte* a, const std::byte* b,
                                                   int64_t n) {
  return contiguous_run<T, Op>(f, o, a, b, n);
}
#endif

inline bool cpu_has_avx2() {
#if SC_BINARY_RUNS_AVX2
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

inline bool cpu_has_avx512() {
#if SC_BINARY_RUNS_AVX2
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
#else
  return false;
#endif
}

// Note [NaN operand choice found by the kernel] (nan_pair_scan.h): a
// contiguous run whose output shares no memory with the operands, also
// telling whether it wrote a NaN (a NaN pair's element is one), looked at in
// the register it is stored from. Lanes are independent as in
// contiguous_run; which NaN a lane with two NaN operands gets is the
// compiler's choice here too (Note [NaN operand choice]).
template <class T>
[[gnu::always_inline]] inline bool is_nan_value(T v) {
  if constexpr (std::is_same_v<T, Half>) return is_half_nan(v.bits);
  else return v != v;
}
template <class T, class Op>
[[gnu::always_inline]] inline bool separate_run(RunForm form, std::byte* o, const std::byte* a, const std::byte* b,
                                                int64_t n) {
  T* __restrict p = reinterpret_cast<T*>(o);
  const T* __restrict x = reinterpret_cast<const T*>(a);
  const T* __restrict y = reinterpret_cast<const T*>(b);
  int nan = 0;
  switch (form) {
    case RunForm::VV:
      for (int64_t i = 0; i < n; ++i) {
        const T v = Op::apply(x[i], y[i]);
        p[i] = v;
        nan |= is_nan_value(v);
      }
      break;
    case RunForm::VS: {
      const T s = load<T>(b);
      for (int64_t i = 0; i < n; ++i) {
        const T v = Op::apply(x[i], s);
        p[i] = v;
        nan |= is_nan_value(v);
      }
      break;
    }
    case RunForm::SV: {
      const T s = load<T>(a);
      for (int64_t i = 0; i < n; ++i) {
        const T v = Op::apply(s, y[i]);
        p[i] = v;
        nan |= is_nan_value(v);
      }
      break;
    }
  }
  return nan != 0;
}
template <class T, class Op>
bool separate_run_baseline(RunForm f, std::byte* o, const std::byte* a, const std::byte* b, int64_t n) {
  return separate_run<T, Op>(f, o, a, b, n);
}
#if SC_BINARY_RUNS_AVX2
template <class T, class Op>
__attribute__((target("avx2"))) bool separate_run_avx2(RunForm f, std::byte* o, const std::byte* a,
                                                       const std::byte* b, int64_t n) {
  return separate_run<T, Op>(f, o, a, b, n);
}
template <class T, class Op>
__attribute__((target("avx512f"))) bool separate_run_avx512(RunForm f, std::byte* o, const std::byte* a,
                                                            const std::byte* b, int64_t n) {
  return separate_run<T, Op>(f, o, a, b, n);
}
#endif

}  // namespace binary_runs_detail

// Runs out = op(a, b) over one contiguous run of n float16/float32/float64
// elements whose output shares no memory with a or b; returns whether it
// wrote a NaN.
template <class T, class Op>
bool binary_separate_run_wrote_nan(RunForm form, std::byte* o, const std::byte* a, const std::byte* b, int64_t n) {
  using Fn = bool (*)(RunForm, std::byte*, const std::byte*, const std::byte*, int64_t);
#if SC_BINARY_RUNS_AVX2
  static const Fn fn = binary_runs_detail::cpu_has_avx512() ? &binary_runs_detail::separate_run_avx512<T, Op>
                       : binary_runs_detail::cpu_has_avx2() ? &binary_runs_detail::separate_run_avx2<T, Op>
                                                            : &binary_runs_detail::separate_run_baseline<T, Op>;
#else
  static const Fn fn = &binary_runs_detail::separate_run_baseline<T, Op>;
#endif
  return fn(form, o, a, b, n);
}

// Whether binary runs use the AVX2 copies on this CPU (for tests and the
// benchmarks' context line).
inline bool binary_runs_use_avx2() { return binary_runs_detail::cpu_has_avx2(); }

// Runs out = op(a, b) over one contiguous run of n elements of T (`form` says
// which operand, if any, is a stride-0 scalar). False when the output
// partially overlaps an input: the caller's strided loop must run instead.
template <class T, class Op>
bool binary_contiguous_run(RunForm form, std::byte* o, const std::byte* a, const std::byte* b, int64_t n) {
  using Fn = bool (*)(RunForm, std::byte*, const std::byte*, const std::byte*, int64_t);
#if SC_BINARY_RUNS_AVX2
  static const Fn fn = binary_runs_detail::cpu_has_avx512() ? &binary_runs_detail::run_avx512<T, Op>
                       : binary_runs_detail::cpu_has_avx2() ? &binary_runs_detail::run_avx2<T, Op>
                                                            : &binary_runs_detail::run_baseline<T, Op>;
#else
  static const Fn fn = &binary_runs_detail::run_baseline<T, Op>;
#endif
  return fn(form, o, a, b, n);
}

}  // namespace sc::engine::cpu
