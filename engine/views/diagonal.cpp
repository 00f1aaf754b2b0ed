// diagonal, unfold, as_strided: views whose strides combine or repeat the
// input's (TensorShape.cpp at v1.13).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "engine/error.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "engine/views/wrapping.h"

namespace sc::engine {

// diagonal(offset, d1, d2): drop d1 and d2, append a dim of
//   size = max(min(size[d1], size[d2] - offset), 0)       for offset >= 0
//          max(min(size[d1] + offset, size[d2]), 0)       for offset < 0
//   stride = stride[d1] + stride[d2]
// and move the start by offset * stride[d2] (or -offset * stride[d1]) unless the
// diagonal is empty.
Checked<Tensor> diagonal_checked(const Tensor& self, int64_t offset, int64_t dim1_, int64_t dim2_) {
  const int64_t ndim = self.dim();
  int64_t dim1 = 0, dim2 = 0;
  SC_TRY_ASSIGN(dim1, maybe_wrap_dim_checked(dim1_, ndim));
  SC_TRY_ASSIGN(dim2, maybe_wrap_dim_checked(dim2_, ndim));
  SC_CHECK_OR_RETURN(dim1 != dim2, "diagonal dimensions cannot be identical ", dim1_, ", ", dim2_);
  int64_t storage_offset = self.storage_offset;
  int64_t size1 = 0, size2 = 0;
  SC_TRY_ASSIGN(size1, size_at_checked(self, dim1));
  SC_TRY_ASSIGN(size2, size_at_checked(self, dim2));
  const int64_t diag_size = offset >= 0 ? std::max<int64_t>(std::min(size1, wrapping::sub(size2, offset)), 0)
                                        : std::max<int64_t>(std::min(wrapping::add(size1, offset), size2), 0);
  if (diag_size != 0) {
    // int64 that wraps, as LibTorch's (UBSan: 3 * 2^62 from the domain generator's strides)
    if (offset >= 0) storage_offset = wrapping::add(storage_offset, wrapping::mul(offset, self.strides[dim2]));
    else storage_offset = wrapping::sub(storage_offset, wrapping::mul(offset, self.strides[dim1]));
  }
  Shape sizes = self.sizes, strides = self.strides;
  const int64_t hi = std::max(dim1, dim2), lo = std::min(dim1, dim2);
  sizes.erase(sizes.begin() + hi);
  strides.erase(strides.begin() + hi);
  sizes.erase(sizes.begin() + lo);
  strides.erase(strides.begin() + lo);
  sizes.push_back(diag_size);
  strides.push_back(wrapping::add(self.strides[dim1], self.strides[dim2]));  // int64 that wraps, as LibTorch
  return strided_view_checked(self, std::move(sizes), std::move(strides), storage_offset);
}

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  return diagonal_checked(self, offset, dim1, dim2).value_or_throw();
}

// unfold(dim, size, step): dim becomes (size[dim] - size) / step + 1 windows
// of stride step * stride[dim], and a last dim of `size` with stride
// stride[dim]. A 0-d input counts as one element (dim wraps as a scalar's).
// Both forms share the checks and build the header in place (Note [view ops
// built in place], engine/views/slice.cpp).
namespace {
// The argument checks; `dimension` wrapped.
MaybeFailure unfold_args_failure(const Tensor& self, int64_t& dimension, int64_t size, int64_t step) {
  SC_TRY_ASSIGN(dimension, maybe_wrap_dim_checked(dimension, self.dim(), /*wrap_scalar=*/true));
  const int64_t nd = self.dim();
  const int64_t max_size = nd == 0 ? 1 : self.sizes[dimension];
  if (since(Change::UnfoldChecksSize)) SC_CHECK_OR_RETURN(size >= 0, "size is ", size, " but must be >= 0");
  SC_CHECK_OR_RETURN(size <= max_size, "maximum size for tensor at dimension ", dimension, " is ", max_size,
                     " but size is ", size);
  SC_CHECK_OR_RETURN(step > 0, "step is ", step, " but must be > 0");
  return std::nullopt;
}
// The unfolded header, filled in place, before as_strided's checks.
Tensor unfolded(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  const int64_t nd = self.dim();
  Tensor out = make_view_of_rank(self, static_cast<size_t>(nd + 1), self.storage_offset);
  Shape& sizes = out.sizes;
  Shape& strides = out.strides;
  sizes[nd] = size;
  strides[nd] = nd == 0 ? 1 : self.strides[dimension];
  for (int64_t d = 0; d < nd; ++d) {
    if (d == dimension) {
      sizes[d] = wrapping::add(wrapping::div(wrapping::sub(self.sizes[d], size), step), 1);
      strides[d] = wrapping::mul(step, self.strides[d]);
    } else {
      sizes[d] = self.sizes[d];
      strides[d] = self.strides[d];
    }
  }
  return out;
}
}  // namespace

