// Fill and arithmetic on the GPU, the CUDA half of
// engine/kernels/cpu/{copy_kernel,elementwise_kernels}.cpp with the same
// rules: all operands share one dtype T, arithmetic runs in opmath_t<T>
// (float for float16/bfloat16) and rounds once, integers wrap, bool add is
// `or` and bool mul is `and`. A CPU scalar second operand (a wrapped number)
// is read on the host as opmath_t<T> and passed by value; division by one
// multiplies by its reciprocal, as LibTorch's div_true_kernel_cuda does for
// a CPU scalar divisor ("this may lose one bit of precision").
#include <algorithm>
#include <type_traits>

#include "engine/error.h"
#include "engine/kernels/cpu/types.h"
#include "engine/kernels/cuda/kernels.h"
#include "engine/kernels/cuda/strided_launch.cuh"

namespace sc::engine::cuda {
namespace {

using cpu::BFloat16;
using cpu::BinaryOp;
using cpu::convert;
using cpu::dispatch_dtype;
using cpu::Half;
using cpu::is_reduced_float_v;
using cpu::opmath_t;
using cpu::wide_unsigned_t;

template <class T>
__host__ __device__ opmath_t<T> to_opmath(T v) {
  if constexpr (is_reduced_float_v<T>) return cpu::to_float(v);
  else return v;
}
template <class T>
__host__ __device__ T from_opmath(opmath_t<T> v) {
  if constexpr (is_reduced_float_v<T>) return convert<T>(v);
  else return v;
}

// a op b in opmath_t<T> (for integers and bool, T itself).
template <class T>
__device__ opmath_t<T> apply(BinaryOp op, opmath_t<T> a, opmath_t<T> b) {
  using M = opmath_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return op == BinaryOp::Mul ? (a && b) : (op == BinaryOp::Sub ? a != b : (a || b));
  } else if constexpr (std::is_integral_v<T>) {
    using U = wide_unsigned_t<T>;
    switch (op) {
      case BinaryOp::Add: return static_cast<M>(static_cast<U>(a) + static_cast<U>(b));
      case BinaryOp::Sub: return static_cast<M>(static_cast<U>(a) - static_cast<U>(b));
      case BinaryOp::Mul: return static_cast<M>(static_cast<U>(a) * static_cast<U>(b));
      case BinaryOp::Div: return a;  // unreachable: integer division promotes to float first
    }
    return a;
  } else {
    switch (op) {
      case BinaryOp::Add: return a + b;
      case BinaryOp::Sub: return a - b;
      case BinaryOp::Mul: return a * b;
      case BinaryOp::Div: return a / b;
    }
    return a;
  }
}

// The op as a template parameter, so each kernel's loop has no switch.
template <class T, BinaryOp Op>
struct BinaryElement {
  __device__ void operator()(std::byte* const* p) const {
    const T a = load<T>(p[1]);
    const T b = load<T>(p[2]);
    *reinterpret_cast<T*>(p[0]) = from_opmath<T>(apply<T>(Op, to_opmath(a), to_opmath(b)));
  }
};

template <class T, BinaryOp Op>
struct BinaryScalarElement {
  opmath_t<T> b;
  __device__ void operator()(std::byte* const* p) const {
    const T a = load<T>(p[1]);
    *reinterpret_cast<T*>(p[0]) = from_opmath<T>(apply<T>(Op, to_opmath(a), b));
  }
};

template <class T, BinaryOp Op>
__global__ void __launch_bounds__(kThreads) contiguous_binary(T* out, const T* a, const T* b, int64_t n) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * kThreads * kWork;
  for (int64_t start = static_cast<int64_t>(blockIdx.x) * kThreads * kWork; start < n; start += step) {
#pragma unroll
    for (int j = 0; j < kWork; ++j) {
      const int64_t i = start + j * kThreads + threadIdx.x;
      if (i < n) out[i] = from_opmath<T>(apply<T>(Op, to_opmath(load<T>(a + i)), to_opmath(load<T>(b + i))));
    }
  }
}

// A wrapped number's value as opmath_t<T>: the 0-d CPU tensor is T, or
// float32 for a float16/bfloat16 T (Note [CPU scalars in CUDA kernels]).
template <class T>
opmath_t<T> host_scalar(const Tensor& s) {
  const std::byte* p = first_element(s);
  if (s.dtype == DType::Float32 && is_reduced_float_v<T>) return static_cast<opmath_t<T>>(*reinterpret_cast<const float*>(p));
  SC_ASSERT(itemsize(s.dtype) == sizeof(T), "a CPU scalar of another dtype");
  return to_opmath(cpu::load<T>(p));
}

