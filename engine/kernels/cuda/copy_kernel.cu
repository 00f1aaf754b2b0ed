// Copy with dtype conversion over any strides on the GPU, the CUDA half of
// engine/kernels/cpu/copy_kernel.cpp with the same conversions
// (cpu::convert, compiled for the device: Note [float to integer on CUDA]).
// Same-dtype copies move raw elements by size: one cudaMemcpyAsync for a
// contiguous run, 32x32 shared-memory tiles for a (batched) transpose, the
// strided kernel otherwise. Converting copies use a contiguous kernel or the
// strided kernel, one instantiation per (dst, src) dtype pair.
#include "engine/error.h"
#include "engine/kernels/cpu/types.h"
#include "engine/kernels/cuda/kernels.h"
#include "engine/kernels/cuda/strided_launch.cuh"

namespace sc::engine::cuda {
namespace {

using cpu::convert;
using cpu::dispatch_dtype;

template <class D, class S>
struct ConvertElement {
  __device__ void operator()(std::byte* const* p) const {
    *reinterpret_cast<D*>(p[0]) = convert<D>(load<S>(p[1]));
  }
};

template <class D, class S>
__global__ void __launch_bounds__(kThreads) contiguous_convert(D* d, const S* s, int64_t n) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * kThreads * kWork;
  for (int64_t start = static_cast<int64_t>(blockIdx.x) * kThreads * kWork; start < n; start += step) {
#pragma unroll
    for (int j = 0; j < kWork; ++j) {
      const int64_t i = start + j * kThreads + threadIdx.x;
      if (i < n) d[i] = convert<D>(load<S>(s + i));
    }
  }
}

// An unsigned integer of each element size (raw copies move bits).
template <int Size> struct Bits;
template <> struct Bits<1> { using type = uint8_t; };
template <> struct Bits<2> { using type = uint16_t; };
template <> struct Bits<4> { using type = uint32_t; };
template <> struct Bits<8> { using type = uint64_t; };

template <class T>
struct RawElement {
  __device__ void operator()(std::byte* const* p) const {
    *reinterpret_cast<T*>(p[0]) = *reinterpret_cast<const T*>(p[1]);
  }
};

constexpr int kTile = 32;
constexpr int kTileRows = 8;

// dst[a, b] = src[a, b] for one batch of tiles: a is contiguous in dst, b in
// src. Reads go along b and writes along a, each a full warp wide.
template <class T, class I>
__global__ void __launch_bounds__(kTile * kTileRows)
    transpose_tiles(std::byte* dst, const std::byte* src, int64_t size_a, int64_t size_b, int64_t dst_stride_b,
                    int64_t src_stride_a, OffsetCalc<2, I> batch, I batches, int64_t tiles_a) {
  __shared__ T tile[kTile][kTile + 1];
  const int64_t ta = blockIdx.x % tiles_a, tb = blockIdx.x / tiles_a;
  const int64_t a0 = ta * kTile, b0 = tb * kTile;
  for (I z = blockIdx.y; z < batches; z += gridDim.y) {
    int64_t off[2];
    batch.offsets(z, off);
    const std::byte* s = src + off[1];
    std::byte* d = dst + off[0];
#pragma unroll
    for (int j = 0; j < kTile; j += kTileRows) {
      const int64_t a = a0 + threadIdx.y + j, b = b0 + threadIdx.x;
      if (a < size_a && b < size_b)
        tile[threadIdx.y + j][threadIdx.x] = *reinterpret_cast<const T*>(s + a * src_stride_a + b * int64_t{sizeof(T)});
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kTile; j += kTileRows) {
      const int64_t b = b0 + threadIdx.y + j, a = a0 + threadIdx.x;
      if (a < size_a && b < size_b)
        *reinterpret_cast<T*>(d + a * int64_t{sizeof(T)} + b * dst_stride_b) = tile[threadIdx.x][threadIdx.y + j];
    }
    __syncthreads();
  }
}

template <class T>
void launch_transpose(const StridedGeometry<2>& g, int src_inner, std::byte* dst, const std::byte* src) {
  StridedGeometry<2> batch;
  for (int d = 1; d < g.ndim(); ++d) {
    if (d == src_inner) continue;
    batch.sizes.push_back(g.sizes[d]);
    for (int k = 0; k < 2; ++k) batch.strides[k].push_back(g.strides[k][d]);
  }
  const int64_t size_a = g.sizes[0], size_b = g.sizes[src_inner];
  const int64_t tiles_a = (size_a + kTile - 1) / kTile, tiles_b = (size_b + kTile - 1) / kTile;
  const int64_t nb = batch.numel();
  const dim3 block(kTile, kTileRows);
  const dim3 grid(static_cast<unsigned>(tiles_a * tiles_b), static_cast<unsigned>(grid_blocks(nb, 1)));
  if (fits_32bit_indexing(batch)) {
    transpose_tiles<T, uint32_t><<<grid, block>>>(dst, src, size_a, size_b, g.strides[0][src_inner], g.strides[1][0],
                                                  inner_offset_calc<2, uint32_t>(batch), static_cast<uint32_t>(nb),
                                                  tiles_a);
  } else {
    transpose_tiles<T, uint64_t><<<grid, block>>>(dst, src, size_a, size_b, g.strides[0][src_inner], g.strides[1][0],
                                                  inner_offset_calc<2, uint64_t>(batch), static_cast<uint64_t>(nb),
                                                  tiles_a);
  }
  check_launch("transpose_tiles");
}

// Whether a tiled launch covers g: the tile grid fits one launch and the batch one OffsetCalc.
bool transpose_fits(const StridedGeometry<2>& g, int src_inner) {
  const int64_t tiles = ((g.sizes[0] + kTile - 1) / kTile) * ((g.sizes[src_inner] + kTile - 1) / kTile);
  return tiles < (int64_t{1} << 31) && g.ndim() - 2 <= kMaxLaunchDims;
}

template <int Size>
void raw_copy(const StridedGeometry<2>& g, std::byte* dst, std::byte* src) {
  using T = typename Bits<Size>::type;
  if (g.ndim() <= 1 && (g.ndim() == 0 || (g.strides[0][0] == Size && g.strides[1][0] == Size))) {
    device_to_device(dst, src, g.numel() * Size);
    return;
  }
  const TransposePlan plan = plan_transpose(g, Size);
  if (plan.src_inner > 0 && transpose_fits(g, plan.src_inner)) return launch_transpose<T>(g, plan.src_inner, dst, src);
  launch_strided<2>(g, {dst, src}, RawElement<T>{});
}

}  // namespace

