// Copy with dtype conversion over any strides: one typed loop per (dst, src)
// dtype pair over the reordered and coalesced dims (Note [Loop dimension
// order]). Contiguous runs: copy_bytes for the same dtype, vector conversions
// for float <-> float16/bfloat16 (half_convert.h), plain loops the compiler
// vectorises otherwise. A source whose fastest dim is not the
// destination's (a transpose, NCHW -> channels_last) is copied in tiles
// (Note [Tiled transposing copy]).
#include <algorithm>
#include <cstring>

#include "engine/error.h"
#include "engine/kernels/cpu/byte_copy.h"
#include "engine/kernels/cpu/half_convert.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/loop.h"
#include "engine/kernels/cpu/transpose_tile.h"
#include "engine/kernels/cpu/types.h"
#include "engine/layout.h"
#include "engine/nan_bits.h"

namespace sc::engine::cpu {
namespace {


// n contiguous elements, src -> dst.
// kLoopNans: the copy kernel's own NaN bits (Note [NaN bits of LibTorch's
// loops]); false for cpu::convert, the conversion a kernel does on load.
template <class D, class S, bool kLoopNans>
void copy_contiguous(D* dp, const std::byte* s, int64_t n) {
  [[maybe_unused]] const S* sp = reinterpret_cast<const S*>(s);
  if constexpr (std::is_same_v<D, S>) {
    copy_bytes(reinterpret_cast<std::byte*>(dp), s, static_cast<size_t>(n) * sizeof(D));  // Note [Short contiguous copies]
  } else if constexpr (std::is_same_v<D, Half> && std::is_same_v<S, float>) {
    float_to_half_run(reinterpret_cast<uint16_t*>(dp), sp, n);
  } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, Half>) {
    half_to_float_run(dp, reinterpret_cast<const uint16_t*>(sp), n);
  } else if constexpr (std::is_same_v<D, BFloat16> && std::is_same_v<S, float>) {
    float_to_bfloat16_run(reinterpret_cast<uint16_t*>(dp), sp, n);
  } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, BFloat16>) {
    bfloat16_to_float_run(dp, reinterpret_cast<const uint16_t*>(sp), n);
  } else {
    for (int64_t i = 0; i < n; ++i) dp[i] = convert<D>(load<S>(s + i * sizeof(S)));
    // Note [NaN bits of LibTorch's loops]: double -> bfloat16's vector chunks.
    if constexpr (kLoopNans && std::is_same_v<D, BFloat16> && std::is_same_v<S, double>)
      for (int64_t i = 0; i < vector_end(n, kDoubleToBFloat16VectorChunk); ++i)
        if (is_bfloat16_nan(dp[i].bits)) dp[i].bits = kBFloat16VectorNan;
  }
}

