// expand, expand_as, broadcast_to: stride 0 along broadcast dims
// (TensorShape.cpp, ExpandUtils.cpp inferExpandGeometry at v1.13). Views never
// allocate: expand a [1000000000,4] is just a header.
#include "engine/error.h"
#include "engine/views.h"
#include "engine/views/wrapping.h"

namespace sc::engine {
namespace {

// Tensor::toString(): dispatch key name + ScalarType name + "Type", e.g. "CPUFloatType".
std::string type_string(const Tensor& self) {
  return str_cat(self.device() == Device::CUDA ? "CUDA" : "CPU", torch_scalar_type_name(self.dtype), "Type");
}

}  // namespace

// Note [expand geometry] (inferExpandGeometry): align sizes to the right.
// For target dim i (from the last) over tensor dim d:
//   existing dim: target -1 keeps the size; a size-1 dim takes the target size
//     with stride 0; any other mismatch raises;
//   new leading dim: -1 raises; stride = size[i+1] * stride[i+1] (so a
//     leading 1 looks contiguous), or 0 when the target is not 1.
// A 0-d input takes the target sizes as given with all-zero strides.
namespace {
// The size-list checks, then (expand_into) the per-dim checks and the geometry, written into `out` (sizes and strides of the
// target's rank, strides 0): shared by the two forms, so the throwing one
// builds its result in place (a Checked<Tensor> costs two moves of the
// header: 13 -> 26 ns per expand, bench/view_ops_bench).
MaybeFailure expand_size_checks(const Tensor& self, const Shape& size) {
  SC_TRY(symint_list_failure(size));
  SC_CHECK_OR_RETURN(size.size() >= static_cast<size_t>(self.dim()), "expand(", type_string(self), "{",
                     format_int_list(self.sizes), "}, size=", format_int_list(size),
                     "): the number of sizes provided (", size.size(),
                     ") must be greater or equal to the number of dimensions in the tensor (", self.dim(), ")");
  return std::nullopt;
}

MaybeFailure expand_into(const Tensor& self, const Shape& size, Tensor& out) {
  const int64_t ndim = static_cast<int64_t>(size.size());
  const int64_t tensor_dim = self.dim();
  Shape& sizes = out.sizes;
  Shape& strides = out.strides;
  if (tensor_dim == 0) {
    sizes = size;
  } else {
    for (int64_t i = ndim - 1; i >= 0; --i) {
      const int64_t offset = ndim - 1 - i;
      const int64_t dim = tensor_dim - 1 - offset;
      int64_t sz = dim >= 0 ? self.sizes[dim] : 1;
      int64_t st = dim >= 0 ? self.strides[dim] : wrapping::mul(sizes[i + 1], strides[i + 1]);
      int64_t target = size[i];
      if (target == -1) {
        SC_CHECK_OR_RETURN(dim >= 0, "The expanded size of the tensor (", target,
                           ") isn't allowed in a leading, non-existing dimension ", i);
        target = sz;
      }
      if (sz != target) {
        SC_CHECK_OR_RETURN(sz == 1, "The expanded size of the tensor (", target,
                           ") must match the existing size (", sz, ") at non-singleton dimension ", i,
                           ".  Target sizes: ", format_int_list(size), ".  Tensor sizes: ", format_int_list(self.sizes));
        sz = target;
        st = 0;
      }
      sizes[i] = sz;
      strides[i] = st;
    }
  }
  return as_strided_failure(self, sizes, strides, out.storage_offset, /*offset_passed=*/false);
}

// filled in place; the strides start at 0
Tensor expand_target(const Tensor& self, const Shape& size) {
  return make_view_of_rank(self, size.size(), self.storage_offset);
}
}  // namespace

Checked<Tensor> expand_checked(const Tensor& self, const Shape& size) {
  SC_TRY(expand_size_checks(self, size));
  Tensor out = expand_target(self, size);
  SC_TRY(expand_into(self, size, out));
  return out;
}



Tensor expand(const Tensor& self, const Shape& size) {
  throw_if(expand_size_checks(self, size));
  Tensor out = expand_target(self, size);
  throw_if(expand_into(self, size, out));
  return out;
}

// at::expand_as is self.expand_symint(other.sym_sizes()): other's sizes reach
// expand as SymInts, so a stored size below -2^62 raises as one that is not
// concrete (check_concrete_symints: "SymIntArrayRef expected to contain only
// concrete integers" in 1.13), where expand's own IntArrayRef would say "...
// cannot be represented as a SymInt" (generated seeds 5425888, 5788997, 1.13;
// view_as takes other.sizes() as an IntArrayRef: the latter, measured).
Checked<Tensor> expand_as_checked(const Tensor& self, const Tensor& other) {
  check_concrete_symints(other.sizes);
  return expand_checked(self, other.sizes);
}

Tensor expand_as(const Tensor& self, const Tensor& other) { return expand_as_checked(self, other).value_or_throw(); }

Tensor broadcast_to(const Tensor& self, const Shape& size) { return expand(self, size); }

}  // namespace sc::engine
