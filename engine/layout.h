#pragma once
// Layout queries on a header (c10::TensorImpl's cached flags, computed here
// from sizes and strides with LibTorch's exact rules, size-1 relaxation included).
#include <cstdint>
#include <vector>

#include "engine/checked.h"
#include "engine/tensor.h"

namespace sc::engine {

enum class MemoryFormat { Contiguous, ChannelsLast, ChannelsLast3d, Preserve };

// Row-major strides for `sizes` (c10::contiguous_strides; size-0/1 dims get
// the stride the next dim would need, as LibTorch computes it).
Shape contiguous_strides(const Shape& sizes);
// Strides of at::empty(sizes, memory_format=format) (TensorImpl::empty_tensor_restride):
// contiguous clamps sizes to 1, get_channels_last_strides_2d/3d do not.
// Raises "required rank 4 tensor to use channels_last format" (5 for _3d).
Shape strides_for_format(const Shape& sizes, MemoryFormat format);
// The same strides without the contiguous stride computation's overflow check
// (products wrap): a resized out= leaves that check to resize_ (resize_out).
Shape strides_for_format_wrapping(const Shape& sizes, MemoryFormat format);
// Both with the rank error returned (Note [errors returned, not thrown]).
Checked<Shape> strides_for_format_checked(const Shape& sizes, MemoryFormat format);
Checked<Shape> strides_for_format_wrapping_checked(const Shape& sizes, MemoryFormat format);

bool is_contiguous(const Shape& sizes, const Shape& strides);                 // is_contiguous()
bool is_channels_last_contiguous(const Shape& sizes, const Shape& strides);   // is_contiguous(channels_last)
bool is_channels_last_3d_contiguous(const Shape& sizes, const Shape& strides);
bool is_non_overlapping_and_dense(const Shape& sizes, const Shape& strides);
// The Tensor overloads answer as LibTorch's cached flags do (Note [stale
// layout flags]): t.stale_layout when set, else computed.
bool is_contiguous(const Tensor& t, MemoryFormat format = MemoryFormat::Contiguous);
bool is_non_overlapping_and_dense(const Tensor& t);
LayoutFlags layout_flags(const Tensor& t);
// TensorImpl::numel(): t.stale_numel when set, else t.numel().
inline int64_t cached_numel(const Tensor& t) { return t.stale_numel ? *t.stale_numel : t.numel(); }

}  // namespace sc::engine
