// Shape and stride arithmetic shared by the view ops: dim wrapping, -1
// inference, LibTorch's computeStride, the storage-size computation and the
// as_strided checks (c10/core/WrapDimMinimal.h, ATen/InferSize.h,
// ATen/TensorUtils.cpp, ATen/native/Resize.h at v1.13).
#include <cstdint>
#include <limits>

#include "engine/error.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "engine/views/shape_math_impl.h"
#include "engine/views/wrapping.h"

namespace sc::engine {

std::string format_int_list(const Shape& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

MaybeFailure symint_failure_slow(int64_t v) {
  if (since(Change::LargeNegativeSymInt)) return std::nullopt;  // heap-allocated as a LargeNegativeIntSymNodeImpl
  SC_CHECK_OR_RETURN(v >= kMinSymIntRepresentable,
                     "Expected !is_symbolic() to be true, but got false.  (Could this error message be improved?  If "
                     "so, please report an enhancement request to PyTorch.)");
  return std::nullopt;
}

void check_symint_slow(int64_t v) { throw_if(symint_failure_slow(v)); }

MaybeFailure symint_list_failure_slow(const Shape& v) {
  for (int64_t x : v)
    SC_CHECK_OR_RETURN(x >= kMinSymIntRepresentable, "IntArrayRef contains an int that cannot be represented as a SymInt: ",
                       x);
  return std::nullopt;
}

void check_symint_list_slow(const Shape& v) { throw_if(symint_list_failure_slow(v)); }

void check_concrete_symints(const Shape& v) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] >= kMinSymIntRepresentable) continue;
    if (!since(Change::HeapSymIntInIntArrayRef))
      raise(ErrorKind::RuntimeError, "SymIntArrayRef expected to contain only concrete integers");
    raise(ErrorKind::RuntimeError,
          "SymIntArrayRef expected to contain only concrete integers that are stored inline and can be viewed as an "
          "IntArrayRef. Found heap-allocated concrete SymInt at index ",
          i, ": ", v[i], " in SymIntArrayRef ", format_int_list(v),
          ". This value is concrete, but the non-owning IntArrayRef conversion used here cannot represent "
          "heap-allocated SymInt values. Use an owning conversion such as asIntArrayRefSlowAlloc to materialize the "
          "values into a DimVector before this call.");
  }
}

void check_concrete_result(const Shape& sizes, const Shape& strides, int64_t storage_offset) {
  if (!since(Change::LargeNegativeSymInt)) return;
  bool symbolic = storage_offset < kMinSymIntRepresentable;
  for (int64_t x : sizes) symbolic |= x < kMinSymIntRepresentable;
  for (int64_t x : strides) symbolic |= x < kMinSymIntRepresentable;
  if (!symbolic) return;
  // What reading the result raises, by profile (the first read without the
  // Python interpreter: Note [results with symbolic sizes]); before
  // SymbolicResultReadRaises LibTorch dies reading it, and the oracle refuses
  // the step: so does the engine.
  if (!since(Change::SymbolicResultReadRaises))
    throw StepRefused(str_cat("stridecheck engine: not run: LibTorch ", to_string(current_profile().profile),
                              " crashes (SIGSEGV: PyObjectSlot::load_pyobj_interpreter with no interpreter set) "
                              "reading this result, which has symbolic sizes/strides (Note [results with symbolic "
                              "sizes])"));
  if (since(Change::SymbolicResultStorageOffsetError))
    raise(ErrorKind::RuntimeError, "Cannot call storage_offset() on tensor with symbolic sizes/strides");
  if (since(Change::SymbolicResultNoPythonError))
    raise(ErrorKind::RuntimeError,
          "PyTorch was compiled without Python support. Cannot access Python interpreter from C++.");
  if (!since(Change::SymbolicResultReadInternalAssert))
    raise(ErrorKind::RuntimeError, "cannot access PyObject for Tensor - no interpreter set");
  raise(ErrorKind::RuntimeError,
        "interpreter INTERNAL ASSERT FAILED at \"/pytorch/c10/core/impl/PyObjectSlot.h\":29, please report a bug "
        "to PyTorch. cannot access PyObject for Tensor - no interpreter set");
}

