#pragma once
// Copy ops: results own fresh storage (contiguous, clone, to, repeat,
// index_select, flip, empty_like, zeros_like), with LibTorch's output layout
// rules (engine/memory_format.h). copy_ into an existing header is an
// in-place op (engine/inplace.h).
#include <optional>

#include "engine/checked.h"
#include "engine/layout.h"
#include "engine/tensor.h"

namespace sc::engine {

// clone(memory_format): preserve keeps the strides of a non-overlapping-and-
// dense input, else empty_like's rule (infer_dense_strides); other formats
// give fresh strides in that format. reshape/flatten's copying branch calls
// clone(self, MemoryFormat::Contiguous).
Tensor clone(const Tensor& self, MemoryFormat format = MemoryFormat::Preserve);
// contiguous(memory_format): self (the same object) when already contiguous in
// that format; preserve raises when a copy would be needed.
Tensor contiguous(const Tensor& self, MemoryFormat format = MemoryFormat::Contiguous);
// to(dtype, memory_format): self when nothing changes (to_will_alias: same
// dtype and format preserve or equal to suggest_memory_format), else _to_copy.
Tensor to(const Tensor& self, std::optional<DType> dtype, std::optional<MemoryFormat> format);
// The strides of self.to(dtype)'s result (preserve format, a dtype change),
// after _to_copy's checks, allocating and copying nothing: TensorIterator's
// promoted CPU inputs (engine/elementwise.cpp) are such copies.
Shape to_copy_strides(const Tensor& self, DType dtype);
Checked<Shape> to_copy_strides_checked(const Tensor& self, DType dtype);  // its errors returned
// repeat(repeats): "Number of dimensions of repeat dims can not be smaller
// than number of dimensions of tensor".
Tensor repeat(const Tensor& self, const Shape& repeats);
// index_select(dim, index): IndexError "index out of range in self".
Tensor index_select(const Tensor& self, int64_t dim, const Shape& index);
// repeat and index_select with their errors returned (Note [errors returned, not thrown]).
Checked<Tensor> repeat_checked(const Tensor& self, const Shape& repeats);
Checked<Tensor> index_select_checked(const Tensor& self, int64_t dim, const Shape& index);
Checked<Tensor> flip_checked(const Tensor& self, const Shape& dims);
// flip(dims): "dim 0 appears multiple times in the list of dims".
Tensor flip(const Tensor& self, const Shape& dims);
// empty_like: contents undefined (the whole new storage is marked undefined).
Tensor empty_like(const Tensor& self, std::optional<DType> dtype = std::nullopt,
                  std::optional<MemoryFormat> format = std::nullopt);
Tensor zeros_like(const Tensor& self, std::optional<DType> dtype = std::nullopt,
                  std::optional<MemoryFormat> format = std::nullopt);
// clone, contiguous, to, empty_like, zeros_like with the size, storage size
// and format rank errors returned (Note [errors returned, not thrown]).
Checked<Tensor> clone_checked(const Tensor& self, MemoryFormat format);
Checked<Tensor> contiguous_checked(const Tensor& self, MemoryFormat format);
Checked<Tensor> to_checked(const Tensor& self, std::optional<DType> dtype, std::optional<MemoryFormat> format);
Checked<Tensor> empty_like_checked(const Tensor& self, std::optional<DType> dtype, std::optional<MemoryFormat> format);
Checked<Tensor> zeros_like_checked(const Tensor& self, std::optional<DType> dtype, std::optional<MemoryFormat> format);

}  // namespace sc::engine
