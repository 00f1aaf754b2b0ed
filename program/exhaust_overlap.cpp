#include "program/exhaust_overlap.h"

namespace sc {
namespace {

using engine::DType;

// The dtype of d's width that `view dtype=` reinterprets d's bytes as (bool
// and uint8 read each other's bytes; uint8 -> int8, as uint8 bytes past 1
// are no bool).
DType same_width(DType d) {
  switch (d) {
    case DType::Float32: return DType::Int32;
    case DType::Float64: return DType::Int64;
    case DType::Float16: return DType::BFloat16;
    case DType::BFloat16: return DType::Int16;
    case DType::Int64: return DType::Float64;
    case DType::Int32: return DType::Float32;
    case DType::Int16: return DType::Float16;
    case DType::Int8: return DType::UInt8;
    case DType::UInt8: return DType::Int8;
    case DType::Bool: return DType::UInt8;
  }
  return d;
}

}  // namespace

std::vector<OverlapPair> overlap_pairs(DType d) {
  const std::string dn(engine::dtype_name(d));
  const std::string base = "l = arange 24\na = to l dtype=" + dn + "\n";
  std::vector<OverlapPair> v = {
      // the base (no view) and a view of all of it: the same data
      {"the base and an as_strided alias", "q = as_strided a [24] [1] 0\n", "a"},
      // copy_'s is_same_data: two views of the same offset, sizes and strides (copy_ returns early, still bumps)
      {"same data, two views", "p = view a [4,6]\nq = view a [4,6]\n"},
      // the same data through chains that compose differently (select of 3-d, narrow of 2-d)
      {"same data, other chains", "b = view a [2,3,4]\np = select b 0 1\nc = view a [6,4]\nq = narrow c 0 3 3\n"},
      // the same byte range, other strides: Partial (Full needs the same strides)
      {"same range, transposed", "b = narrow a 0 0 16\np = view b [4,4]\nq = transpose p 0 1\n"},
      {"shifted by one element", "p = narrow a 0 0 12\nq = narrow a 0 1 12\n"},
      {"shifted columns of a matrix", "b = view a [4,6]\np = narrow b 1 0 4\nq = narrow b 1 2 4\n"},
      {"adjacent halves", "p = narrow a 0 0 12\nq = narrow a 0 12 12\n"},
      // not dense: TooHard, no check, whether or not their elements meet
      {"interleaved, disjoint", "p = slice a 0 0 24 2\nq = slice a 0 1 24 2\n"},
      {"interleaved, overlapping", "p = slice a 0 0 12 2\nq = slice a 0 2 14 2\n"},
      // has_internal_overlap: a stride-0 dim of size > 1 (in-place on it raises)
      {"expanded row over its matrix", "b = view a [4,6]\nc = narrow b 0 0 1\np = expand c [4,6]\nq = view a [4,6]\n"},
      // overlapping without a stride 0: has_internal_overlap is TooHard, in-place ops run
      {"overlapping as_strided, shifted", "p = as_strided a [3,4] [2,1] 0\nq = as_strided a [3,4] [2,1] 1\n"},
      {"0-d element inside", "p = view a [4,6]\nq = select a 0 5\n"},
      // the base itself written, a view of it read (a view is not its base: checked)
      {"the base and a 0-d element of it", "q = select a 0 5\n", "a"},
      {"row inside its matrix (broadcast)", "p = view a [4,6]\nb = view a [4,6]\nq = select b 0 1\n"},
      {"reinterpreted bytes", "p = view a [4,6]\nq = view p dtype=" + std::string(engine::dtype_name(same_width(d))) + "\n"},
      {"empty, at one offset", "p = narrow a 0 3 0\nq = narrow a 0 3 0\n"},
      // a view of a view of a view (transpose, narrow, narrow) against another chain of views of the
      // base: the composed offsets and strides decide the relation (not dense: TooHard, no check)
      {"view of a view of a view, same data", "b = view a [4,6]\nc = transpose b 0 1\ne = narrow c 0 1 4\n"
                                              "p = narrow e 1 1 2\nf = view a [4,6]\ng = narrow f 0 1 2\n"
                                              "h = narrow g 1 1 4\nq = transpose h 0 1\n"},
      {"view of a view of a view, shifted", "b = view a [4,6]\nc = transpose b 0 1\ne = narrow c 0 1 4\n"
                                            "p = narrow e 1 1 2\nf = view a [4,6]\ng = narrow f 0 1 2\n"
                                            "h = narrow g 1 2 4\nq = transpose h 0 1\n"},
  };
  for (OverlapPair& p : v) p.text = base + p.text;
  return v;
}

}  // namespace sc
