#pragma once
// Overlap analysis (STYLE lesson 3: tri-state answers).
//  - has_internal_overlap / get_overlap_status: LibTorch's answers exactly
//    (aten/src/ATen/MemoryOverlap.cpp), so error decisions match.
//  - exact_internal_overlap / exact_overlap: the exact answer for any strided
//    layout, as NumPy's shares_memory solves it, with bounded work.
#include <cstdint>

#include "engine/checked.h"
#include "engine/tensor.h"

namespace sc::engine {

enum class MemOverlap { No, Yes, TooHard };
enum class MemOverlapStatus { Full, Partial, No, TooHard };

// at::has_internal_overlap
MemOverlap has_internal_overlap(const Tensor& t);
// The same when t's is_non_overlapping_and_dense (its cached flag, layout_flags) is known.
MemOverlap has_internal_overlap(const Tensor& t, bool non_overlapping_and_dense);
// at::get_overlap_status(a, b)
MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b);

// at::assert_no_internal_overlap: RuntimeError when has_internal_overlap is Yes.
void assert_no_internal_overlap(const Tensor& t);
// at::assert_no_partial_overlap: RuntimeError when get_overlap_status is Partial.
void assert_no_partial_overlap(const Tensor& written, const Tensor& input);
// The same errors returned (Note [errors returned, not thrown]).
MaybeFailure internal_overlap_failure(const Tensor& t);
MaybeFailure partial_overlap_failure(const Tensor& written, const Tensor& input);

// Does any memory location belong to two different index tuples? TooHard only
// when the search would exceed `max_work` steps.
inline constexpr int64_t kDefaultOverlapWork = int64_t{1} << 22;
MemOverlap exact_internal_overlap(const Shape& sizes, const Shape& strides,
                                  int64_t max_work = kDefaultOverlapWork);
// Do two headers on the same storage share a byte? (Views of different
// storages never overlap.) TooHard past `max_work`.
MemOverlap exact_overlap(const Tensor& a, const Tensor& b, int64_t max_work = kDefaultOverlapWork);

}  // namespace sc::engine
