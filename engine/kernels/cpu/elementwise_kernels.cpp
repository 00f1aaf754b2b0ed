// Arithmetic kernels: add, sub, mul, div, neg, clamp. All operands share one
// dtype T; arithmetic runs in opmath_t<T> (float for float16/bfloat16, as
// at::opmath_type) and rounds once to T. Integers wrap.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>

#include "engine/error.h"
#include "engine/kernels/cpu/binary_runs.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/loop.h"
#include "engine/kernels/cpu/nan_pair_scan.h"
#include "engine/kernels/cpu/types.h"
#include "engine/layout.h"
#include "engine/nan_bits.h"

namespace sc::engine::cpu {
namespace {

// Note [NaN bits of LibTorch's loops]: the NaNs a bfloat16 run's vector
// chunks write are 0xffff (the scalar code, which ran, wrote 0x7fc0).
template <class T>
void vector_chunk_nans(std::byte* o, int64_t n) {
  if constexpr (std::is_same_v<T, BFloat16>) {
    T* out = reinterpret_cast<T*>(o);
    for (int64_t i = 0; i < vector_end(n, kReducedFloatVectorChunk); ++i)
      if (is_bfloat16_nan(out[i].bits)) out[i].bits = kBFloat16VectorNan;
  }
}

template <class T>
T from_opmath(opmath_t<T> v) {
  if constexpr (is_reduced_float_v<T>) return convert<T>(v);
  else return v;
}
template <class T>
opmath_t<T> to_opmath(T v) {
  if constexpr (is_reduced_float_v<T>) return to_float(v);
  else return v;
}

template <class T>
struct AddOp {
  static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a || b;  // a + 1*b, stored as bool
    else if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<wide_unsigned_t<T>>(a) + static_cast<wide_unsigned_t<T>>(b));
    else return from_opmath<T>(to_opmath(a) + to_opmath(b));
  }
};
template <class T>
struct SubOp {  // add with alpha = -1
  static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a != b;  // unreachable: sub_check raises for bool
    else if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<wide_unsigned_t<T>>(a) - static_cast<wide_unsigned_t<T>>(b));
    else return from_opmath<T>(to_opmath(a) - to_opmath(b));
  }
};
template <class T>
struct MulOp {
  static T apply(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<wide_unsigned_t<T>>(a) * static_cast<wide_unsigned_t<T>>(b));
    else return from_opmath<T>(to_opmath(a) * to_opmath(b));
  }
};
template <class T>
struct DivOp {  // true division; integer inputs were promoted to float by the caller
  static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      SC_ASSERT(false, "integer true division reaches the kernel");
      return a;
    } else {
      return from_opmath<T>(to_opmath(a) / to_opmath(b));
    }
  }
};

template <class T, class Op>
void binary_run_values(std::byte* const* p, const int64_t* st, int64_t n);

// LibTorch vectorises a run whose operands are all contiguous, or one of
// them a stride-0 scalar (VectorizedLoop2d).
template <class T>
bool vectorised_run(const int64_t* st, int arity) {
  constexpr int64_t z = sizeof(T);
  if (st[0] != z) return false;
  int scalars = 0;
  for (int k = 1; k <= arity; ++k) {
    if (st[k] == 0) ++scalars;
    else if (st[k] != z) return false;
  }
  return scalars < arity || arity == 1;
}

template <class T, class Op>
void binary_run(std::byte* const* p, const int64_t* st, int64_t n) {
  binary_run_values<T, Op>(p, st, n);
  if (vectorised_run<T>(st, 2)) vector_chunk_nans<T>(p[0], n);
}

template <class T, class Op>
void binary_run_values(std::byte* const* p, const int64_t* st, int64_t n) {
  std::byte* o = p[0];
  const std::byte* a = p[1];
  const std::byte* b = p[2];
  constexpr int64_t z = sizeof(T);
  // Contiguous runs: Note [Vectorised binary runs] (false: an overlap the
  // array loops do not handle, so the strided loop below runs).
  if (st[0] == z && st[1] == z && st[2] == z && binary_contiguous_run<T, Op>(RunForm::VV, o, a, b, n)) return;
  if (st[0] == z && st[1] == z && st[2] == 0) {  // tensor op scalar: the scalar is read once
    if (binary_contiguous_run<T, Op>(RunForm::VS, o, a, b, n)) return;
    T* op = reinterpret_cast<T*>(o);
    const T bv = load<T>(b);
    for (int64_t i = 0; i < n; ++i) op[i] = Op::apply(load<T>(a + i * sizeof(T)), bv);
    return;
  }
  if (st[0] == z && st[1] == 0 && st[2] == z && binary_contiguous_run<T, Op>(RunForm::SV, o, a, b, n)) return;
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<T*>(o + i * st[0]) =
        Op::apply(load<T>(a + i * st[1]), load<T>(b + i * st[2]));
}

