// squeeze, squeeze(dim), unsqueeze (TensorShape.cpp, inferSqueezeGeometry /
// inferUnsqueezeGeometry at v1.13). Every result is a new view, even when no
// dim is removed.
#include "engine/error.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "engine/views/wrapping.h"

namespace sc::engine {

// squeeze(): drop every size-1 dim.
Tensor squeeze(const Tensor& self) {
  Shape sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.sizes[d] != 1) {
      sizes.push_back(self.sizes[d]);
      strides.push_back(self.strides[d]);
    }
  }
  return checked_strided_view(self, std::move(sizes), std::move(strides), self.storage_offset, /*offset_passed=*/false);
}

// squeeze(dim): drop dim if its size is 1; 0-d and other sizes: same geometry.
Checked<Tensor> squeeze_checked(const Tensor& self, int64_t dim) {
  const int64_t dims = self.dim();
  SC_TRY_ASSIGN(dim, maybe_wrap_dim_checked(dim, dims));
  if (dims == 0 || self.sizes[dim] != 1)
    return strided_view_checked(self, self.sizes, self.strides, self.storage_offset, /*offset_passed=*/false);
  Shape sizes = self.sizes, strides = self.strides;
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return strided_view_checked(self, std::move(sizes), std::move(strides), self.storage_offset, /*offset_passed=*/false);
}

Tensor squeeze(const Tensor& self, int64_t dim) { return squeeze_checked(self, dim).value_or_throw(); }

// unsqueeze(dim), dim in [-(n+1), n]: insert size 1 with stride
// (dim == n ? 1 : sizes[dim] * strides[dim]) taken before the insertion.
Checked<Tensor> unsqueeze_checked(const Tensor& self, int64_t dim) {
  SC_TRY_ASSIGN(dim, maybe_wrap_dim_checked(dim, self.dim() + 1));
  Shape sizes = self.sizes, strides = self.strides;
  const int64_t new_stride = dim >= self.dim() ? 1 : wrapping::mul(sizes[dim], strides[dim]);
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, new_stride);
  // Change::UnsqueezeSymIntGeometry: 2.x computes the geometry as SymInts and
  // views it as IntArrayRefs in as_strided's CPU wrapper (strides first).
  if (since(Change::UnsqueezeSymIntGeometry)) {
    check_concrete_symints(strides);
    check_concrete_symints(sizes);
  }
  return strided_view_checked(self, std::move(sizes), std::move(strides), self.storage_offset, /*offset_passed=*/false);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) { return unsqueeze_checked(self, dim).value_or_throw(); }

}  // namespace sc::engine