template <class D, class S, bool kLoopNans>
void copy_run(std::byte* const* p, const int64_t* st, int64_t n) {
  std::byte* d = p[0];
  const std::byte* s = p[1];
  if (st[0] == sizeof(D) && st[1] == sizeof(S)) {
    copy_contiguous<D, S, kLoopNans>(reinterpret_cast<D*>(d), s, n);
    return;
  }
  if (st[1] == 0) {  // broadcast source: convert once
    const D v = convert<D>(load<S>(s));
    if (st[0] == sizeof(D)) {
      std::fill_n(reinterpret_cast<D*>(d), n, v);
      return;
    }
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<D*>(d + i * st[0]) = v;
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<D*>(d + i * st[0]) = convert<D>(load<S>(s + i * st[1]));
}

// Note [Tiled transposing copy]: after reordering, dim 0 is the
// destination's fastest dim. When the source moves fastest along dim 1
// instead (|src stride 1| < |src stride 0|), walking dim 0 innermost reads
// the source a cache line per element, and walking dim 1 innermost writes
// the destination that way; both are far from memory bandwidth for anything
// past the caches. So dims 0 and 1 are copied in kTile x kTile blocks (each
// block's source and destination lines stay in L1 while it is copied), the
// other dims loop outside. Worth it only when both dims are long enough.
constexpr int64_t kTile = 32;
constexpr int64_t kMinTiledSize = 8;

template <size_t N>
bool wants_tiles(const LoopGeometry<N>& g) {
  if (g.ndim < 2 || g.sizes[0] < kMinTiledSize || g.sizes[1] < kMinTiledSize) return false;
  const int64_t s0 = g.strides[1][0] < 0 ? -g.strides[1][0] : g.strides[1][0];
  const int64_t s1 = g.strides[1][1] < 0 ? -g.strides[1][1] : g.strides[1][1];
  return s1 != 0 && s1 < s0;
}

// The [n0 x n1] plane of dims 0 and 1 at (d, s).
template <class D, class S>
void copy_plane_tiled(std::byte* d, const std::byte* s, int64_t n0, int64_t ds0, int64_t ss0, int64_t n1,
                      int64_t ds1, int64_t ss1) {
  for (int64_t j1 = 0; j1 < n1; j1 += kTile) {
    const int64_t e1 = std::min(n1, j1 + kTile);
    for (int64_t j0 = 0; j0 < n0; j0 += kTile) {
      const int64_t e0 = std::min(n0, j0 + kTile);
      std::byte* db = d + j0 * ds0 + j1 * ds1;
      const std::byte* sb = s + j0 * ss0 + j1 * ss1;
      if constexpr (std::is_same_v<D, S> && (sizeof(D) == 4 || sizeof(D) == 8)) {
        if (ds0 == sizeof(D) && ss1 == sizeof(D)) {
          transpose_block<sizeof(D)>(db, ds1, sb, ss0, e0 - j0, e1 - j1);
          continue;
        }
      }
      for (int64_t i1 = j1; i1 < e1; ++i1) {
        std::byte* dr = d + i1 * ds1;
        const std::byte* sr = s + i1 * ss1;
        for (int64_t i0 = j0; i0 < e0; ++i0)
          *reinterpret_cast<D*>(dr + i0 * ds0) = convert<D>(load<S>(sr + i0 * ss0));
      }
    }
  }
}

// same_sizes: src had dst's sizes before it was broadcast to them (every
// copy but a broadcasting copy_), so TensorIterator's fast_set_up applies.
template <class D, class S, bool kLoopNans>
void copy_typed(const Tensor& dst, const Tensor& src, bool same_sizes) {
  if (any_empty(dst.sizes)) return;
  // Note [One element of rank 1 or more]: for operands of the same sizes,
  // LibTorch's iterator takes fast_set_up (a one-element tensor is
  // contiguous whatever its strides) and keeps one dim for rank >= 1: a
  // contiguous run of one, copied on the run's path (float -> bfloat16:
  // 0xffff for a NaN, Note [NaN bits of LibTorch's loops]); a 0-d one has no
  // dim and takes the scalar path (0x7fc0) (generated seed 8080080 of the
  // special-value runs: to bfloat16 of an as_strided [1,1,1,1,1] of a NaN,
  // 1.13 and 2.15). A source broadcast from other sizes (copy_ of a 0-d or
  // [1] tensor into a [1,1]) takes the general path instead, whose one dim
  // keeps the strides coalescing leaves (Note [Size-1 dims in the loop
  // order], dim_order.h): dst stride 1 with a stride-0 source converts once
  // on the scalar path (0x7fc0), any other dst stride is a strided run
  // (0x7fc0 too); the geometry below makes that run.
  if constexpr (kLoopNans) {
    if (same_sizes && dst.dim() > 0 && dst.numel() == 1) {
      const auto base = base_pointers<2>({&dst, &src});
      copy_contiguous<D, S, kLoopNans>(reinterpret_cast<D*>(base[0]), base[1], 1);
      return;
    }
  }
  const LoopGeometry<2> g = make_geometry<2>(dst.sizes, {&dst, &src});
  const auto base = base_pointers<2>({&dst, &src});
  if (!wants_tiles(g)) {
    auto run = copy_run<D, S, kLoopNans>;
    run_geometry_parallel<2>(g, base, run);
    return;
  }
  // parallel_for's size: 0 (one thread) when dst may reach a location twice.
  int64_t numel = output_is_non_overlapping(g) ? 1 : 0;
  for (int d = 0; d < g.ndim && numel > 0; ++d) numel *= g.sizes[d];
  // The loop over dims 1.. whose runs are rows of planes: each run of n
  // along dim 1 is an [sizes[0] x n] block of the plane.
  LoopGeometry<2> rows;
  rows.ndim = g.ndim - 1;
  for (int i = 1; i < g.ndim; ++i) {
    rows.sizes[i - 1] = g.sizes[i];
    for (int k = 0; k < 2; ++k) rows.strides[k][i - 1] = g.strides[k][i];
  }
  const int64_t n0 = g.sizes[0], ds0 = g.strides[0][0], ss0 = g.strides[1][0];
  auto plane = [&](std::byte* const* p, const int64_t* st, int64_t n1) {
    copy_plane_tiled<D, S>(p[0], p[1], n0, ds0, ss0, n1, st[0], st[1]);
  };
  const int64_t outer = rows.sizes[rows.ndim - 1];
  parallel_for(outer, numel, [&](int64_t b, int64_t e) { run_geometry<2>(rows, base, b, e, plane); });
}

}  // namespace

