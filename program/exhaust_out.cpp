#include "program/exhaust_out.h"

#include "engine/dtype.h"

namespace sc {
namespace {

using engine::DType;

const DType kDTypes[] = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16, DType::Int64,
                         DType::Int32,   DType::Int16,   DType::Int8,    DType::UInt8,    DType::Bool};

// A dtype of d's width other than d (`view dtype=` reinterprets its bytes).
const char* same_width(DType d) {
  switch (d) {
    case DType::Float32: return "int32";
    case DType::Float64: return "int64";
    case DType::Float16: return "bfloat16";
    case DType::BFloat16: return "int16";
    case DType::Int64: return "float64";
    case DType::Int32: return "float32";
    case DType::Int16: return "float16";
    case DType::Int8: return "uint8";
    case DType::UInt8: return "int8";
    case DType::Bool: return "uint8";
  }
  return "float32";
}

}  // namespace

const std::vector<ResizedOut>& resized_outs() {
  static const std::vector<ResizedOut> v = [] {
    std::vector<ResizedOut> out;
    for (DType d : kDTypes) {
      const std::string dn(engine::dtype_name(d));
      const std::string base = "l = arange 24\na = to l dtype=" + dn + "\nx = view a [4,6]\ny = select x 0 1\n";
      auto add = [&](const std::string& relation, const std::string& input, const std::string& text,
                     const std::string& o = "o") {
        for (const auto& [self, other] : {std::pair{"x", "y"}, std::pair{"y", "x"}})
          out.push_back({relation, input, base + text, self, other, o});
      };
      for (DType od : kDTypes) {
        const std::string on(engine::dtype_name(od));
        const std::string input = dn + " matrix and row, out " + on;
        add("an empty new tensor", input, "o = zeros [0] dtype=" + on + "\n");
        add("a new tensor of another shape", input, "o = zeros [5] dtype=" + on + "\n");
        add("a new 0-d tensor", input, "o = zeros [] dtype=" + on + "\n");
        add("a new tensor, the result's shape transposed", input,
            "ob = zeros [6,4] dtype=" + on + "\no = transpose ob 0 1\n");
        add("an empty view past a new storage's end", input, "ob = zeros [30] dtype=" + on + "\no = narrow ob 0 28 0\n");
      }
      const std::string input = dn + " matrix and row, out a view of them";
      add("an empty view at the matrix's start", input, "o = narrow a 0 0 0\n");
      add("an empty view at the row's start", input, "o = narrow a 0 6 0\n");
      add("an empty view at the storage's end", input, "o = narrow a 0 24 0\n");
      add("the row itself", input, "", "y");
      add("the matrix itself", input, "", "x");
      add("the base itself", input, "", "a");
      add("an alias of the row", input, "o = alias y\n");
      add("an alias of the matrix", input, "o = alias x\n");
      add("an alias of the base", input, "o = alias a\n");
      add("the row expanded", input, "o = expand y [4,6]\n");
      add("the matrix transposed", input, "o = transpose x 0 1\n");
      add("the matrix's bytes as another dtype", input, std::string("o = view x dtype=") + same_width(d) + "\n");
      add("an empty stride-0 view inside the matrix", input, "ob = narrow y 0 2 1\no = expand ob [0,6]\n");
    }
    return out;
  }();
  return v;
}

}  // namespace sc
