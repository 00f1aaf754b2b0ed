// Copy with dtype conversion over any strides: one typed loop per (dst, src)
// dtype pair, a memmove fast path for same-dtype contiguous runs.
#include <cstring>

#include "engine/error.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/loop.h"
#include "engine/kernels/cpu/types.h"

namespace sc::engine::cpu {
namespace {

template <class D, class S>
void copy_run(std::byte* const* p, const int64_t* st, int64_t n) {
  std::byte* d = p[0];
  const std::byte* s = p[1];
  if constexpr (std::is_same_v<D, S>) {
    if (st[0] == sizeof(D) && st[1] == sizeof(S)) {
      std::memmove(d, s, static_cast<size_t>(n) * sizeof(D));
      return;
    }
  }
  if (st[0] == sizeof(D) && st[1] == sizeof(S)) {
    D* dp = reinterpret_cast<D*>(d);
    for (int64_t i = 0; i < n; ++i) dp[i] = convert<D>(load<S>(s + i * sizeof(S)));
    return;
  }
  if (st[1] == 0) {  // broadcast source: convert once
    const D v = convert<D>(load<S>(s));
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<D*>(d + i * st[0]) = v;
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    *reinterpret_cast<D*>(d + i * st[0]) = convert<D>(load<S>(s + i * st[1]));
}

}  // namespace

void copy(const Tensor& dst, const Tensor& src) {
  SC_ASSERT(dst.sizes == src.sizes, "cpu::copy needs broadcast operands");
  SC_ASSERT(dst.device() == Device::CPU && src.device() == Device::CPU);
  dispatch_dtype(dst.dtype, [&](auto dt) {
    using D = typename decltype(dt)::type;
    dispatch_dtype(src.dtype, [&](auto stag) {
      using S = typename decltype(stag)::type;
      for_each_strided<2>(dst.sizes, {&dst, &src}, copy_run<D, S>);
    });
  });
}

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
    for_each_strided<1>(dst.sizes, {&dst}, [v](std::byte* const* p, const int64_t* st, int64_t n) {
      std::byte* d = p[0];
      if (st[0] == sizeof(D)) {
        D* dp = reinterpret_cast<D*>(d);
        for (int64_t i = 0; i < n; ++i) dp[i] = v;
      } else {
        for (int64_t i = 0; i < n; ++i) *reinterpret_cast<D*>(d + i * st[0]) = v;
      }
    });
  });
}

}  // namespace sc::engine::cpu
