// view, view(dtype), view_as, reshape, flatten, unflatten
// (aten/src/ATen/native/TensorShape.cpp at v1.13).
#include "engine/copy.h"
#include "engine/error.h"
#include "engine/layout.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "engine/views/shape_math_impl.h"
#include "engine/views/wrapping.h"

namespace sc::engine {

namespace {
// at::native::view_impl (behind view and _unsafe_view): computeStride must find strides.
Failure view_incompatible() {
  return fail(ErrorKind::RuntimeError,
              "view size is not compatible with input tensor's size and stride (at least one dimension spans "
              "across two contiguous subspaces). Use .reshape(...) instead.");
}

// view's checks and geometry, into a result header of size.size() dims:
// shared by the two forms, so the throwing one builds its result in place (a
// Checked<Tensor> costs two moves of the header: 19 -> 31 ns per view,
// bench/view_ops_bench).
// The SymInt conversion of `size` (check_symint_list) comes first in
// LibTorch; it can only fail where infer_size does (a value below -2^62 is
// not a size infer_size accepts), so it runs there, before that error.
[[gnu::always_inline]] inline MaybeFailure view_into(const Tensor& self, const Shape& size, Tensor& out) {
  using shape_math::IntArithmetic;
  const int64_t numel = self.numel();  // computeStride's product of the sizes (int64, wrapping)
  if (MaybeFailure f = shape_math::infer_size_into<IntArithmetic>(
          size, self.stale_numel ? *self.stale_numel : numel, out.sizes)) [[unlikely]] {  // cached_numel(self)
    check_symint_list(size);
    return f;
  }
  if (!shape_math::compute_stride_with_numel<IntArithmetic>(self.sizes, self.strides, numel, out.sizes,
                                                             out.strides)) [[unlikely]]
    return view_incompatible();
  shape_math::set_sizes_and_strides_checks(out.sizes, out.strides);  // alias_with_sizes_and_strides
  return std::nullopt;
}
}  // namespace

// view(size): sizes = infer_size(size, numel); strides = computeStride(...),
// which must exist (Note [computeStride]); always a new view, never self.
Checked<Tensor> view_checked(const Tensor& self, const Shape& size) {
  Tensor out = make_view_of_rank(self, size.size(), self.storage_offset);
  SC_TRY(view_into(self, size, out));
  return out;
}

Tensor view(const Tensor& self, const Shape& size) {
  Tensor out = make_view_of_rank(self, size.size(), self.storage_offset);
  throw_if(view_into(self, size, out));
  return out;
}

Tensor view_as(const Tensor& self, const Tensor& other) { return view(self, other.sizes); }

// Note [view(dtype)] (view_dtype, 1.13): reinterpret the bytes. With r =
// ratio of itemsizes, the last dim (stride 1) is scaled by r, the other
// strides and the storage_offset by 1/r (in units of the new dtype).
// Same dtype still makes a new tensor object. In C++ LibTorch the result is a
// non-differentiable view: it shares storage and version counter, but
// is_view() is false and it has no _base (measured, as for detach()).
Checked<Tensor> view_dtype_checked(const Tensor& self, DType dtype) {
  const int64_t self_item = itemsize(self.dtype), new_item = itemsize(dtype);
  const auto from = torch_scalar_type_name(self.dtype), to = torch_scalar_type_name(dtype);
  // 2.5 made the alias for its own dtype unchecked (Change::ViewDtypeSameDtypeUnchecked, until
  // ViewDtypeSameDtypeChecked).
  if (self.dtype == dtype && since(Change::ViewDtypeSameDtypeUnchecked) && !since(Change::ViewDtypeSameDtypeChecked))
    return make_nonview_alias(self, self.sizes, self.strides, self.storage_offset, dtype);
  if (self.dtype == dtype || self_item == new_item) {
    // The same sizes and strides, still through set_sizes_and_strides (1.13
    // and 2.x): its stride rule and refresh_numel's overflow check see what a
    // failed out= resize left (a wrapped negative stride: 2.x "Stride
    // calculation overflowed"; [2,-1,0]: "numel: integer multiplication
    // overflow"); corpus/regressions/view_dtype_same_size_failed_out.prog.
    Shape strides = set_sizes_and_strides_strides(self.sizes, self.strides);
    check_numel(self.sizes);
    return make_nonview_alias(self, self.sizes, std::move(strides), self.storage_offset, dtype);
  }
  SC_CHECK_OR_RETURN(self.dim() != 0, "self.dim() cannot be 0 to view ", from, " as ", to,
                     " (different element sizes)");
  const int64_t last = self.dim() - 1;
  Shape sizes = self.sizes, strides = self.strides;
  if (self_item > new_item) {
    // Downsizing: stride[d] *= r for d < last; size[last] *= r; offset *= r.
    const int64_t r = self_item / new_item;
    for (int64_t d = 0; d < last; ++d) strides[d] = wrapping::mul(strides[d], r);
    sizes[last] = wrapping::mul(sizes[last], r);
    SC_CHECK_OR_RETURN(self.strides[last] == 1, "self.stride(-1) must be 1 to view ", from, " as ", to,
                       " (different element sizes), but got ", self.strides[last]);
    // 2.x multiplies SymInts: a product below -2^62 makes the result symbolic.
    const int64_t offset = wrapping::mul(self.storage_offset, r);
    check_concrete_result(sizes, strides, offset);
    // set_sizes_and_strides: the strides, then refresh_numel's overflow check
    // (empty_strided [2^63-1] [0], unsqueeze 1, view float16: [2^63-1, 2])
    Shape set_strides = set_sizes_and_strides_strides(sizes, strides);
    check_numel(sizes);
    return make_nonview_alias(self, sizes, set_strides, offset, dtype);
  }
  // Upsizing: checks in LibTorch 1.13's order (size, offset, last stride,
  // other strides; measured), then stride[d] /= r for d < last; size[last] /= r; offset /= r.
  const int64_t r = new_item / self_item;
  SC_CHECK_OR_RETURN(self.sizes[last] % r == 0, "self.size(-1) must be divisible by ", r, " to view ", from, " as ", to,
                     " (different element sizes), but got ", self.sizes[last]);
  SC_CHECK_OR_RETURN(self.storage_offset % r == 0, "self.storage_offset() must be divisible by ", r, " to view ",
                     from, " as ", to, " (different element sizes), but got ", self.storage_offset);
  SC_CHECK_OR_RETURN(self.strides[last] == 1, "self.stride(-1) must be 1 to view ", from, " as ", to,
                     " (different element sizes), but got ", self.strides[last]);
  for (int64_t d = 0; d < last; ++d) {
    SC_CHECK_OR_RETURN(strides[d] % r == 0, "self.stride(", d, ") must be divisible by ", r, " to view ", from,
                       " as ", to, " (different element sizes), but got ", strides[d]);
    // Signed division; the result then goes through set_sizes_and_strides,
    // which replaces a negative stride by stride[d+1] * max(size[d+1], 1)
    // (wrapping in 1.13), as the downsizing branch does. A wrapped stride of
    // -4 over sizes [0,2^63-1,1,4] (float32 -> float64) stays -2: the
    // replacement 2 * (2^63-1) wraps to -2 (generated seed 8456 on 1.13); a
    // stride of -2^62 (int8 -> int32) becomes the replacement 3 * 2^60
    // (generated seed 5057056).
    strides[d] /= r;
  }
  sizes[last] /= r;
  set_sizes_and_strides_strides_in_place(sizes, strides);
  // then refresh_numel's overflow check, as in the other branches: a
  // channels-last out whose resize to [2,-1,0] raised keeps stride(-1) 1
  // and its sizes ("numel: integer multiplication overflow" on 1.13 and
  // 2.15; corpus/regressions/view_dtype_upsizing_failed_out.prog)
  check_numel(sizes);
  return make_nonview_alias(self, sizes, strides, self.storage_offset / r, dtype);
}

Tensor view_dtype(const Tensor& self, DType dtype) { return view_dtype_checked(self, dtype).value_or_throw(); }

// reshape: a view (_reshape_alias) when computeStride finds strides, else
// _unsafe_view(clone(contiguous), shape): fresh storage, not a view.
// reshape_symint infers the size and computes the strides over SymInts
// (Note [SymInt arithmetic]); view does it over int64_t.
// The checks and geometry into a result header of shape.size() dims, shared
// by the two forms as view_into is (the throwing one returns `out` in place).
namespace {
// A value below -2^62 (a pointer tag, or since 2.1 a heap-allocated SymInt).
bool below_symint_range(const Shape& v) {
  bool below = false;
  for (int64_t x : v) below |= x < kMinSymIntRepresentable;
  return below;
}

[[gnu::always_inline]] inline MaybeFailure reshape_into(const Tensor& self, const Shape& shape, Tensor& out) {
  using shape_math::IntArithmetic;
  using shape_math::SymIntArithmetic;
  const bool large_negative_symints = since(Change::LargeNegativeSymInt);
  bool is_view = false;
  if (large_negative_symints) {
    // SymInt products never raise here: the SymInt arithmetic is int64's
    // (Note [SymInt arithmetic]), so computeStride takes infer_size's product
    // of the sizes, as view does. The SymInt conversion of `shape`
    // (check_symint_list) comes first in LibTorch; with nothing raising
    // before infer_size's own errors it can only fail where infer_size does
    // (a value below -2^62 is no size infer_size accepts), so it runs there,
    // as in view.
    const int64_t numel = self.numel();
    if (MaybeFailure f = shape_math::infer_size_into<IntArithmetic>(
            shape, self.stale_numel ? *self.stale_numel : numel, out.sizes)) [[unlikely]] {  // cached_numel(self)
      SC_TRY(symint_list_failure(shape));
      return f;
    }
    is_view = shape_math::compute_stride_with_numel<IntArithmetic>(self.sizes, self.strides, numel, out.sizes,
                                                                   out.strides);
  } else {
    // 1.13: a SymInt product may raise inside infer_size, so the list's
    // conversion check goes first.
    SC_TRY(symint_list_failure(shape));
    SC_TRY(shape_math::infer_size_into<SymIntArithmetic>(shape, cached_numel(self), out.sizes));
    is_view = shape_math::compute_stride_into<SymIntArithmetic>(self.sizes, self.strides, out.sizes, out.strides);
  }
  if (is_view) {
    // _reshape_alias(shape, stride) takes the computed strides as SymInts: a
    // wrapped one below -2^62 (an empty [0,3,2^62,2]) raises in 1.13 (a
    // valid SymInt since 2.1: check_symint does nothing there).
    if (!large_negative_symints)
      for (int64_t st : out.strides) SC_TRY(symint_failure(st));
    // 2.1+, measured on 2.15: a self that is not (by its cached flag)
    // contiguous goes through _reshape_alias, whose IntArrayRef view of the
    // strides refuses one below -2^62 (a heap-allocated SymInt): a slice
    // whose out= resize to [2,-1,0] raised keeps numel 4, infers
    // [7,7905747460161236407,4], and computeStride's contiguous strides wrap
    // to [-5270498306774157604,4,1] (generate-sample seeds 20311660,
    // 20329516). A contiguous self is viewed instead: set_sizes_and_strides'
    // "Stride calculation overflowed", below (the same failed out= of a fresh
    // [3,6]; reshape [0] to [0,2^62+1,2]; seed 20325221's flatten).
    // corpus/regressions/reshape_alias_heap_symint_stride.prog.
    // (check_concrete_symints raises only for a stride below -2^62: the
    // contiguity question, a loop over self's dims, is asked only then:
    // Reshape_View 14.0 -> 12.5 ns, bench/view_ops_bench.)
    else if (below_symint_range(out.strides) && !is_contiguous(self))
      check_concrete_symints(out.strides);
    shape_math::set_sizes_and_strides_checks(out.sizes, out.strides);  // alias_with_sizes_and_strides
    return std::nullopt;
  }
  // A contiguous copy views as any shape of its numel, except where the shape's
  // product only wraps to numel (3 * 6148914691236517206 == 2 in int64):
  // there _unsafe_view's view_impl raises view's error.
  Tensor copy = clone(self, MemoryFormat::Contiguous);
  auto stride = compute_stride(copy.sizes, copy.strides, out.sizes);  // view_impl's
  if (!stride) [[unlikely]]
    return view_incompatible();
  Tensor viewed = alias_with_sizes_and_strides(copy, std::move(out.sizes), std::move(*stride));
  // (assigned: one returned object, so the view path returns `out` in place)
  out = make_tensor(copy.storage, std::move(viewed.sizes), std::move(viewed.strides), copy.storage_offset,
                    copy.dtype);
  return std::nullopt;
}
}  // namespace

Tensor reshape(const Tensor& self, const Shape& shape) {
  Tensor out = make_view_of_rank(self, shape.size(), self.storage_offset);  // the view's header, filled in place
  throw_if(reshape_into(self, shape, out));
  return out;
}

Checked<Tensor> reshape_checked(const Tensor& self, const Shape& shape) {
  Tensor out = make_view_of_rank(self, shape.size(), self.storage_offset);
  SC_TRY(reshape_into(self, shape, out));
  return out;
}

// flatten(start, end): 0-d -> reshape([1]); start == end -> self itself;
// else reshape(sizes[:start] + [prod(sizes[start:end+1])] + sizes[end+1:]).
Checked<Tensor> flatten_checked(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  SC_TRY_ASSIGN(start_dim, maybe_wrap_dim_checked(start_dim, self.dim()));
  SC_TRY_ASSIGN(end_dim, maybe_wrap_dim_checked(end_dim, self.dim()));
  SC_CHECK_OR_RETURN(start_dim <= end_dim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (self.dim() == 0) return reshape_checked(self, {1});
  if (start_dim == end_dim) return self;
  int64_t slice_numel = 1;
  // multiply_integers over self.sym_sizes() (Note [SymInt arithmetic]; measured:
  // flatten([0,2^62,2], 1) raises 1.13's "Expected !is_symbolic()")
  for (int64_t d = start_dim; d <= end_dim; ++d) slice_numel = symint_mul(slice_numel, self.sizes[d]);
  Shape shape(self.sizes.begin(), self.sizes.begin() + start_dim);
  shape.push_back(slice_numel);
  shape.insert(shape.end(), self.sizes.begin() + end_dim + 1, self.sizes.end());
  check_concrete_symints(shape);  // 2.x: [2^62,2,0] flattened over dims 0 and 1
  return reshape_checked(self, shape);
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  return flatten_checked(self, start_dim, end_dim).value_or_throw();
}

// unflatten(dim, sizes) = view(sizes[:dim] + infer_size(sizes, size(dim)) + sizes[dim+1:]).
// LibTorch rewrites infer_size's plain std::runtime_errors (and only those).
// The dim is wrapped before the sizes are checked (C++; Python's
// Tensor.unflatten checks the sizes first, in Python).
namespace {
// What unflatten raises when its size or shape check failed with `e`: one
// body for the error returned and the one thrown by a callee.
Failure unflatten_failure(const Shape& sizes, int64_t dim, int64_t dim_size, const TorchError& e, bool plain) {
  if (plain) {
    if (e.message.find("is invalid for input of size") == std::string::npos)
      return fail(ErrorKind::RuntimeError, "unflatten got an unexpected error:\n", e.message);
    return fail(ErrorKind::RuntimeError, "unflatten: Provided sizes ", format_int_list(sizes),
                " don't multiply up to the size of dim ", dim, " (", dim_size, ") in the input tensor");
  }
  // Change::UnflattenWrapsErrors: the c10::Errors of the size and shape checks too.
  if (!since(Change::UnflattenWrapsErrors)) return Failure{e, false};
  return fail(ErrorKind::RuntimeError, "unflatten got an unexpected error:\n", e.message);
}
}  // namespace

Checked<Tensor> unflatten_checked(const Tensor& self, int64_t dim, const Shape& sizes) {
  if (since(Change::UnflattenTakesSymInts)) check_symint_list(sizes);
  SC_TRY_ASSIGN(dim, maybe_wrap_dim_checked(dim, self.dim()));
  SC_CHECK_OR_RETURN(!sizes.empty(), "unflatten: sizes must be non-empty");
  int64_t dim_size = 0;
  Shape inferred;
  try {
    Checked<int64_t> size = size_at_checked(self, dim);
    if (!size.ok()) return unflatten_failure(sizes, dim, dim_size, size.failure().error, size.failure().plain);
    dim_size = size.value();
    Checked<Shape> shape = infer_size_checked(sizes, dim_size);
    if (!shape.ok()) return unflatten_failure(sizes, dim, dim_size, shape.failure().error, shape.failure().plain);
    inferred = std::move(shape).value();
  } catch (const PlainRuntimeError& e) {
    return unflatten_failure(sizes, dim, dim_size, e, true);
  } catch (const TorchError& e) {
    return unflatten_failure(sizes, dim, dim_size, e, false);
  }
  Shape shape(self.sizes.begin(), self.sizes.begin() + dim);
  shape.insert(shape.end(), inferred.begin(), inferred.end());
  shape.insert(shape.end(), self.sizes.begin() + dim + 1, self.sizes.end());
  return view_checked(self, shape);
}

Tensor unflatten(const Tensor& self, int64_t dim, const Shape& sizes) {
  return unflatten_checked(self, dim, sizes).value_or_throw();
}

}  // namespace sc::engine