// Where the NaN-choice offsets go (from every thread of the loop).
struct NanPairSink {
  const std::byte* base;  // the written storage's data
  bool out_is_separate;   // it shares no memory with the operands and overlaps no element of its own
  std::vector<int64_t>* offsets;
  std::mutex mutex;
};

// binary_run_values with Note [NaN operand choice found by the kernel], block
// by block. (No bfloat16: its NaNs have no choice, and
// its vector-chunk NaN bits depend on the whole run.)
template <class T, class Op>
void binary_run_noting(std::byte* const* p, const int64_t* st, int64_t n, NanPairSink& sink) {
  static_assert(NanBits<T>::kHasChoice);
  std::vector<int64_t> found;
  constexpr int64_t z = sizeof(T);
  std::optional<RunForm> form;  // a contiguous run's
  if (st[0] == z && st[1] == z && st[2] == z) form = RunForm::VV;
  else if (st[0] == z && st[1] == z && st[2] == 0) form = RunForm::VS;
  else if (st[0] == z && st[1] == 0 && st[2] == z) form = RunForm::SV;
  for (int64_t i0 = 0; i0 < n; i0 += kNanScanBlock<T>) {
    const int64_t m = std::min(kNanScanBlock<T>, n - i0);
    std::byte* q[3] = {p[0] + i0 * st[0], p[1] + i0 * st[1], p[2] + i0 * st[2]};
    if (sink.out_is_separate && form) {
      if (binary_separate_run_wrote_nan<T, Op>(*form, q[0], q[1], q[2], m))
        note_nan_pairs<T>(q, st, m, sink.base, found);
    } else if (sink.out_is_separate) {
      binary_run_values<T, Op>(q, st, m);
      if (any_nan<T>(q[0], st[0], m)) note_nan_pairs<T>(q, st, m, sink.base, found);
    } else {
      if (any_nan_pair<T>(q[1], st[1], q[2], st[2], m)) note_nan_pairs<T>(q, st, m, sink.base, found);
      binary_run_values<T, Op>(q, st, m);
    }
  }
  if (found.empty()) return;
  std::lock_guard<std::mutex> lock(sink.mutex);
  sink.offsets->insert(sink.offsets->end(), found.begin(), found.end());
}

template <template <class> class Op>
void run_binary(const Tensor& out, const Tensor& a, const Tensor& b, std::vector<int64_t>* nan_choices) {
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // out shares no memory with an input and reaches each location once:
    // the order of the elements cannot matter (Note [Strip-mined loops]), and
    // the NaN-pair check may look at the block it wrote.
    const bool separate = out.storage != a.storage && out.storage != b.storage &&
                          is_non_overlapping_and_dense(out.sizes, out.strides);
    auto loop = [&](auto&& inner) {
      if (separate) for_each_strided_parallel_strips<3>(out.sizes, {&out, &a, &b}, inner);
      else for_each_strided_parallel<3>(out.sizes, {&out, &a, &b}, inner);
    };
    if constexpr (NanBits<T>::kHasChoice) {
      if (nan_choices) {
        NanPairSink sink{out.storage->data(), separate, nan_choices, {}};
        loop([&sink](std::byte* const* p, const int64_t* st, int64_t n) { binary_run_noting<T, Op<T>>(p, st, n, sink); });
        return;
      }
    }
    loop(binary_run<T, Op<T>>);
  });
}

template <class T>
T scalar_as(const Scalar& s) {
  if (s.is_floating()) return convert<T>(s.f);
  if (s.is_bool()) return convert<T>(s.i != 0);
  return convert<T>(s.i);
}

template <class T>
bool less(T a, T b) {
  return to_opmath(a) < to_opmath(b);
}

}  // namespace

void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b, std::vector<int64_t>* nan_choices) {
  SC_ASSERT(out.sizes == a.sizes && out.sizes == b.sizes);
  SC_ASSERT(out.dtype == a.dtype && out.dtype == b.dtype);
  switch (op) {
    case BinaryOp::Add: return run_binary<AddOp>(out, a, b, nan_choices);
    case BinaryOp::Sub: return run_binary<SubOp>(out, a, b, nan_choices);
    case BinaryOp::Mul: return run_binary<MulOp>(out, a, b, nan_choices);
    case BinaryOp::Div: return run_binary<DivOp>(out, a, b, nan_choices);
  }
}

