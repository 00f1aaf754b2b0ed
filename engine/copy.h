#pragma once
// Copy ops: results own fresh storage (contiguous, clone, to, repeat,
// index_select, flip, empty_like, zeros_like) and copy_ into an existing header.
#include "engine/layout.h"
#include "engine/tensor.h"

namespace sc::engine {

// clone(memory_format): preserve keeps the strides of a non-overlapping-and-
// dense input, otherwise follows LibTorch's suggest_memory_format.
Tensor clone(const Tensor& self, MemoryFormat format = MemoryFormat::Preserve);
// contiguous(memory_format): self when already contiguous in that format.
Tensor contiguous(const Tensor& self, MemoryFormat format = MemoryFormat::Contiguous);

// Element-by-element copy between two headers of the same sizes (any strides,
// any dtypes: converts). No checks: callers check (engine/kernels/cpu).
void copy_elements(const Tensor& dst, const Tensor& src);

}  // namespace sc::engine