// wrap(dim, n) = dim + n for dim in [-n, -1]; dim in [0, n-1] as is;
// a 0-d tensor counts as n = 1 (range [-1, 0]) when wrap_scalar.
Checked<int64_t> maybe_wrap_dim_slow_checked(int64_t dim, int64_t ndim, bool wrap_scalar) {
  // c10's maybe_wrap_dim_slow: a negative rank is possible when a *size* is
  // wrapped (narrow wraps `start` by the dim's size, and broadcast_to accepts
  // a negative size in a new leading dim).
  SC_CHECK_KIND_OR_RETURN(ndim >= 0 || (dim >= wrapping::mul(ndim, -1) && dim < ndim), IndexError,
                          "Rank cannot be negative but got ", ndim);  // ndim * -1 wraps for INT64_MIN, as in c10
  if (ndim <= 0) {
    SC_CHECK_KIND_OR_RETURN(wrap_scalar, IndexError, "Dimension specified as ", dim, " but tensor has no dimensions");
    ndim = 1;
  }
  const int64_t min = -ndim, max = ndim - 1;
  SC_CHECK_KIND_OR_RETURN(dim >= min && dim <= max, IndexError, "Dimension out of range (expected to be in range of [",
                          min, ", ", max, "], but got ", dim, ")");
  return dim < 0 ? dim + ndim : dim;
}

int64_t maybe_wrap_dim_slow(int64_t dim, int64_t ndim, bool wrap_scalar) {
  return maybe_wrap_dim_slow_checked(dim, ndim, wrap_scalar).value_or_throw();
}

Checked<int64_t> size_at_checked(const Tensor& self, int64_t dim) {
  int64_t d = 0;
  SC_TRY_ASSIGN(d, maybe_wrap_dim_checked(dim, self.dim(), /*wrap_scalar=*/false));
  return self.sizes[static_cast<size_t>(d)];
}

int64_t size_at(const Tensor& self, int64_t dim) {
  return self.sizes[static_cast<size_t>(maybe_wrap_dim(dim, self.dim(), /*wrap_scalar=*/false))];
}

int64_t symint_mul(int64_t a, int64_t b) { return shape_math::SymIntArithmetic::mul(a, b); }

// infer_size's errors (the bodies are in shape_math_impl.h).
namespace shape_math {
Failure infer_size_two_inferred() { return fail_plain("only one dimension can be inferred"); }
Failure infer_size_invalid_dimension(const Shape& shape, size_t d) {
  if (since(Change::ViewShapeErrorNamesIndex))
    return fail(ErrorKind::RuntimeError, "invalid shape dimension ", shape[d], " at index ", d, " of shape ",
                format_int_list(shape));
  return fail(ErrorKind::RuntimeError, "invalid shape dimension ", shape[d]);
}
Failure infer_size_ambiguous(const Shape& shape) {
  return fail(ErrorKind::RuntimeError, "cannot reshape tensor of 0 elements into shape ", format_int_list(shape),
              " because the unspecified dimension size -1 can be any value and is ambiguous");
}
Failure infer_size_mismatch(const Shape& shape, int64_t numel) {
  return fail_plain("shape '", format_int_list(shape), "' is invalid for input of size ", numel);
}
}  // namespace shape_math

namespace {
template <class Arithmetic>
Checked<Shape> infer_size_impl(const Shape& shape, int64_t numel) {
  Shape res(shape.size());
  SC_TRY(shape_math::infer_size_into<Arithmetic>(shape, numel, res));
  return res;
}
template <class Arithmetic>
std::optional<Shape> compute_stride_impl(const Shape& oldshape, const Shape& oldstride, const Shape& newshape) {
  Shape newstride(newshape.size());
  if (!shape_math::compute_stride_into<Arithmetic>(oldshape, oldstride, newshape, newstride)) return std::nullopt;
  return newstride;
}
using shape_math::IntArithmetic;
using shape_math::SymIntArithmetic;
}  // namespace

Checked<Shape> infer_size_checked(const Shape& shape, int64_t numel) {
  return infer_size_impl<IntArithmetic>(shape, numel);
}
Shape infer_size(const Shape& shape, int64_t numel) { return infer_size_checked(shape, numel).value_or_throw(); }
Shape infer_size_symint(const Shape& shape, int64_t numel) {
  return infer_size_impl<SymIntArithmetic>(shape, numel).value_or_throw();
}

std::optional<Shape> compute_stride(const Shape& old_sizes, const Shape& old_strides, const Shape& new_sizes) {
  return compute_stride_impl<IntArithmetic>(old_sizes, old_strides, new_sizes);
}
std::optional<Shape> compute_stride_symint(const Shape& old_sizes, const Shape& old_strides, const Shape& new_sizes) {
  return compute_stride_impl<SymIntArithmetic>(old_sizes, old_strides, new_sizes);
}

