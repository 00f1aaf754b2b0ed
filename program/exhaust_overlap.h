#pragma once
// Overlapping operand pairs (Note [Exhaust chains], program/exhaust.h): two
// views p and q of one storage, one pair for each relation LibTorch's overlap
// rules tell apart (aten/src/ATen/MemoryOverlap.cpp, TensorIterator's
// compute_mem_overlaps, copy_impl's early returns), reached through chains of
// views where the relation depends on how they compose.
#include <string>
#include <vector>

#include "engine/dtype.h"

namespace sc {

struct OverlapPair {
  std::string relation;  // "shifted by one element (partial)"
  std::string text;      // program text binding p and q (and the views between)
  std::string p = "p", q = "q";  // the names of the two operands
};

// The pairs over a base `a` of 24 elements of dtype d (arange 24 converted
// to d), in a fixed order.
std::vector<OverlapPair> overlap_pairs(engine::DType d);

}  // namespace sc
