#pragma once
// The integer edges the searches write out or draw: int64's limits, and the
// powers of two past which LibTorch's int32 indexing (2^31) and its headroom
// checks on sizes and strides (2^62) branch. The generator's boundary classes
// (program/generator.cpp) and the enumeration's written-out values
// (program/exhaust.cpp) share them, and the integer dtypes' ranges.
#include <cstdint>
#include <limits>

#include "engine/dtype.h"

namespace sc::int_edges {

inline constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
inline constexpr int64_t k2p31 = int64_t{1} << 31;
inline constexpr int64_t k2p62 = int64_t{1} << 62;

struct IntRange {
  int64_t lo, hi;
};
// The values an integer dtype other than bool holds.
inline IntRange integer_range(engine::DType d) {
  using engine::DType;
  switch (d) {
    case DType::UInt8: return {0, 255};
    case DType::Int8: return {-128, 127};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default: return {kI64Min, kI64Max};
  }
}

}  // namespace sc::int_edges