// Note [NaN bits of LibTorch's loops]: 2.15's copy_ converts float16 ->
// float32 with fbgemm where both tensors are contiguous (or dst dense with
// src's strides) and of the same sizes (copy_impl's USE_FBGEMM block), in
// memory order, 8 at a time, then its scalar tail, which writes 0x7fffffff
// for a NaN. (Measured: a [3,9] slice -> float32 goes through the copy kernel
// and quiets every NaN; its contiguous [9] copy ends in 0x7fffffff.) The same
// path float32 -> float16 writes 0x7fff in the tail in 2.5 (measured: [27]
// ends in 3 x 0x7fff after 24 x 0xff00), keeps the payload later.
// 2.0 to 2.4 (FbgemmFloatToHalfChunksKeepPayload): that path's chunks keep
// the payload where c10::Half, which the engine's kernel follows, does not.
void fbgemm_copy_tail_nans(const Tensor& dst, const Tensor& src) {
  const bool to_float = dst.dtype == DType::Float32 && src.dtype == DType::Float16;
  const bool to_half = dst.dtype == DType::Float16 && src.dtype == DType::Float32;
  const bool half_tail = to_half && float_to_half_copy_tail_all_ones();
  const bool half_chunks = to_half && float_to_half_copy_chunks_keep_payload();
  if (!(to_float && half_to_float_copy_tail_all_ones()) && !half_tail && !half_chunks) return;
  if (!((is_contiguous(dst.sizes, dst.strides) && is_contiguous(src.sizes, src.strides)) ||
        (is_non_overlapping_and_dense(dst.sizes, dst.strides) && dst.strides == src.strides)))
    return;
  const int64_t n = dst.numel();
  if (n == 0) return;  // (an empty storage's data may be null: no pointer arithmetic on it)
  const int64_t tail = vector_end(n, kHalfToFloatCopyChunk);
  if (to_float) {
    float* block = reinterpret_cast<float*>(dst.storage->data()) + dst.storage_offset;  // dense: n floats
    for (int64_t i = tail; i < n; ++i)
      if (block[i] != block[i]) block[i] = bits_to_float(kHalfToFloatCopyTailNan);
    return;
  }
  uint16_t* block = reinterpret_cast<uint16_t*>(dst.storage->data()) + dst.storage_offset;  // dense: n halves
  // The source is read again, so only where the copy wrote none of its bytes.
  const std::byte* s_lo = src.storage->data() + src.storage_offset * 4;
  const std::byte* d_lo = reinterpret_cast<const std::byte*>(block);
  const bool disjoint = src.storage != dst.storage || s_lo + n * 4 <= d_lo || d_lo + n * 2 <= s_lo;
  if (half_chunks && disjoint) {
    const float* from = reinterpret_cast<const float*>(s_lo);  // dense with dst's strides: element i is block[i]'s
    for (int64_t i = 0; i < tail; ++i)
      if (from[i] != from[i]) block[i] = float_to_half(from[i], HalfNan::KeepPayload);
  }
  if (half_tail)
    for (int64_t i = tail; i < n; ++i)
      if ((block[i] & 0x7fffu) > 0x7c00u) block[i] = kFloatToHalfCopyTailNan;
}

