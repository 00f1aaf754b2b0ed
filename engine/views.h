#pragma once
// View ops: pure functions from header to header (STYLE lesson 1). They never
// touch bytes, except reshape/flatten/contiguous-like decisions that fall back
// to a copy when no view can express the result (STYLE lesson 2).
// Each family lives in its own file under engine/views/. Errors carry
// LibTorch's kind and exact message (engine/error.h).
#include <optional>
#include <vector>

#include "engine/tensor.h"

namespace sc::engine {

// LibTorch's maybe_wrap_dim: wraps a negative dim; IndexError "Dimension out of
// range (expected to be in range of [-2, 1], but got 5)" otherwise.
int64_t maybe_wrap_dim(int64_t dim, int64_t ndim, bool wrap_scalar = true);
// at::infer_size: resolves one -1; "shape '[2, -1]' is invalid for input of size 7".
Shape infer_size(const Shape& shape, int64_t numel);
// at::detail::computeStride (TensorUtils.cpp): strides for viewing (sizes,
// strides) as new_sizes without a copy, or nullopt when no view can.
std::optional<Shape> compute_stride(const Shape& old_sizes, const Shape& old_strides, const Shape& new_sizes);

// engine/views/view.cpp
Tensor view(const Tensor& self, const Shape& size);
Tensor view_dtype(const Tensor& self, DType dtype);
Tensor view_as(const Tensor& self, const Tensor& other);
Tensor reshape(const Tensor& self, const Shape& shape);  // a copy when no view can
Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor unflatten(const Tensor& self, int64_t dim, const Shape& sizes);

// engine/views/permute.cpp
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& self);
Tensor mT(const Tensor& self);
Tensor T(const Tensor& self);  // warns for dim != 2 as LibTorch does
Tensor permute(const Tensor& self, const Shape& dims);
Tensor movedim(const Tensor& self, const Shape& source, const Shape& destination);

// engine/views/expand.cpp
Tensor expand(const Tensor& self, const Shape& size);
Tensor expand_as(const Tensor& self, const Tensor& other);
Tensor broadcast_to(const Tensor& self, const Shape& size);

// engine/views/squeeze.cpp
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor squeeze(const Tensor& self);
Tensor squeeze(const Tensor& self, int64_t dim);

// engine/views/slice.cpp
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim);
std::vector<Tensor> split_with_sizes(const Tensor& self, const Shape& split_sizes, int64_t dim);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim);
std::vector<Tensor> unbind(const Tensor& self, int64_t dim);

// engine/views/diagonal.cpp
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2);
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step);
Tensor as_strided(const Tensor& self, const Shape& size, const Shape& stride,
                  std::optional<int64_t> storage_offset);

// engine/views/alias.cpp
Tensor detach(const Tensor& self);  // shares storage and version counter; not a view
Tensor alias(const Tensor& self);

}  // namespace sc::engine
