#include "engine/copy.h"

#include <cstring>

#include "engine/creation.h"
#include "engine/error.h"
#include "engine/scalar.h"

namespace sc::engine {

// Plain loop over every index; the fast kernels replace this.
void copy_elements(const Tensor& dst, const Tensor& src) {
  SC_ASSERT(dst.sizes == src.sizes);
  const int64_t n = dst.numel();
  if (n == 0) return;
  const int64_t nd = dst.dim();
  const int64_t di = itemsize(dst.dtype), si = itemsize(src.dtype);
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  int64_t doff = dst.storage_offset, soff = src.storage_offset;
  const bool same = dst.dtype == src.dtype;
  for (int64_t k = 0; k < n; ++k) {
    std::byte* dp = dst.storage->data() + doff * di;
    const std::byte* sp = src.storage->data() + soff * si;
    if (same) std::memcpy(dp, sp, static_cast<size_t>(di));
    else if (is_floating(src.dtype)) store_double(dst.dtype, dp, load_double(src.dtype, sp));
    else store_int(dst.dtype, dp, load_int(src.dtype, sp));
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++idx[d] < dst.sizes[d]) {
        doff += dst.strides[d];
        soff += src.strides[d];
        break;
      }
      doff -= dst.strides[d] * (dst.sizes[d] - 1);
      soff -= src.strides[d] * (src.sizes[d] - 1);
      idx[d] = 0;
    }
  }
}

Tensor clone(const Tensor& self, MemoryFormat format) {
  // Placeholder layout rule (contiguous unless asked); the copy-ops work gives
  // the full preserve_format rule.
  Shape strides = format == MemoryFormat::Preserve ? contiguous_strides(self.sizes)
                                                   : strides_for_format(self.sizes, format);
  Tensor out = empty_strided(self.sizes, strides, self.dtype, self.device());
  copy_elements(out, self);
  return out;
}

Tensor contiguous(const Tensor& self, MemoryFormat format) {
  if (is_contiguous(self, format)) return self;
  return clone(self, format);
}

}  // namespace sc::engine