// neg of a float16/bfloat16 flips the sign bit, except for a NaN (Note
// [NaN bits of LibTorch's loops]): LibTorch's scalar code negates in float
// and converts back; its vector chunks flip the bit (2.15) or, in 1.13, also
// negate in float and convert with the vector conversion.
template <class T>
T neg_reduced_float_nan(T v, bool in_vector_chunk) {
  if (in_vector_chunk && neg_reduced_float_vector_flips_sign()) return T{static_cast<uint16_t>(v.bits ^ 0x8000u)};
  const float f = -to_float(v);
  if constexpr (std::is_same_v<T, BFloat16>)
    return T{float_to_bfloat16(f, in_vector_chunk ? BFloat16Nan::Vector : BFloat16Nan::Scalar)};
  else return T{float_to_half(f)};
}

void vector_loop_nans(const Tensor& out, const Tensor& in) {
  if (out.dtype != DType::BFloat16) return;
  SC_ASSERT(out.sizes == in.sizes);
  for_each_strided_parallel<2>(out.sizes, {&out, &in}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
    const int64_t vector_n = vectorised_run<BFloat16>(st, 1) ? vector_end(n, kReducedFloatVectorChunk) : 0;
    for (int64_t i = 0; i < n; ++i) {
      BFloat16 v;
      std::memcpy(&v, p[0] + i * st[0], 2);
      if (!is_bfloat16_nan(v.bits)) continue;
      v.bits = i < vector_n ? kBFloat16VectorNan : kBFloat16ScalarNan;
      std::memcpy(p[0] + i * st[0], &v, 2);
    }
  });
}

void neg(const Tensor& out, const Tensor& a) {
  SC_ASSERT(out.sizes == a.sizes && out.dtype == a.dtype);
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for_each_strided_parallel<2>(out.sizes, {&out, &a}, [](std::byte* const* p, const int64_t* st, int64_t n) {
      [[maybe_unused]] const int64_t vector_n = vectorised_run<T>(st, 1) ? vector_end(n, kReducedFloatVectorChunk) : 0;
      for (int64_t i = 0; i < n; ++i) {
        T v = load<T>(p[1] + i * st[1]);
        T r;
        if constexpr (std::is_same_v<T, bool>) r = v;  // unreachable: neg raises for bool
        else if constexpr (std::is_integral_v<T>) r = static_cast<T>(wide_unsigned_t<T>(0) - static_cast<wide_unsigned_t<T>>(v));
        else if constexpr (std::is_same_v<T, BFloat16>) r = is_bfloat16_nan(v.bits) ? neg_reduced_float_nan(v, i < vector_n) : T{static_cast<uint16_t>(v.bits ^ 0x8000u)};
        else if constexpr (std::is_same_v<T, Half>) r = is_half_nan(v.bits) ? neg_reduced_float_nan(v, i < vector_n) : T{static_cast<uint16_t>(v.bits ^ 0x8000u)};
        else r = -v;
        std::memcpy(p[0] + i * st[0], &r, sizeof(T));
      }
    });
  });
}

// clamp's vector chunks load a float16/bfloat16 into float and store the
// result with the vector conversion (Note [NaN bits of LibTorch's loops]): a
// NaN comes back quieted with its payload (float16) or as 0xffff (bfloat16);
// every other value is unchanged. The scalar tail keeps the NaN's bits.
template <class T>
T through_vector_float(T v) {
  if constexpr (std::is_same_v<T, BFloat16>) return is_bfloat16_nan(v.bits) ? T{kBFloat16VectorNan} : v;
  else return is_half_nan(v.bits) ? T{float_to_half(to_float(v))} : v;
}

void clamp(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi) {
  SC_ASSERT(out.sizes == a.sizes && out.dtype == a.dtype);
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const bool has_lo = lo.has_value(), has_hi = hi.has_value();
    const T lv = has_lo ? scalar_as<T>(*lo) : T{};
    const T hv = has_hi ? scalar_as<T>(*hi) : T{};
    for_each_strided_parallel<2>(out.sizes, {&out, &a}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
      [[maybe_unused]] const int64_t vector_n = vectorised_run<T>(st, 1) ? vector_end(n, kReducedFloatVectorChunk) : 0;
      for (int64_t i = 0; i < n; ++i) {
        T v = load<T>(p[1] + i * st[1]);
        if constexpr (is_reduced_float_v<T>)
          if (i < vector_n) v = through_vector_float(v);
        // std::max(v, lo): returns v unless v < lo; std::min(v, hi): v unless hi < v.
        if (has_lo && less(v, lv)) v = lv;
        if (has_hi && less(hv, v)) v = hv;
        *reinterpret_cast<T*>(p[0] + i * st[0]) = v;
      }
    });
  });
}

}  // namespace sc::engine::cpu
