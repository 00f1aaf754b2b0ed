#pragma once
// Brute-force reference answers for the overlap questions of engine/overlap.h:
// every element's byte range is enumerated and compared. Used to check the
// solver (tests/engine/overlap_test.cpp, fuzz/overlap_fuzzer.cpp) and the
// UNDEFINED claims that rest on it. Offsets are computed in 128 bits, so any
// header is accepted; tensors with more than `max_elements` elements get no
// answer (nullopt).
#include <cstdint>
#include <optional>

#include "engine/tensor.h"

namespace sc::engine {

inline constexpr int64_t kBruteForceMaxElements = int64_t{1} << 16;

// Does a memory location belong to two different index tuples?
std::optional<bool> brute_force_internal_overlap(const Shape& sizes, const Shape& strides,
                                                 int64_t max_elements = kBruteForceMaxElements);
// Do two headers share a byte? Different storages never do.
std::optional<bool> brute_force_overlap(const Tensor& a, const Tensor& b,
                                        int64_t max_elements = kBruteForceMaxElements);
// Do two headers cover exactly the same bytes (both empty included)?
std::optional<bool> brute_force_same_bytes(const Tensor& a, const Tensor& b,
                                           int64_t max_elements = kBruteForceMaxElements);

}  // namespace sc::engine