// computeStorageNbytes (1.13, unsigned arithmetic as LibTorch does it):
//   size = 1 + sum(stride[i] * (sizes[i] - 1)), 0 if any size is 0;
//   bytes = size * itemsize; any unsigned overflow, or bytes > INT64_MAX, raises.
// Negative sizes or strides become huge unsigned values, so they usually overflow.
Checked<int64_t> compute_storage_nbytes_checked(const Shape& sizes, const Shape& strides, int64_t itemsize,
                                                int64_t storage_offset) {
  uint64_t size = static_cast<uint64_t>(storage_offset) + 1;  // wraps for a negative offset, as in c10
  bool overflowed = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return 0;
    uint64_t strided_size = 0;
    overflowed |= __builtin_mul_overflow(static_cast<uint64_t>(strides[i]), static_cast<uint64_t>(sizes[i] - 1),
                                         &strided_size);
    overflowed |= __builtin_add_overflow(size, strided_size, &size);
  }
  overflowed |= __builtin_mul_overflow(size, static_cast<uint64_t>(itemsize), &size);
  overflowed |= size > static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  SC_CHECK_OR_RETURN(!overflowed, "Storage size calculation overflowed with sizes=", format_int_list(sizes),
                     " and strides=", format_int_list(strides));
  return static_cast<int64_t>(size);
}

int64_t compute_storage_nbytes(const Shape& sizes, const Shape& strides, int64_t itemsize, int64_t storage_offset) {
  return compute_storage_nbytes_checked(sizes, strides, itemsize, storage_offset).value_or_throw();
}

Checked<int64_t> compute_storage_nbytes_contiguous_checked(const Shape& sizes, int64_t itemsize,
                                                          int64_t storage_offset) {
  uint64_t size = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(size, static_cast<uint64_t>(s), &size);
  overflowed |= __builtin_add_overflow(size, static_cast<uint64_t>(storage_offset), &size);
  overflowed |= __builtin_mul_overflow(size, static_cast<uint64_t>(itemsize), &size);
  overflowed |= size > static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  SC_CHECK_OR_RETURN(!overflowed, "Storage size calculation overflowed with sizes=", format_int_list(sizes));
  return static_cast<int64_t>(size);
}

int64_t compute_storage_nbytes_contiguous(const Shape& sizes, int64_t itemsize, int64_t storage_offset) {
  return compute_storage_nbytes_contiguous_checked(sizes, itemsize, storage_offset).value_or_throw();
}

// check_numel's error (views.h; the check is inline).
Failure numel_overflow_failure() { return fail(ErrorKind::RuntimeError, "numel: integer multiplication overflow"); }
void raise_numel_overflow() { throw_failure(numel_overflow_failure()); }

Shape set_sizes_and_strides_strides(const Shape& sizes, Shape strides) {
  set_sizes_and_strides_strides_in_place(sizes, strides);
  return strides;
}

void set_sizes_and_strides_strides_in_place(const Shape& sizes, Shape& strides) {
  bool overflowed = false;
  for (size_t d = strides.size(); d-- > 0;) {
    if (strides[d] >= 0) continue;
    if (d + 1 == strides.size()) {
      strides[d] = 1;
      continue;
    }
    overflowed |= __builtin_mul_overflow(strides[d + 1], std::max<int64_t>(sizes[d + 1], 1), &strides[d]);
  }
  // Change::StrideCalculationChecksOverflow: 2.x checks the products, 1.13 wraps them.
  SC_CHECK(!overflowed || !since(Change::StrideCalculationChecksOverflow), "Stride calculation overflowed");
}

// TensorImpl::empty_tensor_restride(Contiguous), 2.x: stride[last] = 1,
// stride[i] = stride[i+1] * max(size[i+1], 1) with c10::mul_overflows.
MaybeFailure contiguous_stride_failure(const Shape& sizes) {
  if (!since(Change::StrideCalculationChecksOverflow) || sizes.size() < 2) return std::nullopt;
  int64_t stride = 1;
  for (size_t i = sizes.size() - 1; i-- > 0;)
    SC_CHECK_OR_RETURN(!__builtin_mul_overflow(stride, std::max<int64_t>(sizes[i + 1], 1), &stride),
                       "Stride calculation overflowed");
  return std::nullopt;
}

void check_contiguous_stride_calculation(const Shape& sizes) { throw_if(contiguous_stride_failure(sizes)); }