template <bool kLoopNans, bool kFbgemmTail>
void copy_or_convert(const Tensor& dst, const Tensor& src, bool same_sizes = true) {
  SC_ASSERT(dst.sizes == src.sizes, "cpu::copy needs broadcast operands");
  SC_ASSERT(dst.device() == Device::CPU && src.device() == Device::CPU);
  dispatch_dtype(dst.dtype, [&](auto dt) {
    using D = typename decltype(dt)::type;
    dispatch_dtype(src.dtype, [&](auto stag) {
      using S = typename decltype(stag)::type;
      copy_typed<D, S, kLoopNans>(dst, src, same_sizes);
    });
  });
  if (kFbgemmTail) fbgemm_copy_tail_nans(dst, src);
}

void copy(const Tensor& dst, const Tensor& src) { copy_or_convert<true, true>(dst, src); }
void copy_kernel_only(const Tensor& dst, const Tensor& src) { copy_or_convert<true, false>(dst, src); }
void copy_broadcast(const Tensor& dst, const Tensor& src) { copy_or_convert<true, false>(dst, src, false); }
void convert(const Tensor& dst, const Tensor& src) { copy_or_convert<false, false>(dst, src); }

// Filling is idempotent, so a location reached many times through stride-0
// dims (an expanded tensor: LibTorch's fill_ has no overlap check) is written
// once: the loop runs over the other dims only, O(distinct locations), not
// O(numel) (expand [1000000000,4] is filled in 4 writes). Size-0 dims stay
// (nothing is written then).
void fill(const Tensor& dst_in, const Scalar& value) {
  SC_ASSERT(dst_in.device() == Device::CPU);
  Tensor dst = dst_in;
  dst.sizes.clear();
  dst.strides.clear();
  for (size_t i = 0; i < dst_in.sizes.size(); ++i) {
    if (dst_in.strides[i] == 0 && dst_in.sizes[i] != 0) continue;
    dst.sizes.push_back(dst_in.sizes[i]);
    dst.strides.push_back(dst_in.strides[i]);
  }
  dispatch_dtype(dst.dtype, [&](auto dt) {
    using D = typename decltype(dt)::type;
    D v;
    if (value.is_floating()) v = convert<D>(value.f);
    else if (value.is_bool()) v = convert<D>(value.i != 0);
    else v = convert<D>(value.i);
    for_each_strided_parallel<1>(dst.sizes, {&dst}, [v](std::byte* const* p, const int64_t* st, int64_t n) {
      std::byte* d = p[0];
      if (st[0] == sizeof(D)) {
        // Blocks of 8 with a constant trip count: the default build's -O2
        // (GCC 12's very-cheap cost model) vectorises them, not fill_n's loop
        // of unknown length (as creation.cpp's iota_as).
        int64_t i = 0;
        for (; i + 8 <= n; i += 8) {
          D block[8];
          for (int k = 0; k < 8; ++k) block[k] = v;
          std::memcpy(d + i * static_cast<int64_t>(sizeof(D)), block, sizeof block);
        }
        for (; i < n; ++i) std::memcpy(d + i * static_cast<int64_t>(sizeof(D)), &v, sizeof(D));
      } else {
        for (int64_t i = 0; i < n; ++i) *reinterpret_cast<D*>(d + i * st[0]) = v;
      }
    });
  });
}

}  // namespace sc::engine::cpu