template <class T, BinaryOp Op>
void binary_typed(const Tensor& out, const Tensor& a, const Tensor& b) {
  if (b.device() == Device::CPU) {
    // A wrapped number broadcast to out's sizes: every stride 0.
    SC_ASSERT(std::all_of(b.strides.begin(), b.strides.end(), [](int64_t s) { return s == 0; }),
              "a CPU operand of a CUDA kernel must be a broadcast scalar");
    opmath_t<T> bv = host_scalar<T>(b);
    if constexpr (Op == BinaryOp::Div && std::is_floating_point_v<opmath_t<T>>) {
      bv = opmath_t<T>(1) / bv;  // div_true_kernel_cuda: a * (1 / b) for a CPU scalar b
      const StridedGeometry<2> g = geometry_of<2>({&out, &a});
      launch_strided<2>(g, {first_element(out), first_element(a)}, BinaryScalarElement<T, BinaryOp::Mul>{bv});
    } else {
      const StridedGeometry<2> g = geometry_of<2>({&out, &a});
      launch_strided<2>(g, {first_element(out), first_element(a)}, BinaryScalarElement<T, Op>{bv});
    }
    return;
  }
  const StridedGeometry<3> g = geometry_of<3>({&out, &a, &b});
  const int64_t item = sizeof(T);
  if (g.ndim() == 1 && g.strides[0][0] == item && g.strides[1][0] == item && g.strides[2][0] == item) {
    const int64_t n = g.numel();
    contiguous_binary<T, Op><<<static_cast<unsigned>(grid_blocks(n, int64_t{kThreads} * kWork)), kThreads>>>(
        reinterpret_cast<T*>(first_element(out)), reinterpret_cast<const T*>(first_element(a)),
        reinterpret_cast<const T*>(first_element(b)), n);
    check_launch("contiguous_binary");
    return;
  }
  launch_strided<3>(g, {first_element(out), first_element(a), first_element(b)}, BinaryElement<T, Op>{});
}

template <class T>
struct NegElement {
  __device__ void operator()(std::byte* const* p) const {
    const T v = load<T>(p[1]);
    T r;
    if constexpr (std::is_same_v<T, bool>) r = v;  // unreachable: neg raises for bool
    else if constexpr (std::is_integral_v<T>) r = static_cast<T>(wide_unsigned_t<T>(0) - static_cast<wide_unsigned_t<T>>(v));
    else if constexpr (is_reduced_float_v<T>) r = T{static_cast<uint16_t>(v.bits ^ 0x8000u)};
    else r = -v;
    *reinterpret_cast<T*>(p[0]) = r;
  }
};

// min(max(v, lo), hi) as cpu::clamp: v unless v < lo; then v unless hi < v
// (compared in opmath_t; a NaN v stays NaN).
template <class T>
struct ClampElement {
  bool has_lo, has_hi;
  T lo, hi;
  __device__ void operator()(std::byte* const* p) const {
    T v = load<T>(p[1]);
    if (has_lo && to_opmath(v) < to_opmath(lo)) v = lo;
    if (has_hi && to_opmath(hi) < to_opmath(v)) v = hi;
    *reinterpret_cast<T*>(p[0]) = v;
  }
};

template <class T>
struct FillElement {
  T v;
  __device__ void operator()(std::byte* const* p) const { *reinterpret_cast<T*>(p[0]) = v; }
};

template <class T>
T scalar_as(const Scalar& s) {
  if (s.is_floating()) return convert<T>(s.f);
  if (s.is_bool()) return convert<T>(s.i != 0);
  return convert<T>(s.i);
}

}  // namespace

void binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b) {
  SC_ASSERT(out.sizes == a.sizes && out.sizes == b.sizes);
  SC_ASSERT(out.dtype == a.dtype);
  SC_ASSERT(out.device() == Device::CUDA && a.device() == Device::CUDA);
  SC_ASSERT(b.device() == Device::CPU || out.dtype == b.dtype);
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (op) {
      case BinaryOp::Add: return binary_typed<T, BinaryOp::Add>(out, a, b);
      case BinaryOp::Sub: return binary_typed<T, BinaryOp::Sub>(out, a, b);
      case BinaryOp::Mul: return binary_typed<T, BinaryOp::Mul>(out, a, b);
      case BinaryOp::Div:
        if constexpr (std::is_integral_v<T>) SC_ASSERT(false, "integer true division reaches the kernel");
        else return binary_typed<T, BinaryOp::Div>(out, a, b);
    }
  });
}

void neg(const Tensor& out, const Tensor& a) {
  SC_ASSERT(out.sizes == a.sizes && out.dtype == a.dtype);
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch_strided<2>(geometry_of<2>({&out, &a}), {first_element(out), first_element(a)}, NegElement<T>{});
  });
}

void clamp(const Tensor& out, const Tensor& a, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi) {
  SC_ASSERT(out.sizes == a.sizes && out.dtype == a.dtype);
  dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    ClampElement<T> f{lo.has_value(), hi.has_value(), lo ? scalar_as<T>(*lo) : T{}, hi ? scalar_as<T>(*hi) : T{}};
    launch_strided<2>(geometry_of<2>({&out, &a}), {first_element(out), first_element(a)}, f);
  });
}

// As cpu::fill: stride-0 dims are written once (filling is idempotent).
void fill(const Tensor& dst_in, const Scalar& value) {
  SC_ASSERT(dst_in.device() == Device::CUDA);
  Tensor dst = dst_in;
  dst.sizes.clear();
  dst.strides.clear();
  for (size_t i = 0; i < dst_in.sizes.size(); ++i) {
    if (dst_in.strides[i] == 0 && dst_in.sizes[i] != 0) continue;
    dst.sizes.push_back(dst_in.sizes[i]);
    dst.strides.push_back(dst_in.strides[i]);
  }
  dispatch_dtype(dst.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch_strided<1>(geometry_of<1>({&dst}), {first_element(dst)}, FillElement<T>{scalar_as<T>(value)});
  });
}

}  // namespace sc::engine::cuda
