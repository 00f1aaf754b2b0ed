#pragma once
// The integer edges the searches write out or draw: int64's limits, and the
// powers of two past which LibTorch's int32 indexing (2^31) and its headroom
// checks on sizes and strides (2^62) branch. The generator's boundary classes
// (program/generator.cpp) and the enumeration's written-out values
// (program/exhaust.cpp) share them.
#include <cstdint>
#include <limits>

namespace sc::int_edges {

inline constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
inline constexpr int64_t k2p31 = int64_t{1} << 31;
inline constexpr int64_t k2p62 = int64_t{1} << 62;

}  // namespace sc::int_edges
