#pragma once
// LibTorch's memory-format and output-stride rules:
//  - suggest_memory_format (TensorBase::suggest_memory_format with
//    is_channels_last_strides_2d/3d, ambiguous cases as 1.13 decides them);
//  - the strides of a fresh tensor in a format (empty_tensor_restride);
//  - infer_dense_strides (empty_like / clone / to of a non-dense input);
//  - empty_like's layout rule;
//  - TensorIterator's output strides (Note [Computing output strides]).
#include <optional>
#include <vector>

#include "engine/layout.h"
#include "engine/tensor.h"

namespace sc::engine {

// c10::is_channels_last_strides_2d / _3d (4-d / 5-d only; 3-d is "TODO: false" in 1.13).
bool is_channels_last_strides_2d(const Shape& sizes, const Shape& strides);
bool is_channels_last_strides_3d(const Shape& sizes, const Shape& strides);

// TensorImpl's is_strides_like_channels_last(_3d) flags, as refresh_contiguous
// computes them (5-d: channels_last_3d only when not 2d-like, etc.).
bool is_strides_like_channels_last(const Shape& sizes, const Shape& strides);
bool is_strides_like_channels_last_3d(const Shape& sizes, const Shape& strides);

// TensorBase::suggest_memory_format(channels_last_strides_exact_match = false).
MemoryFormat suggest_memory_format(const Shape& sizes, const Shape& strides);
MemoryFormat suggest_memory_format(const Tensor& t);

// at::infer_dense_strides: a dense layout with the input's stride permutation
// (the same insertion sort as TensorIterator; stride-0 dims do not move).
Shape infer_dense_strides(const Shape& sizes, const Shape& strides);

// The strides empty_like(self, memory_format=format) gives:
//   preserve: self's strides if non-overlapping-and-dense, else infer_dense_strides;
//   otherwise: strides_for_format(sizes, format) (engine/layout.h).
Shape empty_like_strides(const Tensor& self, MemoryFormat format);
Checked<Shape> empty_like_strides_checked(const Tensor& self, MemoryFormat format);  // errors returned

// One operand of a TensorIterator, for the output-stride computation.
struct IterOperand {
  const Tensor* tensor = nullptr;  // nullptr: an output to be allocated
  bool is_output = false;
  bool will_resize = false;        // an out= tensor of the wrong shape
};

// Note [Computing output strides] (TensorIterator.cpp): the strides of an
// output allocated (or resized) by a TensorIterator over `ops` (outputs first)
// with broadcast shape `shape`. fast_set_up first (all contiguous, all
// channels_last, or all non-overlapping-and-dense with equal strides), else
// compute_strides + reorder_dimensions + compatible_stride.
// `all_same_shape` is TensorIterator's all_ops_same_shape_.
// `element_size` is the output dtype's: compatible_stride works in bytes, and
// its int64 products wrap there (a [2^62, 0] float32 output gets stride 0).
Shape iterator_output_strides(const std::vector<IterOperand>& ops, const Shape& shape, bool all_same_shape,
                              int64_t element_size);
// Its errors (at::empty's, for an allocated output) returned, not thrown.
Checked<Shape> iterator_output_strides_checked(const std::vector<IterOperand>& ops, const Shape& shape,
                                              bool all_same_shape, int64_t element_size);

}  // namespace sc::engine
