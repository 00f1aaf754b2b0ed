#include "program/domains.h"

#include <map>
#include <stdexcept>
#include <unordered_map>

namespace sc {
namespace {

constexpr Validity V = Validity::Valid;
constexpr Validity B = Validity::Boundary;
constexpr Validity X = Validity::Invalid;

using D = Domain;

// Integer boundaries shared by the integer domains: LibTorch wraps, clamps or
// multiplies these, and 2^31 / 2^62 / INT64_MAX find int32 truncations and
// int64 overflows in size and offset arithmetic.
std::vector<DomainClass> with_extremes(std::vector<DomainClass> v) {
  v.push_back({"INT64_MIN", 1, B});
  v.push_back({"INT64_MAX", 1, B});
  v.push_back({"+-2^31", 1, B});
  v.push_back({"+-2^62", 1, B});
  return v;
}

// Scalars at and around every dtype's limits (engine/scalar.cpp converts them
// with LibTorch's checked and unchecked rules).
std::vector<DomainClass> scalar_classes() {
  return {
      {"small int", 30, V},
      {"small float", 14, V},
      {"bool", 8, V},
      {"int dtype limit", 10, B},         // int8/uint8/int16/int32/int64 min, max and +-1 beyond
      // self's own dtype's min and max, +-1 beyond and -1 within (uint8 also
      // -255 and -256: 1.13's unsigned overflow rule); the checked
      // conversions of fill_ and clamp_'s bounds (the Clamp range checks,
      // a bound that saturates) branch exactly there. Without a self (full),
      // an int dtype limit.
      {"self dtype limit", 10, B},
      {"reduced float max", 5, B},        // float16 / bfloat16 / float32 max and just past
      {"past exact integers", 5, B},      // 2049, 16777217, 2^53+1: not exact in a reduced float
      {"huge float64", 4, B},             // far beyond 2^32 and 2^64
      {"nan", 4, B},
      {"inf", 3, B},
      {"-inf", 3, B},
      {"-0.0", 4, B},
      {"denormal", 4, B},                 // float32/float16 subnormals, float64's smallest
      // program/value_draws.h: halfway between two float16/bfloat16/float32
      // neighbours (round to nearest even), and each float dtype's smallest
      // subnormal, smallest normal and largest finite value
      {"rounding tie", 4, B},
      {"finite limits", 3, B},
  };
}

std::map<Domain, std::pair<std::string_view, std::vector<DomainClass>>> build_classes() {
  std::map<Domain, std::pair<std::string_view, std::vector<DomainClass>>> m;
  // The data ops' input (copies, in-place, elementwise): by layout too, as
  // ViewSelf below, with small weights. Their kernels, overlap checks,
  // undefined-contents flow and output-layout rules (TensorIterator's
  // all_ops_same_shape_, an empty non-contiguous operand's stride order, the
  // is_scalar(2) test) branch on exactly these.
  m[D::Self] = {"self", {{"recent value", 55, V},
                         {"any value", 45, V},
                         {"0-d", 5, B},
                         {"empty", 3, B},
                         {"stride 0", 3, B},
                         {"non-contiguous", 4, V},
                         {"overlapping", 2, B},
                         {"storage offset", 3, V},
                         {"size-1 dim", 3, B},
                         {"huge numel", 2, B},
                         {"special-value run", 7, B},
                         {"odd size-1 strides", 3, B},
                         {"dtype limits", 3, B},
                         {"negative size", 3, B},
                         {"rank 64 or 65", 1, B},
                         {"failed out=", 2, B}}};
  // "dtype limits" (here and in FormatSelf, whose `to dtype=` converts them): a
  // new tensor of a drawn dtype (int64 most often) holding
  // that dtype's lowest and highest values, one within each, 0, 1 and -1
  // (made by a step of its own); its scalar operands are then a limit of its
  // dtype half the time: clamp_'s bounds saturate there (int64's
  // INT64_MIN + 1 bound against an INT64_MIN element), fill_ and the in-place
  // ops convert there.
  // "odd size-1 strides" (here and in Other): size-1 dims whose strides are
  // 0, 1, a neighbour's, one past it or 2^40, which decide TensorIterator's
  // loop order and so the NaN bits of reduced-float kernels (Note [Odd
  // size-1 strides], program/generator.cpp); in Other, a NaN tensor laid
  // out with self's sizes (some of them 1).
  // The input of the ops that take format=: "4-d or 5-d value" is a value of
  // the ranks channels_last / channels_last_3d take (any value when there is
  // none); other ranks raise "required rank 4 tensor to use channels_last format".
  // "huge numel": a stride-0 view of 2^51..2^61 elements (no allocation),
  // whose copy is over budget or overflows the storage size: the factory
  // checks' order against the format's rank check.
  // "special-value run" (here, in Self and in Other): a new float16,
  // bfloat16, float32 or float64 tensor of 31..1100 elements holding runs of
  // NaNs (payloads and signs through integer bit patterns viewed as the
  // dtype), infs, -0.0, subnormals, finite limits and rounding ties, made by
  // steps of their own (Note [Special-value runs], program/value_draws.h),
  // or one made earlier in the program.
  // "non-contiguous": contiguous(format=preserve) raises only there.
  m[D::FormatSelf] = {"format op input", {{"recent value", 40, V}, {"any value", 30, V}, {"4-d or 5-d value", 30, V},
                                          {"huge numel", 4, B}, {"special-value run", 8, B},
                                          {"non-contiguous", 6, V}, {"dtype limits", 5, B},
                                          {"conversion edges", 10, B}, {"tiled transpose", 5, V},
                                          {"ambiguous channels layout", 6, B}}};
  // "conversion edges" (here and in Other), "tiled transpose", "ambiguous
  // channels layout" (size-1 dims whose strides the channels-last rules
  // read: N111, N1H1, 1C1W, C's stride 0), and below
  // "0-d of another dtype" (ScalarOrTensor) and "past reduced float exact
  // range" (ArangeEnd): Note [Rule boundaries drawn on purpose],
  // program/generator.cpp (float -> integer/bool conversions, the blocked
  // transposing copy, 0-d operands' ranking and the opmath scalar, arange's
  // vector loop).
  // The view ops' input, by layout: each class picks a value of that layout
  // from the program so far (any value when there is none). LibTorch's view
  // rules branch on exactly these: 0-d (wrap as a scalar), empty (strides
  // are arbitrary), stride 0, non-contiguous (computeStride's chunks),
  // overlapping, a storage offset (select/narrow/as_strided), size-1 dims
  // (whose strides never matter, so they may be huge), high rank.
  m[D::ViewSelf] = {"view input", {{"recent value", 40, V},
                                    {"any value", 25, V},
                                    {"0-d", 5, B},
                                    {"empty", 5, B},
                                    {"stride 0", 5, B},
                                    {"non-contiguous", 6, V},
                                    {"overlapping", 3, B},
                                    {"storage offset", 5, V},
                                    {"size-1 dim", 4, B},
                                    {"rank 5 or more", 2, B},
                                    {"padded rows", 4, V},
                                    {"wraps when narrowed", 2, B},
                                    {"negative size", 5, B},
                                    {"rank 64 or 65", 1, B},
                                    {"failed out=", 2, B},
                                    {"odd size-1 strides", 3, B}}};
  // "odd size-1 strides" (here too): a size-1 dim's stride never ends one of
  // computeStride's chunks of contiguous dims (TensorUtils.cpp), so view,
  // reshape and flatten merge across it whatever it is.
  // "padded rows": rows of 2, 4 or 8 elements whose stride is 0..4 past
  // their length, at an offset of 0..4 (a narrow of the last dim): stride(-1)
  // is 1, and the outer stride, the offset or both are no multiple of a
  // wider dtype's ratio, so `view dtype=` reaches each of its divisibility
  // checks in turn (a view of this class reinterprets as a wider dtype half
  // the time).
  // "wraps when narrowed": a size-1 dim's stride, a last size (beside a zero
  // one) or a storage offset (with a zero size) of 2^63 / r, r = 2, 4 or 8:
  // `view dtype=` to an element r times narrower wraps it to -2^63, not a
  // SymInt (2.x: a symbolic result, what reading it raises); a view of this
  // class reinterprets as a narrower dtype half the time (as "padded rows" as
  // a wider one).
  // "negative size" (here, in Self and in Other): a value with a negative size
  // and a zero one (as_strided [-2,0] [1,1] passes LibTorch's checks: numel 0
  // needs no storage; [0,3,-2] too, as numel multiplies in order and stops
  // overflowing at the 0, which a transpose to [-2,3,0] no longer does:
  // "numel: integer multiplication overflow"), which LibTorch lets through its views and rejects in
  // allocation ("Trying to create tensor with negative dimension"), split
  // ("narrow(): length must be non-negative."), unbind ("cannot create
  // std::vector larger than max_size()"), chunk, narrow, select, unfold.
  // "failed out=" (here and in Self): an out= tensor whose resize raised after
  // setting its sizes, keeping its old numel or wrapped strides (Note [stale
  // layout flags], engine/tensor.h): what later steps on it may raise.
  // "rank 64 or 65": just inside and just past dim_list_to_bitset's 64 dims
  // (flip: "only tensors with up to 64 dims are supported").
  // "same storage": another value on self's storage (a view of it, or self's
  // base): copy_ and in-place ops between aliases reach the overlap rules
  // (partial overlap errors, inputs lined up with the output, overlapping
  // inputs LibTorch lets through).
  // "reinterpreted alias": self's bytes viewed as another dtype (a `view
  // dtype=` step emitted first, narrowed back to self's sizes where it grew),
  // float32 <-> float16 half the time: copy_'s fast paths and overlap rules
  // between dtypes (2.15 converts float32 <-> float16 unchecked).
  // "0-d" ... "size-1 dim": a value of that layout (as ViewSelf's classes;
  // made by a step of its own when the program has none).
  m[D::Other] = {"tensor", {{"any value", 64, V}, {"self", 15, V}, {"same storage", 15, V},
                            {"reinterpreted alias", 6, V}, {"0-d", 3, B}, {"empty", 3, B}, {"stride 0", 3, B},
                            {"non-contiguous", 3, V}, {"size-1 dim", 3, B}, {"special-value run", 6, B},
                            {"odd size-1 strides", 4, B}, {"negative size", 4, B}, {"conversion edges", 4, B}}};
  std::vector<DomainClass> dim = with_extremes({{"in range", 55, V}, {"negative", 30, V}, {"-rank-1", 4, X}, {"rank", 4, X}});
  m[D::Dim] = {"dim", dim};
  m[D::InsertDim] = {"insert dim", with_extremes({{"in range", 55, V}, {"negative", 30, V}, {"-rank-2", 4, X}, {"rank+1", 4, X}})};
  std::vector<DomainClass> opt_dim = {{"none", 40, V}};
  opt_dim.insert(opt_dim.end(), dim.begin(), dim.end());
  m[D::OptDim] = {"optional dim", opt_dim};
  m[D::DimList] = {"dim list", {{"subset", 55, V}, {"negative dims", 12, V}, {"empty", 8, V}, {"all dims", 10, V},
                                {"repeated dim", 5, X}, {"out of range", 5, X}}};
  m[D::Permutation] = {"permutation", {{"permutation", 70, V}, {"negative dims", 15, V}, {"repeated dim", 5, X},
                                       {"wrong length", 5, X}, {"out of range", 5, X},
                                       {"INT64_MIN or INT64_MAX", 2, X}}};
  m[D::MoveDims] = {"move dims", {{"one dim", 45, V}, {"dim list", 35, V}, {"empty list", 4, V},
                                  {"out of range", 5, X}, {"repeated dim", 5, X}, {"length mismatch", 5, X},
                                  {"INT64_MIN or INT64_MAX", 2, X}}};
  m[D::Index] = {"index", with_extremes({{"in range", 60, V}, {"negative", 25, V}, {"size", 5, X}, {"-size-1", 5, X}})};
  m[D::Start] = {"start", with_extremes({{"in range", 55, V}, {"negative", 25, V}, {"size", 6, B}, {"size+1", 4, X},
                                         {"-size-1", 4, X}})};
  m[D::Length] = {"length", with_extremes({{"fits", 60, V}, {"zero", 10, B}, {"one past", 6, X}, {"negative", 6, X}})};
  m[D::SliceBound] = {"slice bound", with_extremes({{"none", 25, V}, {"in range", 40, V}, {"negative", 15, V},
                                                    {"past the end", 5, B}, {"before the start", 5, B}})};
  // 2^31 and 2^62 steps wrap step * stride in as_strided's checks; below
  // -2^62 is not a SymInt (1.13 raises before the step's own check).
  m[D::SliceStep] = {"slice step", {{"1", 50, V}, {"2..3", 30, V}, {"size or more", 8, B}, {"INT64_MAX", 3, B},
                                    {"2^31 or 2^62", 3, B}, {"0", 4, X}, {"negative", 4, X}, {"INT64_MIN", 1, X},
                                    {"below -2^62", 2, X}}};
  m[D::DiagOffset] = {"diagonal offset", with_extremes({{"small", 70, V}, {"+-size", 12, B}, {"past size", 5, B}})};
  m[D::WindowSize] = {"window size", {{"fits", 60, V}, {"0", 8, B}, {"size", 8, B}, {"size+1", 8, X}, {"negative", 6, X},
                                      {"INT64_MAX", 3, X}, {"INT64_MIN", 2, X}}};
  // step * stride[dim] wraps for 2^62 (as_strided then checks the wrapped stride)
  m[D::WindowStep] = {"window step", {{"1..3", 70, V}, {"size+1", 6, B}, {"INT64_MAX", 4, B}, {"2^62", 3, B},
                                      {"0", 8, X}, {"negative", 8, X}, {"INT64_MIN", 2, X}}};
  m[D::Shape] = {"shape", {{"small", 45, V},
                           {"rank 5-6", 12, V},
                           {"rank 7-64", 4, B},
                           {"rank 65", 1, B},          // past LibTorch's 64-dim limits
                           {"thousands of elements", 12, V},  // LibTorch's vectorized loops run
                           // 31..1100 elements, often 63/64/65, 127/128/129, ...: the vector loops'
                           // chunks and the engine's thread pieces (Note [Special-value runs])
                           {"vector boundaries", 8, V},
                           {"with zero", 8, B},        // also [0, 2^62]: no overflow when a size is 0
                           {"negative size", 5, X},
                           {"product overflows", 4, X},
                           {"over budget", 2, B},
                           {"INT64_MAX size", 1, X}}};
  m[D::Strides] = {"strides", {{"small", 45, V}, {"contiguous", 20, V}, {"zero", 10, V}, {"negative", 6, X},
                               {"huge", 5, B}, {"wrong length", 4, X}}};
  // "storage bytes at INT64_MAX": the offset that makes the storage the
  // header needs exactly the largest multiple of the itemsize up to INT64_MAX
  // bytes (INT64_MAX itself for a 1-byte dtype), or one element past it:
  // computeStorageNbytes' overflow test against its "out of bounds" message.
  m[D::StorageOffset] = {"storage offset", with_extremes({{"none", 35, V}, {"0", 15, V}, {"in storage", 30, V},
                                                          {"past the end", 5, X}, {"negative", 5, X},
                                                          {"storage bytes at INT64_MAX", 3, X}})};
  std::vector<DomainClass> view_shape = {{"factorisation", 40, V},     {"with -1", 25, V},
                                         {"high rank with ones", 5, B}, {"two -1", 4, X},
                                         {"wrong element count", 8, X}, {"negative size", 4, X},
                                         {"-1 with zero elements", 3, B}, {"product overflows", 3, X},
                                         {"product wraps to numel", 2, X}, {"below -2^62", 2, X}};
  m[D::ViewShape] = {"view shape", view_shape};
  view_shape.push_back({"reinterpret as dtype", 18, V});
  m[D::ViewShapeOrDType] = {"view shape or dtype", view_shape};
  m[D::ExpandShape] = {"expand shape", {{"same or -1", 40, V},
                                        {"broadcast size-1 dims", 25, V},
                                        {"new leading dims", 12, V},
                                        {"huge new dim", 5, B},  // 1e9, 2^62: views never allocate
                                        {"numel overflows", 3, B},
                                        {"numel at INT64_MAX", 2, B},  // just inside and just past
                                        {"mismatch", 5, X},
                                        {"negative", 4, X},
                                        {"-1 in a new dim", 3, X},
                                        {"fewer dims", 3, X},
                                        {"INT64_MAX in a size-1 dim", 2, B},
                                        {"below -2^62", 2, X}}};  // not a SymInt
  // "below -2^62" (view shape): not a SymInt ("IntArrayRef contains an int
  // that cannot be represented as a SymInt"). "storage overflows" (arange):
  // 2^61..2^62 elements, whose bytes overflow int64 for float32 and wider
  // ("Storage size calculation overflowed with sizes=[..]") before the budget.
  m[D::ArangeEnd] = {"arange end", {{"small", 55, V}, {"thousands", 15, V}, {"zero", 5, B}, {"one", 3, B},
                                    {"negative", 5, X}, {"past float16 exact range", 4, B}, {"over budget", 3, B},
                                    {"INT64_MAX", 2, X}, {"INT64_MIN", 2, X}, {"storage overflows", 2, X},
                                    {"past reduced float exact range", 6, B}}};
  // size + chunks - 1 wraps for INT64_MAX; 2^62 chunks of a small dim: split size 1
  m[D::Chunks] = {"chunks", {{"1..4", 70, V}, {"more than size", 10, B}, {"INT64_MAX", 4, B}, {"2^62", 2, B},
                             {"0", 6, X}, {"negative", 6, X}, {"INT64_MIN", 2, X}}};
  // "list with wrapping sum": [INT64_MAX, INT64_MAX, size+2] sums to size in
  // int64 that wraps (the pieces' starts wrap too); "list below -2^62": not
  // SymInts (2.x converts the list first).
  m[D::SplitSize] = {"split size", {{"one size", 40, V}, {"size list", 30, V}, {"0", 5, B}, {"INT64_MAX", 5, B},
                                    {"2^62", 2, B}, {"negative", 5, X}, {"INT64_MIN", 2, X},
                                    {"list with wrong sum", 7, X}, {"list with negative", 4, X},
                                    {"list with wrapping sum", 3, B}, {"list below -2^62", 2, X}}};
  m[D::Repeats] = {"repeats", {{"one per dim", 55, V}, {"extra leading", 20, V}, {"thousands of elements", 6, V},
                               {"fewer than dims", 6, X}, {"negative", 6, X}, {"product overflows", 3, X}}};
  m[D::IndexList] = {"index list", with_extremes({{"in range", 55, V}, {"duplicates", 10, V}, {"empty", 10, B},
                                                  {"many", 5, V}, {"negative", 8, X}, {"size", 8, X}})};
  m[D::Scalar] = {"scalar", scalar_classes()};
  std::vector<DomainClass> opt_scalar = {{"none", 30, V}};
  for (DomainClass c : scalar_classes()) {
    if (c.name == "self dtype limit") c.weight *= 3;  // clamp_'s bounds: the Clamp range checks
    opt_scalar.push_back(c);
  }
  m[D::OptScalar] = {"optional scalar", opt_scalar};
  std::vector<DomainClass> sot = scalar_classes();
  // fill_'s value and the in-place ops' other: a limit of self's dtype three
  // times as often as elsewhere (their checked conversions branch there).
  for (DomainClass& c : sot)
    if (c.name == "self dtype limit") c.weight *= 3;
  sot.push_back({"tensor", 70, V});
  sot.push_back({"self", 15, V});
  sot.push_back({"same storage", 12, V});
  sot.push_back({"special-value run", 5, B});
  sot.push_back({"odd size-1 strides", 4, B});
  // "NaN payload mix": a new tensor of self's sizes and floating dtype whose
  // elements are NaNs of many payloads and both signs (and infs, -0.0, ...)
  // or 1.0: against a self holding NaNs (a special-value run draws it half
  // the time), the elements where both operands are NaNs with different bits
  // are the ones LibTorch's loops choose between (Note [NaN operand choice],
  // engine/nan_choice.h), beside elements that are numbers: what the engine
  // flags there is checked (Note [Chosen NaNs checked], program/diff.cpp).
  sot.push_back({"NaN payload mix", 5, B});
  sot.push_back({"0-d of another dtype", 10, B});
  m[D::ScalarOrTensor] = {"scalar or tensor", sot};
  m[D::Values] = {"values", {{"0-d", 15, V},
                             {"ints", 25, V},
                             {"floats", 20, V},
                             {"bools", 8, V},
                             {"mixed int and float", 10, V},
                             {"mixed bool and number", 5, V},
                             {"empty", 5, B},
                             {"dtype limits", 12, B},  // 3 in 4 with dtype= (generator.cpp)
                             {"nan, inf, -0.0", 5, B},
                             // 257, 2049, 16777217, 2^53+1: integers a reduced float (or float32, float64) cannot
                             // hold, read from a tensor (a 1-element one is read in opmath as a scalar)
                             {"past exact integers", 5, B},
                             {"thousands", 3, V},
                             // 31..600 values in runs of one special value each (nan, +-inf, -0.0,
                             // subnormals, finite limits, rounding ties): program/value_draws.h
                             {"special-value runs", 6, B}}};
  std::vector<DomainClass> dtypes = {{"float32", 4, V}, {"float64", 4, V}, {"float16", 4, V}, {"bfloat16", 4, V},
                                     {"int64", 4, V},   {"int32", 4, V},   {"int16", 4, V},   {"int8", 4, V},
                                     {"uint8", 4, V},   {"bool", 4, V}};
  m[D::DType] = {"dtype", dtypes};
  dtypes.insert(dtypes.begin(), {"absent", 60, V});
  m[D::OptDType] = {"optional dtype", dtypes};
  m[D::SetByShape] = {"dtype (set by the shape's class)", {{"as the shape says", 1, V}}};
  m[D::OptFormat] = {"memory format", {{"absent", 55, V}, {"preserve", 8, V}, {"contiguous", 10, V},
                                       {"channels_last", 14, V}, {"channels_last_3d", 13, V}}};
  // "non-contiguous view", "offset view": a view inside a bigger storage
  // (made by a step of its own when the program has none), so that a kernel
  // writing past its run, or a resize, is seen in the bytes around it.
  // "another dtype": a new tensor of self's sizes and another dtype (bool 1 in 3).
  m[D::OptOut] = {"out tensor", {{"absent", 78, V}, {"another value", 13, V}, {"self", 5, B}, {"same storage", 4, B},
                                 {"non-contiguous view", 4, V}, {"offset view", 3, V}, {"another dtype", 4, B}}};
  return m;
}

const auto& class_table() {
  static const auto m = build_classes();
  return m;
}

// Shorthands for the op table below.
ParamDomain P(std::string_view name, Domain d, int given = 100) { return {name, d, given}; }
ParamDomain self() { return {"self", D::Self, 100}; }
ParamDomain view_self() { return {"self", D::ViewSelf, 100}; }
ParamDomain format_self() { return {"self", D::FormatSelf, 100}; }

std::vector<OpDomain> build_domains() {
  const ParamDomain dtype{"dtype", D::OptDType, 100};
  const ParamDomain format{"format", D::OptFormat, 100};
  const ParamDomain out{"out", D::OptOut, 100};
  return {
      {"arange", {P("end", D::ArangeEnd)}, {dtype}},
      {"zeros", {P("size", D::Shape)}, {dtype}},
      {"ones", {P("size", D::Shape)}, {dtype}},
      {"full", {P("size", D::Shape), P("fill_value", D::Scalar)}, {dtype}},
      {"tensor", {P("values", D::Values)}, {dtype}},
      {"empty_strided", {P("size", D::Shape), P("stride", D::Strides)}, {dtype}},

      {"view", {view_self(), P("size", D::ViewShapeOrDType)}, {{"dtype", D::SetByShape, 100}}},
      {"view_as", {view_self(), P("other", D::Other)}, {}},
      {"reshape", {view_self(), P("shape", D::ViewShape)}, {}},
      {"flatten", {view_self(), P("start_dim", D::Dim, 80), P("end_dim", D::Dim, 80)}, {}},
      {"unflatten", {view_self(), P("dim", D::Dim), P("sizes", D::ViewShape)}, {}},
      {"transpose", {view_self(), P("dim0", D::Dim), P("dim1", D::Dim)}, {}},
      {"t", {view_self()}, {}},
      {"mT", {view_self()}, {}},
      {"T", {view_self()}, {}},
      {"permute", {view_self(), P("dims", D::Permutation)}, {}},
      {"movedim", {view_self(), P("source", D::MoveDims), P("destination", D::MoveDims)}, {}},
      {"expand", {view_self(), P("size", D::ExpandShape)}, {}},
      {"expand_as", {view_self(), P("other", D::Other)}, {}},
      {"broadcast_to", {view_self(), P("size", D::ExpandShape)}, {}},
      {"unsqueeze", {view_self(), P("dim", D::InsertDim)}, {}},
      {"squeeze", {view_self(), P("dim", D::OptDim, 70)}, {}},
      {"narrow", {view_self(), P("dim", D::Dim), P("start", D::Start), P("length", D::Length)}, {}},
      {"slice",
       {view_self(), P("dim", D::Dim, 90), P("start", D::SliceBound, 90), P("end", D::SliceBound, 90),
        P("step", D::SliceStep, 80)},
       {}},
      {"select", {view_self(), P("dim", D::Dim), P("index", D::Index)}, {}},
      {"diagonal", {view_self(), P("offset", D::DiagOffset, 85), P("dim1", D::Dim, 80), P("dim2", D::Dim, 90)}, {}},
      {"unfold", {view_self(), P("dimension", D::Dim), P("size", D::WindowSize), P("step", D::WindowStep)}, {}},
      {"as_strided",
       {view_self(), P("size", D::Shape), P("stride", D::Strides), P("storage_offset", D::StorageOffset, 60)},
       {}},
      {"detach", {view_self()}, {}},
      {"alias", {view_self()}, {}},
      {"split", {view_self(), P("split_size", D::SplitSize), P("dim", D::Dim, 85)}, {}},
      {"chunk", {view_self(), P("chunks", D::Chunks), P("dim", D::Dim, 85)}, {}},
      {"unbind", {view_self(), P("dim", D::Dim, 85)}, {}},

      {"contiguous", {format_self()}, {format}},
      {"clone", {format_self()}, {format}},
      {"to", {format_self()}, {format, {"dtype", D::OptDType, 100}}},
      {"repeat", {self(), P("repeats", D::Repeats)}, {}},
      {"index_select", {self(), P("dim", D::Dim), P("index", D::IndexList)}, {}},
      {"flip", {self(), P("dims", D::DimList)}, {}},
      {"empty_like", {format_self()}, {format, dtype}},
      {"zeros_like", {format_self()}, {format, dtype}},

      {"add_", {self(), P("other", D::ScalarOrTensor)}, {}},
      {"sub_", {self(), P("other", D::ScalarOrTensor)}, {}},
      {"mul_", {self(), P("other", D::ScalarOrTensor)}, {}},
      {"div_", {self(), P("other", D::ScalarOrTensor)}, {}},
      {"zero_", {self()}, {}},
      {"fill_", {self(), P("value", D::ScalarOrTensor)}, {}},
      {"clamp_", {self(), P("min", D::OptScalar, 90), P("max", D::OptScalar, 70)}, {}},
      {"copy_", {self(), P("src", D::Other)}, {}},

      {"add", {self(), P("other", D::ScalarOrTensor)}, {out}},
      {"mul", {self(), P("other", D::ScalarOrTensor)}, {out}},
      {"neg", {self()}, {out}},
  };
}

}  // namespace

std::string_view validity_name(Validity v) {
  switch (v) {
    case Validity::Valid: return "valid";
    case Validity::Boundary: return "boundary";
    case Validity::Invalid: return "invalid";
  }
  return "?";
}

const std::vector<DomainClass>& domain_classes(Domain d) {
  auto it = class_table().find(d);
  if (it == class_table().end()) throw std::logic_error("domain_classes: a domain without classes");
  return it->second.second;
}

std::string_view domain_name(Domain d) {
  auto it = class_table().find(d);
  return it == class_table().end() ? "?" : it->second.first;
}

const std::vector<OpDomain>& all_domains() {
  static const std::vector<OpDomain> table = build_domains();
  return table;
}

const OpDomain* find_domain(std::string_view op) {
  static const auto index = [] {
    std::unordered_map<std::string_view, const OpDomain*> m;
    for (const OpDomain& d : all_domains()) m[d.op] = &d;
    return m;
  }();
  auto it = index.find(op);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace sc