void copy(const Tensor& dst, const Tensor& src) {
  SC_ASSERT(dst.sizes == src.sizes, "cuda::copy needs broadcast operands");
  SC_ASSERT(dst.device() == Device::CUDA && src.device() == Device::CUDA);
  const StridedGeometry<2> g = geometry_of<2>({&dst, &src});
  if (g.numel() == 0) return;
  std::byte* d = first_element(dst);
  std::byte* s = first_element(src);
  if (dst.dtype == src.dtype) {
    switch (itemsize(dst.dtype)) {
      case 1: return raw_copy<1>(g, d, s);
      case 2: return raw_copy<2>(g, d, s);
      case 4: return raw_copy<4>(g, d, s);
      case 8: return raw_copy<8>(g, d, s);
    }
    SC_ASSERT(false, "unexpected itemsize");
  }
  const int64_t di = itemsize(dst.dtype), si = itemsize(src.dtype);
  const bool contiguous = g.ndim() <= 1 && (g.ndim() == 0 || (g.strides[0][0] == di && g.strides[1][0] == si));
  dispatch_dtype(dst.dtype, [&](auto dt) {
    using D = typename decltype(dt)::type;
    dispatch_dtype(src.dtype, [&](auto stag) {
      using S = typename decltype(stag)::type;
      if constexpr (!std::is_same_v<D, S>) {
        if (contiguous) {
          const int64_t n = g.numel();
          contiguous_convert<D, S><<<static_cast<unsigned>(grid_blocks(n, int64_t{kThreads} * kWork)), kThreads>>>(
              reinterpret_cast<D*>(d), reinterpret_cast<const S*>(s), n);
          check_launch("contiguous_convert");
        } else {
          launch_strided<2>(g, {d, s}, ConvertElement<D, S>{});
        }
      }
    });
  });
}

}  // namespace sc::engine::cuda
