#pragma once
// The index arithmetic of the CUDA kernels, as plain host/device code so the
// host can test it (tests/engine/kernels/cuda/launch_test.cpp) on machines
// without a GPU.
//
// Operands share one shape (inputs broadcast with stride 0). StridedGeometry
// puts the dimensions in the order TensorIterator's reorder_dimensions would
// (innermost first, by the first operand's |stride|, so consecutive threads
// write consecutive addresses), drops size-1 dimensions and merges adjacent
// ones when, for every operand, stride[outer] == stride[inner] * size[inner].
// OffsetCalc turns a linear index into one byte offset per operand; its index
// type I is uint32_t when every offset and the element count fit in 31 bits
// (cheap division), else uint64_t (64-bit indexing for big tensors).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "engine/host_device.h"

namespace sc::engine::cuda {

// Dimensions one launch handles; a geometry with more is split on the host
// into launches over its outermost dimensions.
inline constexpr int kMaxLaunchDims = 12;

template <int N>
struct StridedGeometry {
  std::vector<int64_t> sizes;                      // innermost first
  std::array<std::vector<int64_t>, N> strides;     // bytes, innermost first
  int ndim() const { return static_cast<int>(sizes.size()); }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
};

// sizes: the shared shape (outermost first, as in a header); strides[k][d]: operand k's byte stride.
template <int N>
StridedGeometry<N> make_strided_geometry(const std::vector<int64_t>& sizes,
                                         const std::array<std::vector<int64_t>, N>& byte_strides) {
  const int nd = static_cast<int>(sizes.size());
  std::vector<int> order;
  for (int d = nd - 1; d >= 0; --d)
    if (sizes[d] != 1) order.push_back(d);
  // Innermost first by the first operand's |stride|; ties keep the header's
  // order (a stable sort from the innermost header dim outwards).
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return std::llabs(byte_strides[0][a]) < std::llabs(byte_strides[0][b]);
  });
  StridedGeometry<N> g;
  for (int d : order) {
    const int i = g.ndim();
    bool merge = i > 0;
    for (int k = 0; k < N && merge; ++k) merge = byte_strides[k][d] == g.strides[k][i - 1] * g.sizes[i - 1];
    if (merge) {
      g.sizes[i - 1] *= sizes[d];
      continue;
    }
    g.sizes.push_back(sizes[d]);
    for (int k = 0; k < N; ++k) g.strides[k].push_back(byte_strides[k][d]);
  }
  return g;
}

// The largest |byte offset| any operand reaches from its base.
template <int N>
int64_t max_byte_extent(const StridedGeometry<N>& g) {
  int64_t m = 0;
  for (int k = 0; k < N; ++k) {
    int64_t e = 0;
    for (int d = 0; d < g.ndim(); ++d) e += std::llabs(g.strides[k][d]) * (g.sizes[d] - 1);
    m = std::max(m, e);
  }
  return m;
}

// Whether 32-bit indexing is exact for g (elements and byte offsets, with room
// for an element's own bytes).
template <int N>
bool fits_32bit_indexing(const StridedGeometry<N>& g) {
  const int64_t lim = int64_t{1} << 31;
  return g.numel() < lim && max_byte_extent(g) + 16 < lim;
}

template <int N, class I>
struct OffsetCalc {
  int ndim = 0;
  I sizes[kMaxLaunchDims] = {};
  int64_t strides[N][kMaxLaunchDims] = {};

  // Byte offsets of linear element `i` (innermost dimension fastest).
  SC_HOST_DEVICE void offsets(I i, int64_t* out) const {
    if (ndim == 1) {  // no division for one dimension (contiguous runs, 0-d operands broadcast)
      for (int k = 0; k < N; ++k) out[k] = static_cast<int64_t>(i) * strides[k][0];
      return;
    }
    for (int k = 0; k < N; ++k) out[k] = 0;
    for (int d = 0; d < ndim; ++d) {
      const I q = i / sizes[d];
      const I r = i - q * sizes[d];
      i = q;
      for (int k = 0; k < N; ++k) out[k] += static_cast<int64_t>(r) * strides[k][d];
    }
  }
};

// The launch for dimensions [0, min(ndim, kMaxLaunchDims)) of g.
template <int N, class I>
OffsetCalc<N, I> inner_offset_calc(const StridedGeometry<N>& g) {
  OffsetCalc<N, I> oc;
  oc.ndim = std::min(g.ndim(), kMaxLaunchDims);
  for (int d = 0; d < oc.ndim; ++d) {
    oc.sizes[d] = static_cast<I>(g.sizes[d]);
    for (int k = 0; k < N; ++k) oc.strides[k][d] = g.strides[k][d];
  }
  return oc;
}

// Calls f(std::array<int64_t, N> base_byte_offsets, int64_t inner_numel) once
// per launch: one launch when g fits kMaxLaunchDims, else one per index of the
// dimensions beyond it (a host loop, as TensorIterator splits big iterations).
template <int N, class F>
void for_each_launch(const StridedGeometry<N>& g, F&& f) {
  int64_t inner = 1;
  const int in_dims = std::min(g.ndim(), kMaxLaunchDims);
  for (int d = 0; d < in_dims; ++d) inner *= g.sizes[d];
  std::array<int64_t, N> base{};
  if (g.ndim() <= kMaxLaunchDims) {
    f(base, inner);
    return;
  }
  std::vector<int64_t> idx(static_cast<size_t>(g.ndim()), 0);
  while (true) {
    f(base, inner);
    int d = kMaxLaunchDims;
    for (; d < g.ndim(); ++d) {
      if (++idx[d] < g.sizes[d]) {
        for (int k = 0; k < N; ++k) base[k] += g.strides[k][d];
        break;
      }
      for (int k = 0; k < N; ++k) base[k] -= g.strides[k][d] * (g.sizes[d] - 1);
      idx[d] = 0;
    }
    if (d >= g.ndim()) return;
  }
}

// Grid size for a grid-stride loop over n items, `per_block` items a block:
// enough blocks to fill the GPU, at most `max_blocks`.
SC_HOST_DEVICE inline int64_t grid_blocks(int64_t n, int64_t per_block, int64_t max_blocks = 65535) {
  const int64_t b = (n + per_block - 1) / per_block;
  return b < 1 ? 1 : (b > max_blocks ? max_blocks : b);
}

// A batched 2-d transpose hidden in a same-element-size copy (NCHW <->
// channels_last, a transposed matrix): dimension 0 is contiguous in the
// destination (stride = item) and dimension `src_inner` is contiguous in the
// source; the other dimensions are the batch. Such copies go through 32x32
// shared-memory tiles so both the reads and the writes are coalesced.
struct TransposePlan {
  int src_inner = -1;  // -1: not a transpose
};

inline TransposePlan plan_transpose(const StridedGeometry<2>& g, int64_t item) {
  TransposePlan p;
  if (g.ndim() < 2 || g.strides[0][0] != item || g.strides[1][0] == item) return p;
  for (int d = 1; d < g.ndim(); ++d) {
    if (g.strides[1][d] == item) {
      if (g.sizes[0] >= 4 && g.sizes[d] >= 4) p.src_inner = d;
      break;
    }
  }
  return p;
}

}  // namespace sc::engine::cuda
