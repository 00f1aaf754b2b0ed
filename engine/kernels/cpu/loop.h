#pragma once
// The strided-iteration core of the CPU kernels. N operands share one shape
// (inputs already broadcast to it: stride 0 on broadcast dims). The dims are
// reordered by stride and coalesced first (Note [Loop dimension order],
// engine/kernels/dim_order.h). The inner callable gets one run of the
// innermost dimension at a time:
//   inner(std::byte* const* ptrs, const int64_t* byte_strides, int64_t n)
// so typed loops stay tight and nothing is dispatched per element.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "engine/error.h"
#include "engine/kernels/cpu/parallel.h"
#include "engine/kernels/dim_order.h"
#include "engine/tensor.h"
#include "engine/views/wrapping.h"

namespace sc::engine::cpu {

using kernels::kMaxLoopDims;

// Byte strides, innermost first (kernels::DimOrder with the CPU's unit).
template <size_t N>
using LoopGeometry = kernels::DimOrder<N>;

template <size_t N>
LoopGeometry<N> make_geometry(const Shape& sizes, const std::array<const Tensor*, N>& ops) {
  // Size-1 dims move no pointer, but they take part in the order of the
  // others (Note [Size-1 dims in the loop order], dim_order.h). A tensor of
  // more than kMaxLoopDims dims (LibTorch allows them) loops over its other
  // dims, sorted without its size-1 ones.
  const bool keep_size_one = sizes.size() <= static_cast<size_t>(kMaxLoopDims);
  int64_t kept_sizes[kMaxLoopDims];
  int64_t byte_strides[N][kMaxLoopDims];
  const int64_t* rows[N];
  int nd = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1 && !keep_size_one) continue;
    SC_ASSERT(nd < kMaxLoopDims, "more than ", kMaxLoopDims, " dims of size != 1 in a CPU loop");
    kept_sizes[nd] = sizes[d];
    for (size_t k = 0; k < N; ++k)  // (wraps as TensorIterator's: a size-1 dim's stride may be anything)
      byte_strides[k][nd] = wrapping::mul(ops[k]->strides[d], itemsize(ops[k]->dtype));
    ++nd;
  }
  for (size_t k = 0; k < N; ++k) rows[k] = byte_strides[k];
  return kernels::order_dims<N>(nd, kept_sizes, rows);
}

template <size_t N>
std::array<std::byte*, N> base_pointers(const std::array<const Tensor*, N>& ops) {
  std::array<std::byte*, N> base;
  for (size_t k = 0; k < N; ++k)
    base[k] = ops[k]->storage->data() + ops[k]->storage_offset * itemsize(ops[k]->dtype);
  return base;
}

// Runs `inner` over dims [0, g.ndim) of g, restricted to indices [begin, end)
// of the outermost one (the whole of it when g.ndim == 0: one element).
template <size_t N, class Inner>
void run_geometry(const LoopGeometry<N>& g, std::array<std::byte*, N> ptr, int64_t begin, int64_t end,
                  Inner& inner) {
  std::array<int64_t, N> inner_strides{};
  if (g.ndim == 0) {
    inner(ptr.data(), inner_strides.data(), int64_t{1});
    return;
  }
  const int top = g.ndim - 1;
  for (size_t k = 0; k < N; ++k) ptr[k] += begin * g.strides[k][top];
  if (g.ndim == 1) {
    for (size_t k = 0; k < N; ++k) inner_strides[k] = g.strides[k][0];
    inner(ptr.data(), inner_strides.data(), end - begin);
    return;
  }
  for (size_t k = 0; k < N; ++k) inner_strides[k] = g.strides[k][0];
  const int64_t n0 = g.sizes[0];
  std::array<int64_t, kMaxLoopDims> idx;
  for (int d = 1; d < g.ndim; ++d) idx[d] = 0;
  idx[top] = begin;
  while (true) {
    inner(ptr.data(), inner_strides.data(), n0);
    int d = 1;
    for (; d < g.ndim; ++d) {
      const int64_t limit = d == top ? end : g.sizes[d];
      if (++idx[d] < limit) {
        for (size_t k = 0; k < N; ++k) ptr[k] += g.strides[k][d];
        break;
      }
      if (d == top) return;
      for (size_t k = 0; k < N; ++k) ptr[k] -= g.strides[k][d] * (g.sizes[d] - 1);
      idx[d] = 0;
    }
  }
}

inline bool any_empty(const Shape& sizes) {
  for (int64_t s : sizes)
    if (s == 0) return true;
  return false;
}

