#pragma once
// Note [elements outside their storage]: LibTorch 1.13's bounds check of a
// view (checkInBoundsForStorage) adds the header's byte extent and
// storage_offset * itemsize in int64 and lets the sum wrap, so
// as_strided(t, [2], [1], 2^62) of a bfloat16 tensor passes (2^62 * 2 wraps
// to -2^63): a header whose elements lie far outside every allocation. View
// ops only compute headers and are compared as usual, but a step that reads or
// writes such a tensor's elements would fault (it took the property run down,
// seed 13). The interpreter refuses such a step on every backend alike, before
// it runs, as it does an allocation past the budget.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/tensor.h"
#include "program/ir.h"

namespace sc {

struct StorageExtent {
  engine::Shape sizes, strides;
  int64_t storage_offset = 0;
  int64_t itemsize = 1;
  int64_t storage_nbytes = 0;
};

// Every element of the header lies inside [0, storage_nbytes): true for a
// header with no elements; computed exactly (128 bits), whatever the values.
bool elements_inside_storage(const StorageExtent&);

// Why a step that may touch the elements of its tensor inputs (a copy,
// in-place or elementwise op, or reshape/flatten, which copy when no view
// fits; other view ops and creation ops never do) must not run, or nullopt.
std::optional<std::string> refuse_out_of_storage(const Step& step,
                                                 const std::function<StorageExtent(const std::string&)>& input);

}  // namespace sc
