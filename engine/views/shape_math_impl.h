#pragma once
// The bodies of infer_size and computeStride (engine/views.h), written into a
// caller's Shape: view and reshape build their result header first and fill
// its sizes and strides here, so the geometry is never moved (a Checked<Shape>
// and an optional<Shape> each moved it once more: 27 -> 13 ns per reshape,
// bench/view_ops_bench). Internal to engine/views/; shape_math.cpp wraps them
// as the public infer_size / compute_stride.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "engine/checked.h"
#include "engine/version_profile.h"
#include "engine/views.h"
#include "engine/views/wrapping.h"

namespace sc::engine::shape_math {

// Note [SymInt arithmetic]: LibTorch runs some shape code twice over, once
// on int64_t (IntArrayRef: view) and once on c10::SymInt (SymIntArrayRef:
// reshape). Both wrap on overflow; 1.13's SymInt operators then construct the
// result as SymInt(int64_t), which raises when the wrapped value lies below
// -2^62 (the pointer tag, check_symint): "Expected !is_symbolic() to be true,
// ...". Since 2.1 (Change::LargeNegativeSymInt) such a result is a valid
// SymInt. Each shape function is written once, over one of these two:
struct IntArithmetic {
  static int64_t mul(int64_t a, int64_t b) { return wrapping::mul(a, b); }
};
struct SymIntArithmetic {
  static int64_t mul(int64_t a, int64_t b) {
    const int64_t product = wrapping::mul(a, b);
    check_symint(product);
    return product;
  }
};

Failure infer_size_two_inferred();
Failure infer_size_invalid_dimension(const Shape& shape, size_t d);
Failure infer_size_ambiguous(const Shape& shape);
Failure infer_size_mismatch(const Shape& shape, int64_t numel);

// numel / d for numel >= 0, d > 0: a shift for a power of two (most shapes'
// products), else in 32 bits where both fit (a 64-bit division takes several
// times as long on this project's machines; a 32-bit one still ~1 ns).
inline int64_t nonnegative_div(int64_t numel, int64_t d) {
  const uint64_t n = static_cast<uint64_t>(numel), u = static_cast<uint64_t>(d);
  if ((u & (u - 1)) == 0) return static_cast<int64_t>(n >> __builtin_ctzll(u));
  if (((n | u) >> 32) == 0) return static_cast<uint32_t>(n) / static_cast<uint32_t>(u);
  return numel / d;
}

// at::infer_size_impl: newsize = prod(shape[d] for d != the -1); the -1 takes
// numel / newsize when that divides exactly and newsize != 0. `res` has
// shape.size() slots; on success it holds the inferred sizes.
// (Inlined: its callers are view and reshape, on every call.)
template <class Arithmetic>
[[gnu::always_inline]] inline MaybeFailure infer_size_into(const Shape& shape, int64_t numel, Shape& res) {
  const size_t n = shape.size();
  int64_t newsize = 1;
  std::optional<size_t> infer_dim;
  for (size_t d = 0; d < n; ++d) {
    const int64_t s = shape[d];
    res[d] = s;
    if (s == -1) {
      if (infer_dim) [[unlikely]]
        return infer_size_two_inferred();
      infer_dim = d;
    } else if (s >= 0) [[likely]] {
      newsize = Arithmetic::mul(newsize, s);
    } else {
      return infer_size_invalid_dimension(shape, d);
    }
  }
  if (!infer_dim) {
    if (numel == newsize) [[likely]]
      return std::nullopt;
  } else if (newsize > 0) {
    // numel % newsize == 0, then the -1 takes numel / newsize (one division)
    const int64_t q = numel >= 0 ? nonnegative_div(numel, newsize) : numel / newsize;
    if (wrapping::mul(q, newsize) == numel) [[likely]] {
      res[*infer_dim] = q;
      return std::nullopt;
    }
  } else if (numel == newsize) {  // a product of 0, or one that wrapped negative
    if (newsize == 0) return infer_size_ambiguous(shape);
    res[*infer_dim] = 1;  // numel / newsize
    return std::nullopt;
  }
  return infer_size_mismatch(shape, numel);
}

// Note [computeStride] (at::detail::computeStride_impl, TensorUtils.cpp):
// walk the old dims from the last, grouping them into "chunks" of dims that
// are contiguous with each other (stride[d-1] == numel(chunk) * base stride;
// size-1 dims never break a chunk). Each chunk must be covered exactly by a
// run of new dims, which get strides base * (numel of the new dims to their
// right inside the chunk); new size-1 dims are absorbed by whichever chunk is
// open. Special cases: a 0-d input gives all-1 strides; a 0-numel input keeps
// its strides when the shape is unchanged, else gets contiguous-like strides.
// Products in Arithmetic (Note [SymInt arithmetic]): numel left to right,
// then each stride and chunk product.
// `newstride` has newshape.size() slots; false: no view can (its contents
// are then unspecified).
// compute_stride_with_numel takes that numel (the product of oldshape in
// Arithmetic, left to right) from a caller that has it already.
template <class Arithmetic>
[[gnu::always_inline]] inline bool compute_stride_with_numel(const Shape& oldshape, const Shape& oldstride,
                                                             int64_t numel, const Shape& newshape,
                                                             Shape& newstride) {
  const int64_t nview = static_cast<int64_t>(newshape.size());
  if (oldshape.empty()) {
    for (int64_t d = 0; d < nview; ++d) newstride[d] = 1;
    return true;
  }
  if (numel == 0) [[unlikely]] {
    if (oldshape == newshape) {
      for (int64_t d = 0; d < nview; ++d) newstride[d] = oldstride[d];
      return true;
    }
    for (int64_t d = nview - 1; d >= 0; --d)
      newstride[d] = d == nview - 1 ? 1 : Arithmetic::mul(std::max<int64_t>(newshape[d + 1], 1), newstride[d + 1]);
    return true;
  }

  int64_t view_d = nview - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel = Arithmetic::mul(tensor_numel, oldshape[tensor_d]);
    if (tensor_d == 0 ||
        (oldshape[tensor_d - 1] != 1 && oldstride[tensor_d - 1] != Arithmetic::mul(tensor_numel, chunk_base_stride))) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = Arithmetic::mul(view_numel, chunk_base_stride);
        view_numel = Arithmetic::mul(view_numel, newshape[view_d]);
        --view_d;
      }
      if (view_numel != tensor_numel) return false;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}