Checked<Tensor> unfold_checked(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  SC_TRY(unfold_args_failure(self, dimension, size, step));
  Tensor out = unfolded(self, dimension, size, step);
  SC_TRY(as_strided_failure(self, out.sizes, out.strides, out.storage_offset, /*offset_passed=*/false));
  return out;
}

Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  throw_if(unfold_args_failure(self, dimension, size, step));
  Tensor out = unfolded(self, dimension, size, step);
  check_as_strided(self, out.sizes, out.strides, out.storage_offset, /*offset_passed=*/false);
  return out;
}

// as_strided(size, stride, offset): any header within the storage; the offset
// is absolute in the storage and defaults to self's storage_offset. The
// checks before as_strided's own are shared by both forms (Note [view ops
// built in place]).
namespace {
// view_offset: the offset the view takes (self's when none is given).
MaybeFailure as_strided_args_failure(const Tensor& self, const Shape& size, const Shape& stride,
                                     std::optional<int64_t> storage_offset, int64_t& view_offset) {
  if (storage_offset) SC_TRY(symint_failure(*storage_offset));
  SC_TRY(symint_list_failure(stride));
  SC_TRY(symint_list_failure(size));
  const int64_t offset = storage_offset.value_or(self.storage_offset);
  if (size.empty() && stride.empty() && since(Change::AsStridedChecksOffsetOverflow)) {
    // An empty stride list has no data(): 2.x's checkInBoundsForStorage then
    // takes computeStorageNbytesContiguous(sizes, itemsize, offset), whose
    // overflow message names no strides (measured: as_strided [] [] 2^62; and
    // before Change::AsStridedChecksNegativeOffsetFirst any negative offset,
    // added in uint64).
    if (since(Change::AsStridedChecksNegativeOffsetFirst))
      SC_CHECK_OR_RETURN(offset >= 0, "Tensor: invalid storage offset ", offset);
    int64_t nbytes = 0;
    SC_TRY_ASSIGN(nbytes, compute_storage_nbytes_contiguous_checked(Shape{}, itemsize(self.dtype), offset));
    (void)nbytes;
  }
  view_offset = offset;
  return std::nullopt;
}
}  // namespace

Checked<Tensor> as_strided_checked(const Tensor& self, const Shape& size, const Shape& stride,
                                   std::optional<int64_t> storage_offset) {
  int64_t offset = 0;
  SC_TRY(as_strided_args_failure(self, size, stride, storage_offset, offset));
  return strided_view_checked(self, size, stride, offset, storage_offset.has_value());
}

Tensor as_strided(const Tensor& self, const Shape& size, const Shape& stride, std::optional<int64_t> storage_offset) {
  int64_t offset = 0;
  throw_if(as_strided_args_failure(self, size, stride, storage_offset, offset));
  return checked_strided_view(self, size, stride, offset, storage_offset.has_value());
}

}  // namespace sc::engine