// self.as_strided(sizes, strides, offset): the SymInt conversions (right to
// left), then at::native::setStrided (1.13) on a fresh view of self's storage.
MaybeFailure as_strided_failure_in_order(const Tensor& self, const Shape& sizes, const Shape& strides,
                                         int64_t storage_offset, bool offset_passed) {
  if (offset_passed) SC_TRY(symint_failure(storage_offset));
  SC_TRY(symint_list_failure(strides));
  SC_TRY(symint_list_failure(sizes));
  SC_CHECK_OR_RETURN(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  for (int64_t st : strides)
    SC_CHECK_OR_RETURN(st >= 0, "as_strided: Negative strides are not supported at the moment, got strides: ",
                       format_int_list(strides));
  // checkInBoundsForStorage: bytes(sizes, strides) + offset * itemsize <= storage nbytes,
  // skipped when the header needs no storage (some size is 0).
  const int64_t item = itemsize(self.dtype);
  // Change::AsStridedChecksNegativeOffsetFirst (2.12+): a negative offset is
  // refused right after the stride checks, before any storage size is computed
  // (as_strided [-3] [4] -2 names the offset, not the size overflow).
  if (since(Change::AsStridedChecksNegativeOffsetFirst))
    SC_CHECK_OR_RETURN(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  // total: the bytes from the storage's start the header needs, 0 when some size is 0.
  // Change::AsStridedChecksOffsetOverflow: 2.x checks the size without and with
  // the offset (same message), the offset in uint64 as c10 has it. The second
  // overflows whenever the first does, unless the offset is -1 (its uint64 sum
  // wraps back: compute_storage_nbytes), and then the first's overflow is
  // the one raised; when neither overflows the second is needed + offset *
  // itemsize exactly: one pass gives both (view ops run this on every call).
  int64_t total = 0;
  if (since(Change::AsStridedChecksOffsetOverflow)) {
    if (storage_offset == -1) {
      int64_t without_offset = 0;
      SC_TRY_ASSIGN(without_offset, compute_storage_nbytes_checked(sizes, strides, item));
      (void)without_offset;
    }
    SC_TRY_ASSIGN(total, compute_storage_nbytes_checked(sizes, strides, item, storage_offset));
  } else {
    int64_t needed = 0;
    SC_TRY_ASSIGN(needed, compute_storage_nbytes_checked(sizes, strides, item));
    if (needed != 0) total = wrapping::add(needed, wrapping::mul(storage_offset, item));
  }
  if (total != 0) {
    SC_CHECK_OR_RETURN(total <= self.storage->nbytes(), "setStorage: sizes ", format_int_list(sizes), ", strides ",
                       format_int_list(strides), ", storage offset ", storage_offset, ", and itemsize ", item,
                       " requiring a storage size of ", total, " are out of bounds for storage of size ",
                       self.storage->nbytes());
  }
  SC_CHECK_OR_RETURN(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  return numel_failure(sizes);
}

void check_as_strided_in_order(const Tensor& self, const Shape& sizes, const Shape& strides,
                               int64_t storage_offset, bool offset_passed) {
  throw_if(as_strided_failure_in_order(self, sizes, strides, storage_offset, offset_passed));
}

Tensor checked_strided_view(const Tensor& self, Shape&& sizes, Shape&& strides, int64_t storage_offset,
                            bool offset_passed) {
  check_as_strided(self, sizes, strides, storage_offset, offset_passed);
  return make_view(self, std::move(sizes), std::move(strides), storage_offset);
}

Tensor checked_strided_view(const Tensor& self, const Shape& sizes, const Shape& strides, int64_t storage_offset,
                            bool offset_passed) {
  check_as_strided(self, sizes, strides, storage_offset, offset_passed);
  return make_view(self, sizes, strides, storage_offset);
}

Checked<Tensor> strided_view_checked(const Tensor& self, Shape&& sizes, Shape&& strides, int64_t storage_offset,
                                     bool offset_passed) {
  SC_TRY(as_strided_failure(self, sizes, strides, storage_offset, offset_passed));
  return make_view(self, std::move(sizes), std::move(strides), storage_offset);
}

Checked<Tensor> strided_view_checked(const Tensor& self, const Shape& sizes, const Shape& strides,
                                     int64_t storage_offset, bool offset_passed) {
  SC_TRY(as_strided_failure(self, sizes, strides, storage_offset, offset_passed));
  return make_view(self, sizes, strides, storage_offset);
}

// TensorImpl::set_sizes_and_strides: a negative stride (a wrapped product from
// computeStride, e.g. the contiguous-like strides of an empty [2,0,4,2^63-1,2,1])
// is replaced from the last dim (2.x checks those products: "Stride calculation
// overflowed"), then refresh_numel's overflow check.
Tensor alias_with_sizes_and_strides(const Tensor& self, Shape&& sizes, Shape&& strides) {
  set_sizes_and_strides_strides_in_place(sizes, strides);
  check_numel(sizes);
  return make_view(self, std::move(sizes), std::move(strides), self.storage_offset);
}

Tensor alias_with_sizes_and_strides(const Tensor& self, const Shape& sizes, const Shape& strides) {
  return alias_with_sizes_and_strides(self, Shape(sizes), Shape(strides));
}

Tensor make_nonview_alias(const Tensor& self, Shape sizes, Shape strides, int64_t storage_offset, DType dtype) {
  Tensor t = make_view(self, std::move(sizes), std::move(strides), storage_offset, dtype);
  t.base_id.reset();
  return t;
}

}  // namespace sc::engine
