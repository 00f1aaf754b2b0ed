#pragma once
// The order a strided loop walks its dimensions in, shared by every device's
// kernels (CPU here, CUDA in engine/kernels/cuda): header-only, no engine
// types, host code only.
//
// Note [Loop dimension order]: N operands share one shape (inputs broadcast
// to it with stride 0). Before looping, as TensorIterator does:
//  1. reorder the dims, innermost first, by the operands' strides (operand 0,
//     the output, decides; a dim where an operand's stride is 0 leaves the
//     decision to the next operand; equal strides put the smaller size
//     inside) -- TensorIterator::reorder_dimensions, comparing |stride| so
//     that the engine's negative strides (flip) order like positive ones;
//  2. drop size-1 dims;
//  3. merge dim i into the one inside it when, for every operand,
//       stride[i] == stride[inside] * size[inside]
//     (TensorIterator::coalesce_dimensions).
// Size-1 dims take part in step 1 (Note [Size-1 dims in the loop order]).
//
// Note [Size-1 dims in the loop order]: TensorIterator sorts every dim of
// its shape, size-1 dims included, and a size-1 dim's strides are whatever
// its tensors have there (any value: an as_strided [1,3,2] with strides
// [0,1,4]). Its insertion sort stops at the first "keep the order" answer,
// and operands without an opinion (a stride 0) hand the question to the
// next one, so a size-1 dim can keep a real dim from moving inside past it:
// dst [1,3,2] strides [0,1,4] <- src strides [1,1,0] walks dim 2 innermost
// (dst's run strided: float -> bfloat16 writes 0x7fc0 for a NaN), where
// dst's own order (dim 1 inside: a contiguous run, 0xffff) is what sorting
// without the size-1 dim gives. So the size-1 dims are sorted too and only
// then dropped. (Never seen to matter where fast_set_up would make one run
// of every operand: all contiguous, all channels_last, or all dense with the
// same strides; simulated over 450,000 random layouts.) A loop whose every
// dim has size 1 is one dim of size 1 with the strides of the dim sorted
// outermost (coalesce_dimensions copies each next dim's strides into a
// size-1 dim): one element of a copy_ whose source was broadcast is a
// strided or stride-0 run, not always a contiguous one (Note [One element
// of rank 1 or more], cpu/copy_kernel.cpp).
// The elements visited are the same whatever the order; only the order of
// the visits changes, so results differ only where one location is written
// more than once (an op whose output overlaps itself: undefined in LibTorch
// too, and marked so by engine/undefined.h).
#include <cstddef>
#include <cstdint>

#include "engine/views/wrapping.h"

namespace sc::engine::kernels {

inline constexpr int kMaxLoopDims = 64;

template <size_t N>
struct DimOrder {
  int ndim = 0;                               // after reordering and coalescing
  // Entries past ndim are not initialised (this runs before every kernel).
  int64_t sizes[kMaxLoopDims];           // innermost first
  int64_t strides[N][kMaxLoopDims];      // strides[k][i]: operand k, dim i (caller's unit)
};

namespace detail {
// |v| without overflow (a size-1 dim's stride may be anything, INT64_MIN too).
inline uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }
}  // namespace detail

// ndim <= kMaxLoopDims dims, outermost first as a tensor stores them;
// strides[k] points at operand k's ndim strides (any unit, bytes for the CPU
// loop), size-1 dims included (they are sorted, then dropped). Dims of size
// 0 are kept (the caller decides what an empty loop does).
template <size_t N>
DimOrder<N> order_dims(int ndim, const int64_t* sizes, const int64_t* const* strides) {
  // perm[i]: the tensor dim walked at loop level i (0 innermost).
  int perm[kMaxLoopDims];
  for (int i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  // should_swap(inner, outer) > 0: `inner` belongs outside `outer`.
  auto should_swap = [&](int d0, int d1) {
    for (size_t k = 0; k < N; ++k) {
      const uint64_t s0 = detail::magnitude(strides[k][d0]), s1 = detail::magnitude(strides[k][d1]);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (sizes[d0] > sizes[d1]) return 1;
    }
    return 0;
  };
  // Insertion sort that tolerates "no opinion" (TensorIterator's).
  for (int i = 1; i < ndim; ++i) {
    int d1 = i;
    for (int d0 = i - 1; d0 >= 0; --d0) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        const int t = perm[d0];
        perm[d0] = perm[d1];
        perm[d1] = t;
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  DimOrder<N> g;
  bool all_size_one = ndim > 0;
  for (int level = 0; level < ndim; ++level) {
    const int d = perm[level];
    if (sizes[d] == 1) continue;
    all_size_one = false;
    const int i = g.ndim;
    bool merge = i > 0 && sizes[d] != 0 && g.sizes[i - 1] != 0;
    for (size_t k = 0; k < N && merge; ++k)  // wraps, as TensorIterator's int64 (a stride may be 2^62)
      merge = strides[k][d] == wrapping::mul(g.strides[k][i - 1], g.sizes[i - 1]);
    if (merge) {
      g.sizes[i - 1] = wrapping::mul(g.sizes[i - 1], sizes[d]);  // a numel past int64 wraps, as LibTorch's
      continue;
    }
    g.sizes[i] = sizes[d];
    for (size_t k = 0; k < N; ++k) g.strides[k][i] = strides[k][d];
    ++g.ndim;
  }
  if (all_size_one) {  // Note [Size-1 dims in the loop order]: the outermost dim's strides
    g.ndim = 1;
    g.sizes[0] = 1;
    for (size_t k = 0; k < N; ++k) g.strides[k][0] = strides[k][perm[ndim - 1]];
  }
  return g;
}

}  // namespace sc::engine::kernels
