// Arithmetic kernels: add, sub, mul, div, neg, clamp. All operands share one
// dtype T; arithmetic runs in opmath_t<T> (float for float16/bfloat16, as
// at::opmath_type) and rounds once to T. Integers wrap.
#include <algorithm>

#include "engine/error.h"
#include "engine/kernels/cpu/binary_runs.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/loop.h"
#include "engine/kernels/cpu/types.h"

namespace sc::engine::cpu {
namespace {

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
void binary_run(std::byte* const* p, const int64_t* st, int64_t n) {
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

template <template <class> class Op>
void run_binary(const Tensor& out, const Tensor& a, const Tensor& b) {
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for_each_strided_parallel<3>(out.sizes, {&out, &a, &b}, binary_run<T, Op<T>>);
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

void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  SC_ASSERT(out.sizes == a.sizes && out.sizes == b.sizes);
  SC_ASSERT(out.dtype == a.dtype && out.dtype == b.dtype);
  switch (op) {
    case BinaryOp::Add: return run_binary<AddOp>(out, a, b);
    case BinaryOp::Sub: return run_binary<SubOp>(out, a, b);
    case BinaryOp::Mul: return run_binary<MulOp>(out, a, b);
    case BinaryOp::Div: return run_binary<DivOp>(out, a, b);
  }
}

void neg(const Tensor& out, const Tensor& a) {
  SC_ASSERT(out.sizes == a.sizes && out.dtype == a.dtype);
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for_each_strided_parallel<2>(out.sizes, {&out, &a}, [](std::byte* const* p, const int64_t* st, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        T v = load<T>(p[1] + i * st[1]);
        T r;
        if constexpr (std::is_same_v<T, bool>) r = v;  // unreachable: neg raises for bool
        else if constexpr (std::is_integral_v<T>) r = static_cast<T>(wide_unsigned_t<T>(0) - static_cast<wide_unsigned_t<T>>(v));
        else if constexpr (is_reduced_float_v<T>) r = T{static_cast<uint16_t>(v.bits ^ 0x8000u)};
        else r = -v;
        *reinterpret_cast<T*>(p[0] + i * st[0]) = r;
      }
    });
  });
}

void clamp(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi) {
  SC_ASSERT(out.sizes == a.sizes && out.dtype == a.dtype);
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const bool has_lo = lo.has_value(), has_hi = hi.has_value();
    const T lv = has_lo ? scalar_as<T>(*lo) : T{};
    const T hv = has_hi ? scalar_as<T>(*hi) : T{};
    for_each_strided_parallel<2>(out.sizes, {&out, &a}, [&](std::byte* const* p, const int64_t* st, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        T v = load<T>(p[1] + i * st[1]);
        // std::max(v, lo): returns v unless v < lo; std::min(v, hi): v unless hi < v.
        if (has_lo && less(v, lv)) v = lv;
        if (has_hi && less(hv, v)) v = hv;
        *reinterpret_cast<T*>(p[0] + i * st[0]) = v;
      }
    });
  });
}

}  // namespace sc::engine::cpu
