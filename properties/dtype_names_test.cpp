// DType names (engine/dtype.h): the program text, the oracle and the diff
// all read dtypes through engine::parse_dtype, so a misread name is the same
// misreading on both sides and the differential property cannot see it. Law:
// every dtype's name reads back as that dtype, torch's aliases (torch.float,
// torch.double, torch.half, torch.long, torch.int, torch.short, torch.char,
// torch.byte) read as the dtypes PyTorch gives them, and nothing else reads.
// (Found by scripts/mutation.sh: the alias lookup was never reached.)
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/dtype.h"

namespace sc::properties {
namespace {

using engine::DType;

RC_GTEST_PROP(DTypeNames, ReadBackAsTheirDType, ()) {
  static const std::vector<std::pair<std::string, DType>> kAliases = {
      {"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16}, {"long", DType::Int64},
      {"int", DType::Int32},     {"short", DType::Int16},    {"char", DType::Int8},    {"byte", DType::UInt8}};
  const auto d = static_cast<DType>(*rc::gen::inRange(0, engine::kNumDTypes));
  const std::string name(engine::dtype_name(d));
  RC_ASSERT(engine::parse_dtype(name) == std::optional<DType>(d));
  const auto& [alias, aliased] = *rc::gen::elementOf(kAliases);
  RC_ASSERT(engine::parse_dtype(alias) == std::optional<DType>(aliased));
  const std::string junk = *rc::gen::element<std::string>("", "Float", "float 32", "torch.float32", "int128", "f") +
                           (*rc::gen::arbitrary<bool>() ? "" : name);
  const bool known = junk == name;
  RC_ASSERT(engine::parse_dtype(junk).has_value() == known);
}

}  // namespace
}  // namespace sc::properties
