#pragma once
// View ops: pure functions from header to header (STYLE lesson 1). They never
// touch bytes, except reshape/flatten/contiguous-like decisions that fall back
// to a copy when no view can express the result (STYLE lesson 2).
// Each family lives in its own file under engine/views/. Errors carry
// LibTorch's kind and exact message (engine/error.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/checked.h"
#include "engine/error.h"
#include "engine/tensor.h"

namespace sc::engine {

// ---- engine/views/shape_math.cpp ------------------------------------------
// LibTorch's maybe_wrap_dim: wraps a negative dim; IndexError "Dimension out of
// range (expected to be in range of [-2, 1], but got 5)" otherwise. A 0-d
// tensor wraps as if it had one dim when wrap_scalar, else IndexError
// "Dimension specified as 0 but tensor has no dimensions".
// The in-range case is inline (view ops wrap one or two dims per call).
// The `_checked` forms return the error (Note [errors returned, not thrown]).
int64_t maybe_wrap_dim_slow(int64_t dim, int64_t ndim, bool wrap_scalar);
Checked<int64_t> maybe_wrap_dim_slow_checked(int64_t dim, int64_t ndim, bool wrap_scalar);
inline int64_t maybe_wrap_dim(int64_t dim, int64_t ndim, bool wrap_scalar = true) {
  if (ndim > 0 && dim >= -ndim && dim < ndim) return dim < 0 ? dim + ndim : dim;
  return maybe_wrap_dim_slow(dim, ndim, wrap_scalar);
}
inline Checked<int64_t> maybe_wrap_dim_checked(int64_t dim, int64_t ndim, bool wrap_scalar = true) {
  if (ndim > 0 && dim >= -ndim && dim < ndim) return dim < 0 ? dim + ndim : dim;
  return maybe_wrap_dim_slow_checked(dim, ndim, wrap_scalar);
}
// TensorImpl::size(dim): maybe_wrap_dim(dim, self.dim(), wrap_scalar=false).
int64_t size_at(const Tensor& self, int64_t dim);
Checked<int64_t> size_at_checked(const Tensor& self, int64_t dim);
// at::infer_size: resolves one -1; "shape '[2, -1]' is invalid for input of size 7".
// LibTorch throws two of its messages as a plain std::runtime_error rather than
// a c10::Error: PlainRuntimeError (engine/checked.h).
Shape infer_size(const Shape& shape, int64_t numel);
Checked<Shape> infer_size_checked(const Shape& shape, int64_t numel);
// at::detail::computeStride (TensorUtils.cpp): strides for viewing (sizes,
// strides) as new_sizes without a copy, or nullopt when no view can.
std::optional<Shape> compute_stride(const Shape& old_sizes, const Shape& old_strides, const Shape& new_sizes);
// The SymInt overloads (infer_size_dv(SymIntArrayRef, SymInt), computeStride
// over SymIntArrayRefs), which reshape uses: the same, but in 1.13 a product
// that wraps below -2^62 raises "Expected !is_symbolic() to be true, ..."
// (Note [SymInt arithmetic] in shape_math.cpp; Change::LargeNegativeSymInt).
// c10::SymInt's product of two concrete ints (Note [SymInt arithmetic]).
int64_t symint_mul(int64_t a, int64_t b);
// 2.1+ keeps such a product (below -2^62) as a heap-allocated SymInt, which
// LibTorch refuses where it then views a SymInt list as ints (flatten's
// reshape): check_concrete_symints below.
Shape infer_size_symint(const Shape& shape, int64_t numel);
std::optional<Shape> compute_stride_symint(const Shape& old_sizes, const Shape& old_strides, const Shape& new_sizes);
// at::detail::computeStorageNbytes with LibTorch 1.13's unsigned overflow
// checks: "Storage size calculation overflowed with sizes=[..] and strides=[..]".
// With storage_offset (c10's computeStorageNbytes overload), the size starts
// at offset + 1 (wrapping as uint64) instead of 1.
int64_t compute_storage_nbytes(const Shape& sizes, const Shape& strides, int64_t itemsize, int64_t storage_offset = 0);
Checked<int64_t> compute_storage_nbytes_checked(const Shape& sizes, const Shape& strides, int64_t itemsize,
                                                int64_t storage_offset = 0);
// TensorImpl::set_sizes_and_strides (1.13), which at::empty_strided, the
// TensorIterator's outputs and view(dtype) go through: a negative stride is
// replaced, from the last dim inwards, by 1 (last dim) or
// stride[d+1] * max(size[d+1], 1) (1.13 lets that product wrap, measured:
// empty_strided [0,2^62] [-2,3] runs), so negative strides rarely survive.
Shape set_sizes_and_strides_strides(const Shape& sizes, Shape strides);
void set_sizes_and_strides_strides_in_place(const Shape& sizes, Shape& strides);
// TensorImpl::empty_tensor_restride(Contiguous) in 2.x
// (Change::StrideCalculationChecksOverflow): "Stride calculation overflowed"
// when stride[i+1] * max(size[i+1], 1) overflows int64; 1.13 wraps (a no-op there).
void check_contiguous_stride_calculation(const Shape& sizes);
MaybeFailure contiguous_stride_failure(const Shape& sizes);  // its error returned
// TensorImpl::safe_compute_numel: "numel: integer multiplication overflow"
// when the product of the sizes (as uint64) overflows or exceeds INT64_MAX.
// (A negative size is a huge unsigned value: it raises unless a later size is 0.)
[[noreturn]] void raise_numel_overflow();
inline bool numel_overflows(const Shape& sizes) {
  uint64_t n = 1;
  bool overflows = false;
  for (int64_t s : sizes) overflows |= __builtin_mul_overflow(n, static_cast<uint64_t>(s), &n);
  return overflows | (n > static_cast<uint64_t>(INT64_MAX));
}
inline void check_numel(const Shape& sizes) {
  if (numel_overflows(sizes)) [[unlikely]]
    raise_numel_overflow();
}
// check_numel's error returned (Note [errors returned, not thrown]).
Failure numel_overflow_failure();
inline MaybeFailure numel_failure(const Shape& sizes) {
  if (numel_overflows(sizes)) [[unlikely]]
    return numel_overflow_failure();
  return std::nullopt;
}
// at::detail::computeStorageNbytesContiguous, 1.13: the product of the sizes
// and the itemsize as uint64, overflow sticky (a later 0 size does not clear
// it): "Storage size calculation overflowed with sizes=[..]".
// With a storage offset (resize_'s form): (product + offset) * itemsize, the
// same overflow rules, computed even when a size is 0.
int64_t compute_storage_nbytes_contiguous(const Shape& sizes, int64_t itemsize, int64_t storage_offset = 0);
Checked<int64_t> compute_storage_nbytes_contiguous_checked(const Shape& sizes, int64_t itemsize,
                                                          int64_t storage_offset = 0);
// LibTorch 1.13's c10::SymInt reserves the int64 values below -2^62 (top bits
// 0b10) for symbolic ints. Passing such a value where the C++ API converts an
// int to a SymInt raises, before the op runs:
//   one int (slice start/end/step, as_strided storage_offset):
//     "Expected !is_symbolic() to be true, but got false.  (Could this error
//      message be improved?  If so, please report an enhancement request to PyTorch.)"
//   an int list (view, reshape, expand sizes; as_strided size and stride):
//     "IntArrayRef contains an int that cannot be represented as a SymInt: <v>"
// (measured with LibTorch 1.13.1 C++). Arguments are converted right to left.
// The values >= -2^62 pass on every profile; only the others reach the
// out-of-line checks.
inline constexpr int64_t kMinSymIntRepresentable = -(int64_t{1} << 62);
void check_symint_slow(int64_t v);
void check_symint_list_slow(const Shape& v);
inline void check_symint(int64_t v) {
  if (v < kMinSymIntRepresentable) check_symint_slow(v);
}
// check_symint's error returned, not thrown.
MaybeFailure symint_failure_slow(int64_t v);
inline MaybeFailure symint_failure(int64_t v) {
  if (v < kMinSymIntRepresentable) [[unlikely]] return symint_failure_slow(v);
  return std::nullopt;
}
inline void check_symint_list(const Shape& v) {
  bool representable = true;
  for (int64_t x : v) representable &= x >= kMinSymIntRepresentable;
  if (!representable) check_symint_list_slow(v);
}
// check_symint_list's error returned, not thrown (Note [errors returned, not
// thrown]), for the checked forms: generated programs reach it in about one
// step in fifty (expand, zeros, full, split_with_sizes).
MaybeFailure symint_list_failure_slow(const Shape& v);
inline MaybeFailure symint_list_failure(const Shape& v) {
  bool representable = true;
  for (int64_t x : v) representable &= x >= kMinSymIntRepresentable;
  if (!representable) [[unlikely]] return symint_list_failure_slow(v);
  return std::nullopt;
}
// An op that reads self.sym_sizes()/sym_strides() and passes them on as
// SymInts (1.13's transpose) sees a stored value below -2^62 as symbolic:
// "SymIntArrayRef expected to contain only concrete integers".
void check_concrete_symints(const Shape& v);
// 2.1+ (Change::LargeNegativeSymInt): SymInt arithmetic that passes below
// -2^62 yields a heap-allocated SymInt; a result tensor built from one has
// symbolic sizes/strides, and reading its storage_offset (the first read
// that refuses) raises "Cannot call storage_offset() on tensor with symbolic
// sizes/strides" (Note [results with symbolic sizes] in
// oracle/torch_backend.cpp). No-op in 1.13, which stores the plain ints.
void check_concrete_result(const Shape& sizes, const Shape& strides, int64_t storage_offset);
// c10's printing of an IntArrayRef: "[2, 3]", "[]".
std::string format_int_list(const Shape& v);

// Note [plain view geometry]: sizes >= 1, strides >= 0, storage_offset >= 0,
// the highest byte (offset + 1 + sum(stride * (size - 1))) * itemsize and the
// numel computed in int64 without overflow, and that byte within self's
// storage. Most view results are such headers, and for them every check of
// check_as_strided passes on every profile (both storage-size forms, 1.13's
// and 2.x's, give the same in-bounds total; the numel fits), and so do
// check_symint, check_symint_list and check_concrete_symints (every value is
// >= 0 > -2^62). View ops ask this first (one pass, no call into the
// profile) and run the checks, in LibTorch's order and with its messages,
// only when it says no; tests/engine/views/shape_math_test.cpp checks the
// claim on random and edge headers under both profiles.
// One pass of int64 arithmetic that stops at the first doubt; inline, as
// every view op built on as_strided asks it once per call.
inline bool is_plain_view_geometry(const Tensor& self, const Shape& sizes, const Shape& strides,
                                   int64_t storage_offset) {
  const size_t n = sizes.size();
  if (n != strides.size() || storage_offset < 0) return false;
  int64_t last = storage_offset, numel = 1;  // the highest element index, the product of the sizes
  for (size_t i = 0; i < n; ++i) {
    const int64_t size = sizes[i], stride = strides[i];
    if (size < 1 || stride < 0) return false;
    int64_t span = 0;
    if (__builtin_mul_overflow(stride, size - 1, &span) || __builtin_add_overflow(last, span, &last) ||
        __builtin_mul_overflow(numel, size, &numel))
      return false;
  }
  int64_t bytes = 0;
  if (__builtin_add_overflow(last, 1, &last) || __builtin_mul_overflow(last, itemsize(self.dtype), &bytes))
    return false;
  return bytes <= self.storage->nbytes();
}

// A view with LibTorch's as_strided checks (at::native::setStrided, which every
// view op built on self.as_strided() goes through), in LibTorch's order:
// stride/size length, negative strides, storage bounds, negative offset,
// numel overflow. Ops built on alias_with_sizes_and_strides (view,
// _reshape_alias, alias) use alias_with_sizes_and_strides. The rvalue
// overload moves the op's own geometry into the result.
Tensor checked_strided_view(const Tensor& self, Shape&& sizes, Shape&& strides, int64_t storage_offset,
                            bool offset_passed = true);
Tensor checked_strided_view(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t storage_offset,
                            bool offset_passed = true);
// The same checks one by one, without the plain-geometry shortcut (what
// check_as_strided runs when is_plain_view_geometry says no; tests hold the
// two against each other).
// `offset_passed` false: the op calls self.as_strided(sizes, strides) without
// an offset (expand, permute, movedim, transpose, squeeze, unsqueeze, unfold,
// as_strided with none): LibTorch takes self's offset as an int64, so 1.13
// converts no SymInt from it and an offset below -2^62 reaches "Tensor:
// invalid storage offset", not "Expected !is_symbolic()" (measured;
// corpus/regressions/implicit_offset_below_symint_range.prog).
void check_as_strided_in_order(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t storage_offset,
                               bool offset_passed = true);
// Those checks alone, for an in-place restride of self (as_strided_: the
// structured ops' resize of an out= tensor); a plain geometry passes them all.
inline void check_as_strided(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t storage_offset,
                             bool offset_passed = true) {
  if (!is_plain_view_geometry(self, sizes, strides, storage_offset)) [[unlikely]]
    check_as_strided_in_order(self, sizes, strides, storage_offset, offset_passed);
}
// The same checks with their error returned (Note [errors returned, not
// thrown]): generated programs fail them in about one step in forty
// (as_strided's own geometry, unsqueeze, diagonal, unfold and slice of wrapped
// or overflowing headers). check_as_strided_in_order is this one, thrown.
MaybeFailure as_strided_failure_in_order(const Tensor& self, const Shape& sizes, const Shape& strides,
                                         int64_t storage_offset, bool offset_passed = true);
inline MaybeFailure as_strided_failure(const Tensor& self, const Shape& sizes, const Shape& strides,
                                       int64_t storage_offset, bool offset_passed = true) {
  if (is_plain_view_geometry(self, sizes, strides, storage_offset)) [[likely]]
    return std::nullopt;
  return as_strided_failure_in_order(self, sizes, strides, storage_offset, offset_passed);
}
// checked_strided_view with its error returned.
Checked<Tensor> strided_view_checked(const Tensor& self, Shape&& sizes, Shape&& strides, int64_t storage_offset,
                                     bool offset_passed = true);
Checked<Tensor> strided_view_checked(const Tensor& self, const Shape& sizes, const Shape& strides,
                                     int64_t storage_offset, bool offset_passed = true);
// at::native::alias_with_sizes_and_strides: a view at self's storage_offset;
// its only checks are TensorImpl::set_sizes_and_strides's (negative strides
// replaced, 2.x: "Stride calculation overflowed") and the numel overflow check.
Tensor alias_with_sizes_and_strides(const Tensor& self, Shape&& sizes, Shape&& strides);
Tensor alias_with_sizes_and_strides(const Tensor& self, const Shape& sizes, const Shape& strides);
// A tensor object sharing self's storage and version counter that is not a
// view (C++ LibTorch's detach() and view(dtype): non-differentiable views).
Tensor make_nonview_alias(const Tensor& self, Shape sizes, Shape strides, int64_t storage_offset, DType dtype);

// engine/views/view.cpp
Tensor view(const Tensor& self, const Shape& size);
Checked<Tensor> view_checked(const Tensor& self, const Shape& size);
Tensor view_dtype(const Tensor& self, DType dtype);
Tensor view_as(const Tensor& self, const Tensor& other);
Tensor reshape(const Tensor& self, const Shape& shape);  // a copy when no view can
Checked<Tensor> reshape_checked(const Tensor& self, const Shape& shape);
Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor unflatten(const Tensor& self, int64_t dim, const Shape& sizes);
Checked<Tensor> view_dtype_checked(const Tensor& self, DType dtype);
Checked<Tensor> flatten_checked(const Tensor& self, int64_t start_dim, int64_t end_dim);
Checked<Tensor> unflatten_checked(const Tensor& self, int64_t dim, const Shape& sizes);

// engine/views/permute.cpp
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& self);
Tensor mT(const Tensor& self);
Checked<Tensor> transpose_checked(const Tensor& self, int64_t dim0, int64_t dim1);
Checked<Tensor> t_checked(const Tensor& self);
Checked<Tensor> mT_checked(const Tensor& self);
Tensor T(const Tensor& self);  // warns for dim != 2 as LibTorch does
Tensor permute(const Tensor& self, const Shape& dims);
Tensor movedim(const Tensor& self, const Shape& source, const Shape& destination);
Checked<Tensor> permute_checked(const Tensor& self, const Shape& dims);
Checked<Tensor> movedim_checked(const Tensor& self, const Shape& source, const Shape& destination);

