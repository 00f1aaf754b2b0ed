#pragma once
// The allocation budget (DESIGN.md Limits): before a creation or copy step runs,
// the interpreter computes an upper bound of the bytes it allocates from the
// step's literal arguments and its inputs' headers, on every backend alike, so a
// program over the budget is stopped at the same step everywhere.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/dtype.h"
#include "engine/tensor.h"
#include "program/ir.h"

namespace sc {

struct InputHeader {
  engine::Shape sizes;  // inline up to 6 dims: asked for per input and step, on both backends
  engine::Shape strides;
  int64_t itemsize = 4;
  // The element type, for TensorIterator's hidden conversions (Note [hidden
  // allocations of type promotion]); unknown: none are counted.
  std::optional<engine::DType> dtype;
  // Where the header starts in its storage and the storage's bytes, for the
  // growth of an out= resize (resize_ grows the storage to (numel + offset)
  // elements: an out at offset 2^31 resized to one element allocates 8 GiB
  // of float32); unknown storage: no growth is counted.
  int64_t storage_offset = 0;
  std::optional<int64_t> storage_nbytes;
  // is_non_overlapping_and_dense() as the tensor caches it, which a failed
  // out= resize leaves stale (Note [stale layout flags], engine/tensor.h):
  // has_internal_overlap answers No on it without looking at the strides.
  // Unknown: computed from sizes and strides.
  std::optional<bool> non_overlapping_and_dense;
};

struct AllocationEstimate {
  int64_t bytes = 0;  // saturates at INT64_MAX
  std::string what;   // "zeros [1000000,1000000] float32"
};

// nullopt: the step allocates nothing (views, scalar-only in-place ops) or
// LibTorch's own checks reject it before allocating (negative sizes, a storage
// size computation that overflows int64, shapes that do not broadcast): such a
// step is run and compared, never skipped. Only a step that would really
// allocate past the budget is skipped.
//
// `describe`: fill AllocationEstimate::what. The interpreter reads the text
// only for a step over the budget, so it asks without it first (the text
// costs more than the estimate) and again with it when the step is over.
std::optional<AllocationEstimate> allocation_estimate(
    const Step& step, const std::function<InputHeader(const std::string&)>& input, bool describe = true);

// The number of elements an in-place step writes (its first argument's numel,
// saturating), or an elementwise step into an out= that has the result's
// shape already (out's numel), or nullopt for other steps: their work is
// bounded by what they allocate. Checked against RunOptions::max_step_elements.
std::optional<int64_t> inplace_elements(const Step& step,
                                        const std::function<InputHeader(const std::string&)>& input);

}  // namespace sc