// Runs `inner` over every element of `sizes`, on this thread. ops[k] must
// have sizes.size() dims.
template <size_t N, class Inner>
void for_each_strided(const Shape& sizes, const std::array<const Tensor*, N>& ops, Inner&& inner) {
  if (any_empty(sizes)) return;
  const LoopGeometry<N> g = make_geometry<N>(sizes, ops);
  run_geometry<N>(g, base_pointers<N>(ops), 0, g.ndim == 0 ? 1 : g.sizes[g.ndim - 1], inner);
}

// Whether operand 0 (the written one) reaches each location at most once:
// its dims, innermost first (the order it decided), each step past the
// whole extent of the dims inside. A sufficient test (false may be wrong).
template <size_t N>
bool output_is_non_overlapping(const LoopGeometry<N>& g) {
  uint64_t extent = 0;  // bytes spanned by the dims inside d
  for (int d = 0; d < g.ndim; ++d) {
    const uint64_t s = kernels::detail::magnitude(g.strides[0][d]);  // (a one-element loop's may be anything)
    if (s == 0 || (d > 0 && s < extent)) return false;
    extent = s * static_cast<uint64_t>(g.sizes[d]);
  }
  return true;
}

// Runs `inner` over elements [begin, end) of g in the order run_geometry
// walks them (dim 0 fastest): a partial run, whole runs, a partial run.
template <size_t N, class Inner>
void run_geometry_span(const LoopGeometry<N>& g, std::array<std::byte*, N> ptr, int64_t begin, int64_t end,
                       Inner& inner) {
  std::array<int64_t, N> inner_strides{};
  if (g.ndim == 0) {
    if (begin < end) inner(ptr.data(), inner_strides.data(), int64_t{1});
    return;
  }
  for (size_t k = 0; k < N; ++k) inner_strides[k] = g.strides[k][0];
  const int64_t n0 = g.sizes[0];
  std::array<int64_t, kMaxLoopDims> idx;
  int64_t rest = begin;
  for (int d = 0; d < g.ndim; ++d) {
    idx[d] = rest % g.sizes[d];
    rest /= g.sizes[d];
    for (size_t k = 0; k < N; ++k) ptr[k] += idx[d] * g.strides[k][d];
  }
  int64_t at = begin;
  while (at < end) {
    const int64_t m = std::min(n0 - idx[0], end - at);
    inner(ptr.data(), inner_strides.data(), m);
    at += m;
    if (at >= end) return;
    // To the start of the next run.
    for (size_t k = 0; k < N; ++k) ptr[k] -= idx[0] * g.strides[k][0];
    idx[0] = 0;
    for (int d = 1; d < g.ndim; ++d) {
      if (++idx[d] < g.sizes[d]) {
        for (size_t k = 0; k < N; ++k) ptr[k] += g.strides[k][d];
        break;
      }
      for (size_t k = 0; k < N; ++k) ptr[k] -= g.strides[k][d] * (g.sizes[d] - 1);
      idx[d] = 0;
    }
  }
}

// Note [Pieces of a run]: with more than one thread, a loop is cut into
// pieces of about numel / pieces elements in walk order, so that a long
// contiguous run (a 1-D tensor: no outer dim to share) is shared too. A cut
// inside a run falls at a multiple of kPieceAlign elements from the run's
// start: the run's vector chunks (Note [NaN bits of LibTorch's loops]:
// kReducedFloatVectorChunk) and the vector loops' lanes then start where
// they start on one thread, and a piece's tail is the run's tail, so every
// byte is what one thread writes. (LibTorch's own threads cut anywhere, and
// its results then depend on the thread count: oracle/torch_runtime.cpp runs
// it on one thread; the engine imitates that one thread whatever its own
// count.) 64 elements are also at least a cache line for every dtype, so two
// threads never write one line.
inline constexpr int64_t kPieceAlign = 64;

// The first element of piece t of `pieces` (t == pieces: numel).
template <size_t N>
int64_t piece_begin(const LoopGeometry<N>& g, int64_t numel, int64_t t, int64_t pieces) {
  if (t >= pieces) return numel;
  const int64_t at = numel / pieces * t + numel % pieces * t / pieces;  // numel * t / pieces without overflow
  if (g.ndim == 0) return at;
  const int64_t col = at % g.sizes[0];
  return at - col % kPieceAlign;
}

