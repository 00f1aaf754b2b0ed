#include "engine/dtype.h"

#include <array>

namespace sc::engine {
namespace {
struct Info {
  DType dtype;
  int64_t itemsize;
  std::string_view name;
  std::string_view torch_name;
};
constexpr std::array<Info, kNumDTypes> kInfo{{
    {DType::Bool, 1, "bool", "Bool"},
    {DType::UInt8, 1, "uint8", "Byte"},
    {DType::Int8, 1, "int8", "Char"},
    {DType::Int16, 2, "int16", "Short"},
    {DType::Int32, 4, "int32", "Int"},
    {DType::Int64, 8, "int64", "Long"},
    {DType::Float16, 2, "float16", "Half"},
    {DType::BFloat16, 2, "bfloat16", "BFloat16"},
    {DType::Float32, 4, "float32", "Float"},
    {DType::Float64, 8, "float64", "Double"},
}};
constexpr bool itemsizes_agree() {
  for (const Info& i : kInfo)
    if (i.itemsize != itemsize(i.dtype)) return false;
  return true;
}
static_assert(itemsizes_agree(), "dtype.h's itemsize table disagrees with kInfo");
const Info& info(DType d) { return kInfo[static_cast<size_t>(d)]; }
}  // namespace

std::string_view dtype_name(DType d) { return info(d).name; }
std::string_view torch_scalar_type_name(DType d) { return info(d).torch_name; }

std::optional<DType> parse_dtype(std::string_view s) {
  for (const Info& i : kInfo)
    if (i.name == s) return i.dtype;
  struct Alias { std::string_view name; DType dtype; };
  static constexpr Alias kAliases[] = {
      {"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
      {"long", DType::Int64},    {"int", DType::Int32},      {"short", DType::Int16},
      {"char", DType::Int8},     {"byte", DType::UInt8},
  };
  for (const Alias& a : kAliases)
    if (a.name == s) return a.dtype;
  return std::nullopt;
}

bool is_floating(DType d) {
  return d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 || d == DType::Float64;
}
bool is_integral(DType d, bool include_bool) {
  if (d == DType::Bool) return include_bool;
  return !is_floating(d);
}

// c10::promoteTypes (c10/core/ScalarType.h), restricted to our ten types.
// Order of rows/columns: b1 u1 i1 i2 i4 i8 f2 bf f4 f8.
DType promote_types(DType a, DType b) {
  using D = DType;
  constexpr D b1 = D::Bool, u1 = D::UInt8, i1 = D::Int8, i2 = D::Int16, i4 = D::Int32,
              i8 = D::Int64, f2 = D::Float16, bf = D::BFloat16, f4 = D::Float32, f8 = D::Float64;
  static constexpr D table[kNumDTypes][kNumDTypes] = {
      /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8},
      /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8},
      /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8},
      /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8},
      /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8},
      /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8},
      /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
  };
  return table[static_cast<size_t>(a)][static_cast<size_t>(b)];
}

}  // namespace sc::engine
