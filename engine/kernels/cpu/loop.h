#pragma once
// The strided-iteration core of the CPU kernels. N operands share one shape
// (inputs already broadcast to it: stride 0 on broadcast dims). Dimensions of
// size 1 are dropped and adjacent dimensions are merged when, for every
// operand, stride[outer] == stride[inner] * size[inner] (dimension
// coalescing, as TensorIterator::coalesce_dimensions). The inner callable gets
// one run of the innermost dimension at a time:
//   inner(std::byte* const* ptrs, const int64_t* byte_strides, int64_t n)
// so typed loops stay tight and nothing is dispatched per element.
#include <array>
#include <cstddef>
#include <cstdint>

#include "engine/tensor.h"

namespace sc::engine::cpu {

inline constexpr int kMaxLoopDims = 64;

template <size_t N>
struct LoopGeometry {
  int ndim = 0;  // after dropping size-1 dims and coalescing; innermost first
  std::array<int64_t, kMaxLoopDims> sizes{};
  std::array<std::array<int64_t, kMaxLoopDims>, N> byte_strides{};
};

template <size_t N>
LoopGeometry<N> make_geometry(const Shape& sizes, const std::array<const Tensor*, N>& ops) {
  LoopGeometry<N> g;
  for (size_t d = sizes.size(); d-- > 0;) {
    if (sizes[d] == 1) continue;
    const int i = g.ndim;
    bool merge = i > 0;
    for (size_t k = 0; k < N && merge; ++k) {
      const int64_t st = ops[k]->strides[d] * itemsize(ops[k]->dtype);
      merge = st == g.byte_strides[k][i - 1] * g.sizes[i - 1];
    }
    if (merge) {
      g.sizes[i - 1] *= sizes[d];
      continue;
    }
    g.sizes[i] = sizes[d];
    for (size_t k = 0; k < N; ++k) g.byte_strides[k][i] = ops[k]->strides[d] * itemsize(ops[k]->dtype);
    ++g.ndim;
  }
  return g;
}

// Runs `inner` over every element of `sizes`. ops[k] must have sizes.size() dims.
template <size_t N, class Inner>
void for_each_strided(const Shape& sizes, const std::array<const Tensor*, N>& ops, Inner&& inner) {
  for (int64_t s : sizes)
    if (s == 0) return;
  const LoopGeometry<N> g = make_geometry<N>(sizes, ops);
  std::array<std::byte*, N> base;
  for (size_t k = 0; k < N; ++k)
    base[k] = ops[k]->storage->data() + ops[k]->storage_offset * itemsize(ops[k]->dtype);
  std::array<int64_t, N> inner_strides{};
  if (g.ndim == 0) {
    inner(base.data(), inner_strides.data(), int64_t{1});
    return;
  }
  for (size_t k = 0; k < N; ++k) inner_strides[k] = g.byte_strides[k][0];
  const int64_t n0 = g.sizes[0];
  std::array<int64_t, kMaxLoopDims> idx{};
  std::array<std::byte*, N> ptr = base;
  while (true) {
    inner(ptr.data(), inner_strides.data(), n0);
    int d = 1;
    for (; d < g.ndim; ++d) {
      if (++idx[d] < g.sizes[d]) {
        for (size_t k = 0; k < N; ++k) ptr[k] += g.byte_strides[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) ptr[k] -= g.byte_strides[k][d] * (g.sizes[d] - 1);
      idx[d] = 0;
    }
    if (d >= g.ndim) return;
  }
}

}  // namespace sc::engine::cpu
