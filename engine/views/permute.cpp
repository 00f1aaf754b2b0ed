// transpose, t, mT, T, permute, movedim: reorder the header's dims
// (aten/src/ATen/native/TensorShape.cpp at v1.13).
#include <algorithm>
#include <numeric>

#include "engine/error.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "engine/views/shape_math_impl.h"
#include "engine/warnings.h"

namespace sc::engine {

// transpose(d0, d1): swap sizes[d0] <-> sizes[d1] and strides[d0] <-> strides[d1].
// d0 == d1 (after wrapping) is self.alias(): a new view, never self.
// The view once both dims are wrapped: shared by the two forms, so the
// throwing one builds its result in place (a Checked<Tensor> costs two moves
// of the header: 12 -> 22 ns per transpose, bench/view_ops_bench).
namespace {
// One returned object (`out`), so it is built in the caller's slot: a second
// return (alias(self)) made the compiler build it on the stack and copy it
// out, reading the optional _base back wider than written: 13 -> 9.6 ns).
Tensor transposed(const Tensor& self, int64_t dim0, int64_t dim1) {
  Tensor out = make_view(self, self.sizes, self.strides, self.storage_offset);  // swapped in place
  Shape& sizes = out.sizes;
  Shape& strides = out.strides;
  if (dim0 == dim1) {  // self.alias(): alias_with_sizes_and_strides's checks
    shape_math::set_sizes_and_strides_checks(sizes, strides);
    return out;
  }
  std::swap(sizes[dim0], sizes[dim1]);
  std::swap(strides[dim0], strides[dim1]);
  // A plain geometry passes every check below (Note [plain view geometry]).
  if (!is_plain_view_geometry(self, sizes, strides, self.storage_offset)) [[unlikely]] {
    check_concrete_symints(strides);  // as_strided_symint(sym sizes, sym strides)
    check_concrete_symints(sizes);
    check_as_strided_in_order(self, sizes, strides, self.storage_offset, /*offset_passed=*/false);
  }
  return out;
}
}  // namespace

Checked<Tensor> transpose_checked(const Tensor& self, int64_t dim0, int64_t dim1) {
  SC_TRY_ASSIGN(dim0, maybe_wrap_dim_checked(dim0, self.dim()));
  SC_TRY_ASSIGN(dim1, maybe_wrap_dim_checked(dim1, self.dim()));
  return transposed(self, dim0, dim1);
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  dim0 = maybe_wrap_dim(dim0, self.dim());
  dim1 = maybe_wrap_dim(dim1, self.dim());
  return transposed(self, dim0, dim1);
}

// t(): dim <= 2; transpose(0, dim < 2 ? 0 : 1), so a view even for 0-d and 1-d.
Checked<Tensor> t_checked(const Tensor& self) {
  SC_CHECK_OR_RETURN(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return transpose_checked(self, 0, self.dim() < 2 ? 0 : 1);
}

Tensor t(const Tensor& self) { return t_checked(self).value_or_throw(); }

// mT: transpose(-2, -1) for dim >= 2; a 0-d tensor is returned as is (self,
// the same object: measured with LibTorch 1.13); 1-d raises.
Checked<Tensor> mT_checked(const Tensor& self) {
  if (self.dim() == 0) {
    if (since(Change::TransposeProperties0dWarn))
      warn("Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases.");
    return self;
  }
  SC_CHECK_OR_RETURN(self.dim() >= 2, "tensor.mT is only supported on matrices or batches of matrices. Got ",
                     self.dim(), "-D tensor.");
  return transpose_checked(self, -2, -1);
}

Tensor mT(const Tensor& self) { return mT_checked(self).value_or_throw(); }

// T (numpy_T): permute(n-1, ..., 0); warns (TORCH_WARN_ONCE) unless dim is 0 or 2.
Tensor T(const Tensor& self) {
  const int64_t n = self.dim();
  if (n == 0 && since(Change::TransposeProperties0dWarn))
    warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.");
  if (n != 2 && n != 0)
    warn("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
         "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
         "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.");
  Shape dims(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) dims[i] = n - 1 - i;
  return permute(self, dims);
}

// permute(dims): len(dims) == dim; out.sizes[i] = sizes[wrap(dims[i])], same
// for strides; each dim once. (LibTorch's message names sparse_coo for every layout.)
namespace {
// permute's checks, one body for both forms; the throwing form builds its
// result in place (a Checked<Tensor> costs a move of the header).
MaybeFailure permute_rank_failure(const Tensor& self, const Shape& dims) {
  const int64_t ndim = self.dim();
  SC_CHECK_OR_RETURN(ndim == static_cast<int64_t>(dims.size()),
                     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                     "desired ordering of dimensions i.e. input.dim() = ",
                     ndim, " is not equal to len(dims) = ", dims.size());
  return std::nullopt;
}
// Fills out's sizes and strides (out has dims.size() dims).
MaybeFailure permute_fill(const Tensor& self, const Shape& dims, Tensor& out) {
  const int64_t ndim = self.dim();
  Shape seen(dims.size());  // a Shape of flags: inline and already zero for the usual ranks (no memset)
  for (int64_t i = 0; i < ndim; ++i) {
    int64_t d = 0;
    SC_TRY_ASSIGN(d, maybe_wrap_dim_checked(dims[i], ndim));
    SC_CHECK_OR_RETURN(seen[d] == 0, "permute(): duplicate dims are not allowed.");
    seen[d] = 1;
    out.sizes[i] = self.sizes[d];
    out.strides[i] = self.strides[d];
  }
  return std::nullopt;
}
}  // namespace

Checked<Tensor> permute_checked(const Tensor& self, const Shape& dims) {
  SC_TRY(permute_rank_failure(self, dims));
  Tensor out = make_view_of_rank(self, dims.size(), self.storage_offset);  // filled in place
  SC_TRY(permute_fill(self, dims, out));
  check_as_strided(self, out.sizes, out.strides, self.storage_offset, /*offset_passed=*/false);
  return out;
}

Tensor permute(const Tensor& self, const Shape& dims) {
  throw_if(permute_rank_failure(self, dims));
  Tensor out = make_view_of_rank(self, dims.size(), self.storage_offset);  // filled in place
  throw_if(permute_fill(self, dims, out));
  check_as_strided(self, out.sizes, out.strides, self.storage_offset, /*offset_passed=*/false);
  return out;
}

// movedim(src, dst): source dims go to the destination positions; the other
// dims keep their relative order in the remaining positions. A 0-d input is
// self.alias() (after the checks).
Checked<Tensor> movedim_checked(const Tensor& self, const Shape& src, const Shape& dst) {
  SC_CHECK_OR_RETURN(src.size() == dst.size(), "movedim: Invalid source or destination dims: source (",
                     format_int_list(src), " dims) should contain the same number of dims as destination (",
                     format_int_list(dst), " dims)");
  const int64_t ndim = self.dim();
  Shape nsrc(src.size()), ndst(dst.size());
  for (size_t i = 0; i < src.size(); ++i) SC_TRY_ASSIGN(nsrc[i], maybe_wrap_dim_checked(src[i], ndim));
  for (size_t i = 0; i < dst.size(); ++i) SC_TRY_ASSIGN(ndst[i], maybe_wrap_dim_checked(dst[i], ndim));
  auto all_unique = [](Shape v) {
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) == v.end();
  };
  SC_CHECK_OR_RETURN(all_unique(nsrc), "movedim: repeated dim in `source` (", format_int_list(src), ")");
  SC_CHECK_OR_RETURN(all_unique(ndst), "movedim: repeated dim in `destination` (", format_int_list(dst), ")");
  if (ndim == 0) return alias(self);

  Shape order(static_cast<size_t>(ndim)), rest_src(static_cast<size_t>(ndim)), rest_dst(static_cast<size_t>(ndim));
  std::iota(rest_src.begin(), rest_src.end(), 0);
  std::iota(rest_dst.begin(), rest_dst.end(), 0);
  for (size_t i = 0; i < src.size(); ++i) {
    order[ndst[i]] = nsrc[i];
    rest_src[nsrc[i]] = -1;
    rest_dst[ndst[i]] = -1;
  }
  rest_src.erase(std::remove(rest_src.begin(), rest_src.end(), -1), rest_src.end());
  rest_dst.erase(std::remove(rest_dst.begin(), rest_dst.end(), -1), rest_dst.end());
  SC_ASSERT(rest_src.size() == rest_dst.size());
  for (size_t i = 0; i < rest_src.size(); ++i) order[rest_dst[i]] = rest_src[i];
  return permute_checked(self, order);
}

Tensor movedim(const Tensor& self, const Shape& src, const Shape& dst) {
  return movedim_checked(self, src, dst).value_or_throw();
}


}  // namespace sc::engine
