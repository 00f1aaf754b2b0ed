#pragma once
// The generic strided kernel: a grid-stride loop in which each thread handles
// kWork elements kThreads apart (consecutive threads, consecutive elements of
// the innermost dimension: coalesced), each as f(byte pointers of its N
// operands). 32-bit indexing where the geometry allows it (launch.h).
#include <array>
#include <cstdint>
#include <type_traits>

#include "engine/kernels/cuda/check.h"
#include "engine/kernels/cuda/launch.h"
#include "engine/tensor.h"

namespace sc::engine::cuda {

// Reads one element on the device. A bool is read through its byte (nonzero is
// true), as cpu::load does: a `view dtype=bool` of other data holds bytes that
// are not valid C++ bools (the elements that read one are marked undefined).
template <class T>
__device__ __forceinline__ T load(const void* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *static_cast<const uint8_t*>(p) != 0;
  } else {
    return *static_cast<const T*>(p);
  }
}

inline constexpr int kThreads = 256;
inline constexpr int kWork = 4;

template <int N>
struct Ptrs {
  std::byte* p[N];
};

template <int N, class I, class F>
__global__ void __launch_bounds__(kThreads) strided_kernel(OffsetCalc<N, I> oc, Ptrs<N> base, I n, F f) {
  const I step = static_cast<I>(gridDim.x) * kThreads * kWork;
  for (I start = static_cast<I>(blockIdx.x) * kThreads * kWork; start < n; start += step) {
#pragma unroll
    for (int j = 0; j < kWork; ++j) {
      const I i = start + static_cast<I>(j * kThreads + threadIdx.x);
      if (i < n) {
        int64_t off[N];
        oc.offsets(i, off);
        std::byte* p[N];
#pragma unroll
        for (int k = 0; k < N; ++k) p[k] = base.p[k] + off[k];
        f(p);
      }
    }
  }
}

// Runs f over every element of g; base[k] is operand k's first element.
template <int N, class F>
void launch_strided(const StridedGeometry<N>& g, const std::array<std::byte*, N>& base, const F& f) {
  if (g.numel() == 0) return;
  const bool narrow = fits_32bit_indexing(g);
  const auto oc32 = inner_offset_calc<N, uint32_t>(g);
  const auto oc64 = inner_offset_calc<N, uint64_t>(g);
  for_each_launch<N>(g, [&](const std::array<int64_t, N>& off, int64_t n) {
    Ptrs<N> p;
    for (int k = 0; k < N; ++k) p.p[k] = base[k] + off[k];
    const unsigned blocks = static_cast<unsigned>(grid_blocks(n, int64_t{kThreads} * kWork));
    if (narrow) strided_kernel<N, uint32_t><<<blocks, kThreads>>>(oc32, p, static_cast<uint32_t>(n), f);
    else strided_kernel<N, uint64_t><<<blocks, kThreads>>>(oc64, p, static_cast<uint64_t>(n), f);
    check_launch("strided_kernel");
  });
}

// The geometry of N tensors of one shape (byte strides).
template <int N>
StridedGeometry<N> geometry_of(const std::array<const Tensor*, N>& ops) {
  std::array<std::vector<int64_t>, N> st;
  for (int k = 0; k < N; ++k) {
    const int64_t item = itemsize(ops[k]->dtype);
    for (int64_t s : ops[k]->strides) st[k].push_back(s * item);
  }
  return make_strided_geometry<N>(ops[0]->sizes, st);
}

inline std::byte* first_element(const Tensor& t) {
  return t.storage->data() + t.storage_offset * itemsize(t.dtype);
}

}  // namespace sc::engine::cuda
