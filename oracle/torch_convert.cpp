// Conversions between the program language (dtype names, Numbers, format=)
// and LibTorch's types.
#include <c10/core/MemoryFormat.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>

#include "oracle/torch_ops.h"

namespace sc::oracle {

at::ScalarType to_scalar_type(engine::DType d) {
  using engine::DType;
  switch (d) {
    case DType::Bool: return at::kBool;
    case DType::UInt8: return at::kByte;
    case DType::Int8: return at::kChar;
    case DType::Int16: return at::kShort;
    case DType::Int32: return at::kInt;
    case DType::Int64: return at::kLong;
    case DType::Float16: return at::kHalf;
    case DType::BFloat16: return at::kBFloat16;
    case DType::Float32: return at::kFloat;
    case DType::Float64: return at::kDouble;
  }
  SC_ASSERT(false, "unknown engine dtype");
  return at::kFloat;
}

std::optional<engine::DType> to_engine_dtype(at::ScalarType t) {
  using engine::DType;
  switch (t) {
    case at::kBool: return DType::Bool;
    case at::kByte: return DType::UInt8;
    case at::kChar: return DType::Int8;
    case at::kShort: return DType::Int16;
    case at::kInt: return DType::Int32;
    case at::kLong: return DType::Int64;
    case at::kHalf: return DType::Float16;
    case at::kBFloat16: return DType::BFloat16;
    case at::kFloat: return DType::Float32;
    case at::kDouble: return DType::Float64;
    default: return std::nullopt;
  }
}

std::string dtype_name(at::ScalarType t) {
  if (auto d = to_engine_dtype(t)) return std::string(engine::dtype_name(*d));
  return c10::toString(t);
}

std::optional<at::ScalarType> kw_dtype(const ArgReader& a) {
  auto name = a.kw_dtype();
  if (!name) return std::nullopt;
  auto d = engine::parse_dtype(*name);
  SC_ASSERT(d.has_value(), "dtype= was checked by check_signature: ", *name);
  return to_scalar_type(*d);
}

at::ScalarType dtype_or(const ArgReader& a, at::ScalarType fallback) { return kw_dtype(a).value_or(fallback); }

at::Scalar to_scalar(const Number& n) {
  switch (n.kind) {
    case Number::Kind::Int: return at::Scalar(static_cast<int64_t>(n.i));
    case Number::Kind::Float: return at::Scalar(n.f);
    case Number::Kind::Bool: return at::Scalar(n.i != 0);
  }
  SC_ASSERT(false, "unknown Number kind");
  return at::Scalar(int64_t{0});
}

at::MemoryFormat to_memory_format(FormatArg f) {
  switch (f) {
    case FormatArg::Preserve: return at::MemoryFormat::Preserve;
    case FormatArg::Contiguous: return at::MemoryFormat::Contiguous;
    case FormatArg::ChannelsLast: return at::MemoryFormat::ChannelsLast;
    case FormatArg::ChannelsLast3d: return at::MemoryFormat::ChannelsLast3d;
  }
  SC_ASSERT(false, "unknown FormatArg");
  return at::MemoryFormat::Contiguous;
}

c10::optional<at::MemoryFormat> kw_memory_format(const ArgReader& a) {
  if (auto f = a.kw_format()) return to_memory_format(*f);
  return c10::nullopt;
}

}  // namespace sc::oracle
