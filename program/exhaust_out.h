#pragma once
// Note [Exhaust resized out=] (`stridecheck exhaust --phase 6`): add, mul and
// neg into an out= tensor that must be resized, or that aliases an operand.
// TensorIterator checks the operands' overlap (compute_mem_overlaps) before
// it resizes the outputs (allocate_or_resize_outputs): an empty out= passes
// every overlap check and is then resized over the very elements it reads; a
// view resized past its storage grows the storage every other view shares;
// an out= of another shape is resized (a non-empty one with a warning), of
// another dtype cast into, and an expanded one refused. The operands: x a
// 4x6 matrix of `a` (arange 24 in dtype D), y its row 1 (broadcast against
// it), in both orders (neg: each alone). The out= tensors: new ones of every
// dtype (empty, another shape, 0-d, the result's shape transposed, an empty
// view past a storage's end), and, in D, views of `a` (empty at x's start, at
// y's start, at the storage's end; aliases of y, x and the base, y expanded,
// x transposed, x's bytes reinterpreted, an empty stride-0 view; and
// y, x and a themselves, where out= resizes the operand's own header). And
// every input of the catalogue (program/exhaust.h: each layout, stale
// headers too, in each dtype) as the out= of a float32 [4,6] or 0-d result.
#include <string>
#include <vector>

namespace sc {

struct ResizedOut {
  std::string relation;  // "an empty view at the row's start"
  std::string input;     // "float32 matrix and row, out int64"
  std::string text;      // program text binding the operands and the out tensor
  std::string self, other, out;
};

// Every case, in a fixed order (each dtype, then each out dtype or relation).
const std::vector<ResizedOut>& resized_outs();

}  // namespace sc
