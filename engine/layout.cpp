#include "engine/layout.h"

#include <algorithm>
#include <numeric>

#include "engine/error.h"
#include "engine/views.h"
#include "engine/views/wrapping.h"

namespace sc::engine {

// TensorImpl::empty_tensor_restride(Contiguous):
//   stride[last] = 1; stride[i] = stride[i+1] * max(size[i+1], 1)
// in int64 arithmetic that wraps (sizes [0,2^62,4] give strides [0,4,1]:
// the storage is empty, so LibTorch's size checks pass).
Shape contiguous_strides(const Shape& sizes) {
  Shape strides(sizes.size());
  int64_t z = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = z;
    z = wrapping::mul(z, std::max<int64_t>(sizes[i], 1));
  }
  return strides;
}

// get_channels_last_strides_2d / _3d (c10/core/MemoryFormat.h): the channel
// dim is innermost, then W, H(, D), N; unlike the contiguous rule, a size of 0
// is not clamped to 1 (measured: empty(2,0,4,5, channels_last) has strides
// (0,1,0,0)).
Checked<Shape> strides_for_format_checked(const Shape& sizes, MemoryFormat format) {
  // at::empty sets contiguous strides first (checked in 2.x), then restrides
  // to the format (whose rank check comes second; measured on 2.15).
  SC_TRY(contiguous_stride_failure(sizes));
  return strides_for_format_wrapping_checked(sizes, format);
}

Shape strides_for_format(const Shape& sizes, MemoryFormat format) {
  return strides_for_format_checked(sizes, format).value_or_throw();
}

Shape strides_for_format_wrapping(const Shape& sizes, MemoryFormat format) {
  return strides_for_format_wrapping_checked(sizes, format).value_or_throw();
}

Checked<Shape> strides_for_format_wrapping_checked(const Shape& sizes, MemoryFormat format) {
  auto order_to_strides = [&](std::initializer_list<int> inner_to_outer) {
    Shape strides(sizes.size());
    int64_t z = 1;
    for (int d : inner_to_outer) {
      strides[d] = z;
      z = wrapping::mul(z, sizes[d]);
    }
    return strides;
  };
  switch (format) {
    case MemoryFormat::ChannelsLast:
      SC_CHECK_OR_RETURN(sizes.size() == 4, "required rank 4 tensor to use channels_last format");
      return order_to_strides({1, 3, 2, 0});
    case MemoryFormat::ChannelsLast3d:
      SC_CHECK_OR_RETURN(sizes.size() == 5, "required rank 5 tensor to use channels_last_3d format");
      return order_to_strides({1, 4, 3, 2, 0});
    default:
      return contiguous_strides(sizes);
  }
}

// TensorImpl::compute_contiguous: numel == 0 is contiguous; size-1 dims are
// ignored; otherwise stride[d] == prod(size[d+1:]).
bool is_contiguous(const Shape& sizes, const Shape& strides) {
  for (int64_t s : sizes)
    if (s == 0) return true;
  int64_t z = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    if (sizes[d] != 1) {
      if (strides[d] != z) return false;
      z = wrapping::mul(z, sizes[d]);
    }
  }
  return true;
}

namespace {
// compute_channels_last_contiguous_2d/_3d: walk dims from innermost in the
// format's order; size-1 dims are ignored. (No numel == 0 shortcut here.)
bool strides_follow(const Shape& sizes, const Shape& strides, std::initializer_list<int> order) {
  int64_t expected = 1;
  for (int d : order) {
    if (sizes[d] != 1) {
      if (strides[d] != expected) return false;
      expected = wrapping::mul(expected, sizes[d]);  // int64 that wraps, as c10
    }
  }
  return true;
}
}  // namespace

bool is_channels_last_contiguous(const Shape& sizes, const Shape& strides) {
  return sizes.size() == 4 && strides_follow(sizes, strides, {1, 3, 2, 0});
}

bool is_channels_last_3d_contiguous(const Shape& sizes, const Shape& strides) {
  return sizes.size() == 5 && strides_follow(sizes, strides, {1, 4, 3, 2, 0});
}

// TensorImpl: is_non_overlapping_and_dense_ = is_contiguous_ ||
// is_channels_last_contiguous_ || is_channels_last_3d_contiguous_ ||
// compute_non_overlapping_and_dense(), where the latter sorts dims by stride
// (dims of size < 2 last) and requires strides 1, s0, s0*s1, ...
namespace {
// compute_non_overlapping_and_dense, the sort alone.
bool dense_by_sorted_strides(const Shape& sizes, const Shape& strides) {
  const size_t n = sizes.size();
  if (n == 1) return sizes[0] < 2 || strides[0] == 1;
  Shape perm(n);  // dim indices, inline for the usual ranks (no allocation)
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t require = 1;
  for (size_t i = 0; i < n; ++i) {
    int64_t size = sizes[perm[i]];
    if (size < 2) return true;
    if (strides[perm[i]] != require) return false;
    require *= size;
  }
  return true;
}
}  // namespace

bool is_non_overlapping_and_dense(const Shape& sizes, const Shape& strides) {
  if (is_contiguous(sizes, strides) || is_channels_last_contiguous(sizes, strides) ||
      is_channels_last_3d_contiguous(sizes, strides))
    return true;
  return dense_by_sorted_strides(sizes, strides);
}

bool is_contiguous(const Tensor& t, MemoryFormat format) {
  if (t.stale_layout) {
    switch (format) {
      case MemoryFormat::ChannelsLast: return t.stale_layout->channels_last;
      case MemoryFormat::ChannelsLast3d: return t.stale_layout->channels_last_3d;
      default: return t.stale_layout->contiguous;
    }
  }
  switch (format) {
    case MemoryFormat::ChannelsLast: return is_channels_last_contiguous(t.sizes, t.strides);
    case MemoryFormat::ChannelsLast3d: return is_channels_last_3d_contiguous(t.sizes, t.strides);
    default: return is_contiguous(t.sizes, t.strides);
  }
}

bool is_non_overlapping_and_dense(const Tensor& t) {
  return t.stale_layout ? t.stale_layout->non_overlapping_and_dense : is_non_overlapping_and_dense(t.sizes, t.strides);
}

// Each flag computed once (is_non_overlapping_and_dense alone would compute
// the first three again): the interpreter asks for all four per observed result.
LayoutFlags layout_flags(const Tensor& t) {
  if (t.stale_layout) return *t.stale_layout;
  const bool contiguous = is_contiguous(t.sizes, t.strides);
  const bool channels_last = is_channels_last_contiguous(t.sizes, t.strides);
  const bool channels_last_3d = is_channels_last_3d_contiguous(t.sizes, t.strides);
  return LayoutFlags{contiguous, channels_last, channels_last_3d,
                     contiguous || channels_last || channels_last_3d || dense_by_sorted_strides(t.sizes, t.strides)};
}

}  // namespace sc::engine
