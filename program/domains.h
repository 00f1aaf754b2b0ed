#pragma once
// Every parameter's domain, declared once beside the op table (STYLE lesson
// 14). For each op of program/ops.h and each of its parameters and keyword
// arguments, the domain says which classes of values LibTorch distinguishes:
// the valid ones, the boundaries (0, 1, -1, size, size-1, -size, -size-1,
// INT64_MIN/MAX, 2^31, 2^62, 2^63-1, dtype limits, NaN, inf, -0.0), and the
// invalid ones. The generator draws a class by weight, then a value of that
// class; the coverage report (`stridecheck generate --stats`) counts draws and
// outcomes per class; a test checks that every op has a domain for every
// parameter and that every class is drawn.
#include <string_view>
#include <vector>

namespace sc {

// The kinds of domain. Each is drawn by program/generator.cpp, which knows the
// input tensor (its rank, the size of the dim already drawn for this step).
enum class Domain {
  Self,             // the tensor an op works on
  ViewSelf,         // a view op's input, by layout (0-d, empty, stride 0, offset, ...)
  FormatSelf,       // the input of an op taking format=: 4-d and 5-d values often
  Other,            // a second tensor operand
  Dim,              // a dim of self: [-rank, rank-1] (rank 0 wraps as rank 1)
  InsertDim,        // unsqueeze: [-rank-1, rank]
  OptDim,           // squeeze: none or a Dim
  DimList,          // flip: distinct dims
  Permutation,      // permute
  MoveDims,         // movedim source/destination: an int or a list
  Index,            // select: an index into the chosen dim
  Start,            // narrow start
  Length,           // narrow length
  SliceBound,       // slice start/end (clamped by LibTorch)
  SliceStep,        // slice step
  DiagOffset,       // diagonal offset
  WindowSize,       // unfold size
  WindowStep,       // unfold step
  Shape,            // sizes of a new tensor (creation, as_strided)
  Strides,          // strides (as_strided, empty_strided)
  StorageOffset,    // as_strided storage_offset
  ViewShape,        // view/reshape/unflatten target: a factorisation of numel, with -1
  ViewShapeOrDType, // view: a shape, or no shape and dtype= (reinterpret the bytes)
  ExpandShape,      // expand/broadcast_to target
  ArangeEnd,        // arange end
  Chunks,           // chunk count
  SplitSize,        // split: one size or a list of sizes
  Repeats,          // repeat
  IndexList,        // index_select indices
  Scalar,           // a Number
  OptScalar,        // a Number or none (clamp_)
  ScalarOrTensor,   // a Number or a tensor (add_, fill_, add)
  Values,           // tensor literal values
  DType,            // dtype= keyword, required
  OptDType,         // dtype= keyword, optional
  SetByShape,       // view's dtype=: given exactly when ViewShapeOrDType draws "reinterpret"
  OptFormat,        // format= keyword, optional
  OptOut,           // out= keyword, optional
};

enum class Validity { Valid, Boundary, Invalid };
std::string_view validity_name(Validity);  // "valid", "boundary", "invalid"

struct DomainClass {
  std::string_view name;
  int weight;  // relative chance of being drawn
  Validity validity;
};

// The classes of a domain, in a fixed order (the report lists them so).
const std::vector<DomainClass>& domain_classes(Domain);
std::string_view domain_name(Domain);

struct ParamDomain {
  std::string_view param;  // as in OpSpec::params / OpSpec::kwargs
  Domain domain;
  // For an optional positional parameter: the chance (percent) that it is
  // written out when the ones before it are (required parameters: 100).
  int given_percent = 100;
};

struct OpDomain {
  std::string_view op;
  std::vector<ParamDomain> params;  // one per OpSpec::params, same order
  std::vector<ParamDomain> kwargs;  // one per OpSpec::kwargs, same order
};

// nullptr when `op` has no domain (a test checks that every op has one).
const OpDomain* find_domain(std::string_view op);
const std::vector<OpDomain>& all_domains();

}  // namespace sc