// Runs `inner` over every element of g, in pieces on cpu::num_threads()
// threads (Note [Pieces of a run]) when the loop is large and operand 0 (the
// written one) reaches no location twice (Note [CPU kernel threads],
// parallel.h). `inner` must be safe to call concurrently on disjoint runs.
template <size_t N, class Inner>
void run_geometry_parallel(const LoopGeometry<N>& g, const std::array<std::byte*, N>& base, Inner& inner) {
  int64_t pieces = 1, numel = 1;
  if (output_is_non_overlapping(g)) {  // (else numel may overflow, and one thread runs)
    for (int d = 0; d < g.ndim; ++d) numel *= g.sizes[d];
    pieces = parallel_pieces(numel);
  }
  if (pieces <= 1) {
    run_geometry<N>(g, base, 0, g.ndim == 0 ? 1 : g.sizes[g.ndim - 1], inner);
    return;
  }
  parallel_tasks(pieces, [&](int64_t t) {
    run_geometry_span<N>(g, base, piece_begin(g, numel, t, pieces), piece_begin(g, numel, t + 1, pieces), inner);
  });
}

// Runs `inner` over every element of `sizes`, on cpu::num_threads() threads
// where run_geometry_parallel may.
template <size_t N, class Inner>
void for_each_strided_parallel(const Shape& sizes, const std::array<const Tensor*, N>& ops, Inner&& inner) {
  if (any_empty(sizes)) return;
  const LoopGeometry<N> g = make_geometry<N>(sizes, ops);
  run_geometry_parallel<N>(g, base_pointers<N>(ops), inner);
}

// Note [Strip-mined loops]: after reordering, dim 0 is the output's fastest
// dim. When an input moves faster along dim 1 than along dim 0 (a transposed
// operand: 0 < |stride[1]| < |stride[0]|), walking dim 0 innermost over its
// whole length touches that input one cache line and one page per element,
// and comes back to the same line only after all of them (1024 pages for a
// [1024,1024] float32: past the TLB). So dim 0 is walked in strips of
// kStripLength: for each strip, its run at every index of dim 1, then the
// next strip; each line of the transposed input is then used for all its
// elements while the strip's few pages are in the TLB. Only the order of
// the visits changes, and the runs keep their strides (a transposed input's
// run is strided, so no run is a contiguous one before or after), so this is
// for kernels whose result does not depend on that order: operand 0 shares
// no memory with the others.
inline constexpr int64_t kStripLength = 32;

template <size_t N>
bool wants_strips(const LoopGeometry<N>& g) {
  if (g.ndim < 2 || g.sizes[0] < 2 * kStripLength || g.sizes[1] < 8) return false;
  for (size_t k = 1; k < N; ++k) {
    const int64_t s0 = g.strides[k][0] < 0 ? -g.strides[k][0] : g.strides[k][0];
    const int64_t s1 = g.strides[k][1] < 0 ? -g.strides[k][1] : g.strides[k][1];
    if (s1 != 0 && s1 < s0) return true;
  }
  return false;
}

// for_each_strided_parallel, strip-mined where wants_strips says so (Note
// [Strip-mined loops]): operand 0 must share no memory with the others.
template <size_t N, class Inner>
void for_each_strided_parallel_strips(const Shape& sizes, const std::array<const Tensor*, N>& ops, Inner&& inner) {
  if (any_empty(sizes)) return;
  const LoopGeometry<N> g = make_geometry<N>(sizes, ops);
  if (!wants_strips(g)) return for_each_strided_parallel<N>(sizes, ops, inner);
  // The loop over dims 1..; each of its runs (n1 along dim 1) is a block of
  // the [sizes[0] x n1] plane, walked strip by strip.
  LoopGeometry<N> rows;
  rows.ndim = g.ndim - 1;
  for (int i = 1; i < g.ndim; ++i) {
    rows.sizes[i - 1] = g.sizes[i];
    for (size_t k = 0; k < N; ++k) rows.strides[k][i - 1] = g.strides[k][i];
  }
  const int64_t n0 = g.sizes[0];
  std::array<int64_t, N> s0;
  for (size_t k = 0; k < N; ++k) s0[k] = g.strides[k][0];
  auto plane = [&](std::byte* const* p, const int64_t* st, int64_t n1) {
    std::array<std::byte*, N> q;
    for (int64_t j0 = 0; j0 < n0; j0 += kStripLength) {
      const int64_t m = std::min(kStripLength, n0 - j0);
      for (int64_t i1 = 0; i1 < n1; ++i1) {
        for (size_t k = 0; k < N; ++k) q[k] = p[k] + j0 * s0[k] + i1 * st[k];
        inner(q.data(), s0.data(), m);
      }
    }
  };
  int64_t numel = output_is_non_overlapping(g) ? 1 : 0;  // 0: one thread
  for (int d = 0; d < g.ndim && numel > 0; ++d) numel *= g.sizes[d];
  const auto base = base_pointers<N>(ops);
  parallel_for(rows.sizes[rows.ndim - 1], numel,
               [&](int64_t begin, int64_t end) { run_geometry<N>(rows, base, begin, end, plane); });
}

}  // namespace sc::engine::cpu