// engine/views/expand.cpp
Tensor expand(const Tensor& self, const Shape& size);
Tensor expand_as(const Tensor& self, const Tensor& other);
Tensor broadcast_to(const Tensor& self, const Shape& size);
Checked<Tensor> expand_checked(const Tensor& self, const Shape& size);
Checked<Tensor> expand_as_checked(const Tensor& self, const Tensor& other);

// engine/views/squeeze.cpp
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor squeeze(const Tensor& self);
Tensor squeeze(const Tensor& self, int64_t dim);
Checked<Tensor> unsqueeze_checked(const Tensor& self, int64_t dim);
Checked<Tensor> squeeze_checked(const Tensor& self, int64_t dim);

// engine/views/slice.cpp
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step);
Checked<Tensor> slice_checked(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Checked<Tensor> narrow_checked(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Checked<Tensor> select_checked(const Tensor& self, int64_t dim, int64_t index);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim);
std::vector<Tensor> split_with_sizes(const Tensor& self, const Shape& split_sizes, int64_t dim);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim);
std::vector<Tensor> unbind(const Tensor& self, int64_t dim);
Checked<std::vector<Tensor>> split_checked(const Tensor& self, int64_t split_size, int64_t dim);
Checked<std::vector<Tensor>> split_with_sizes_checked(const Tensor& self, const Shape& split_sizes, int64_t dim);
Checked<std::vector<Tensor>> chunk_checked(const Tensor& self, int64_t chunks, int64_t dim);
Checked<std::vector<Tensor>> unbind_checked(const Tensor& self, int64_t dim);

// engine/views/diagonal.cpp
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2);
Checked<Tensor> diagonal_checked(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2);
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step);
Checked<Tensor> unfold_checked(const Tensor& self, int64_t dimension, int64_t size, int64_t step);
Tensor as_strided(const Tensor& self, const Shape& size, const Shape& stride,
                  std::optional<int64_t> storage_offset);
Checked<Tensor> as_strided_checked(const Tensor& self, const Shape& size, const Shape& stride,
                                   std::optional<int64_t> storage_offset);

// engine/views/alias.cpp
Tensor detach(const Tensor& self);  // shares storage and version counter; not a view
Tensor alias(const Tensor& self);

}  // namespace sc::engine