template <class Arithmetic>
[[gnu::always_inline]] inline bool compute_stride_into(const Shape& oldshape, const Shape& oldstride,
                                                       const Shape& newshape, Shape& newstride) {
  int64_t numel = 1;
  for (int64_t s : oldshape) numel = Arithmetic::mul(numel, s);
  return compute_stride_with_numel<Arithmetic>(oldshape, oldstride, numel, newshape, newstride);
}

// TensorImpl::set_sizes_and_strides on a view's new geometry, then
// refresh_numel (at::native::alias_with_sizes_and_strides's checks):
// set_sizes_and_strides_strides_in_place only where a stride is negative
// (it changes nothing else), then check_numel.
// One pass over both (sizes and strides have the same length here).
inline void set_sizes_and_strides_checks(const Shape& sizes, Shape& strides) {
  bool negative = false, overflows = false;
  uint64_t n = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    negative |= strides[d] < 0;
    overflows |= __builtin_mul_overflow(n, static_cast<uint64_t>(sizes[d]), &n);
  }
  if (negative) [[unlikely]]
    set_sizes_and_strides_strides_in_place(sizes, strides);
  if (overflows || n > static_cast<uint64_t>(INT64_MAX)) [[unlikely]]
    raise_numel_overflow();  // check_numel's
}

}  // namespace sc::engine::shape_math
