#pragma once
// Element types, with LibTorch's names and promotion lattice.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sc::engine {

enum class DType : uint8_t {
  Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64,
};
inline constexpr int kNumDTypes = 10;

// Bytes per element (the table in dtype.cpp checks these at compile time).
// Inline: every view op's bounds check reads it.
inline constexpr int8_t kItemsizes[kNumDTypes] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
inline constexpr int64_t itemsize(DType d) { return kItemsizes[static_cast<uint8_t>(d)]; }
// The program language's name: "float32", "int64", "bool", ...
std::string_view dtype_name(DType);
// Accepts the program names and LibTorch's aliases ("float", "half", "long", ...).
std::optional<DType> parse_dtype(std::string_view);
// LibTorch's ScalarType name as it appears in error messages: "Float", "Long", "Half", ...
std::string_view torch_scalar_type_name(DType);

bool is_floating(DType);
bool is_integral(DType, bool include_bool);
// c10::promoteTypes.
DType promote_types(DType, DType);

}  // namespace sc::engine
