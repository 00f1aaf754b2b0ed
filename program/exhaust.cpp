#include "program/exhaust.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>

#include "program/backend.h"
#include "program/domains.h"
#include "program/exhaust_deep.h"
#include "program/exhaust_forms.h"
#include "program/exhaust_out.h"
#include "program/exhaust_overlap.h"
#include "program/int_edges.h"
#include "program/ops.h"
#include "program/parser.h"
#include "program/printer.h"
#include "program/stable_hash.h"

namespace sc {
namespace {

using engine::DType;

using namespace int_edges;  // kI64Min, kI64Max, k2p31, k2p62, integer_range

const DType kDTypes[] = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16, DType::Int64,
                         DType::Int32,   DType::Int16,   DType::Int8,    DType::UInt8,    DType::Bool};

uint64_t mix(uint64_t x) { return splitmix64(x); }

Number I(int64_t v) { return Number::integer(v); }
Number F(double v) { return Number::floating(v); }

std::string dname(DType d) { return std::string(engine::dtype_name(d)); }

// The steps of `text` (a whole prefix, so names resolve).
std::vector<Step> steps_of(const std::string& text) { return parse_program(text, "<exhaust>").steps; }

// `a = tensor [edges] dtype=D`, as program text.
std::string base_text(DType d, const std::string& name = "a") {
  Step s;
  s.outputs = {name};
  s.op = "tensor";
  s.args = {List{dtype_edge_values(d)}};
  s.kwargs = {{"dtype", Ident{dname(d)}, {}}};
  Program p;
  p.steps = {s};
  return print_program(p, /*with_comments=*/false);
}

struct Layout {
  const char* name;
  const char* text;  // after the base `a` (24 elements); one holding @D@ makes its own base of dtype D
  std::vector<int64_t> sizes;
  bool float32_only = false;  // a rule no dtype decides, on a base large enough to cost time
};

const std::vector<Layout>& layouts() {
  static const std::vector<Layout> v = {
      {"contiguous 1-d", "x = view a [24]\n", {24}},
      {"0-d", "x = select a 0 1\n", {}},
      {"size 0", "b = narrow a 0 3 0\nx = view b [2,0,3]\n", {2, 0, 3}},
      {"size 1", "b = narrow a 0 5 1\nx = view b [1,1]\n", {1, 1}},
      // a size-0 dim of stride 0 (an expanded size-1 dim): no elements, whatever the other dims
      {"size 0, stride 0", "b = narrow a 0 2 3\nc = unsqueeze b 0\nx = expand c [0,3]\n", {0, 3}},
      {"contiguous 2-d", "x = view a [4,6]\n", {4, 6}},
      {"contiguous 3-d", "x = view a [2,3,4]\n", {2, 3, 4}},
      {"contiguous 4-d", "x = view a [2,3,2,2]\n", {2, 3, 2, 2}},
      {"transposed", "b = view a [4,6]\nx = transpose b 0 1\n", {6, 4}},
      {"stride 0", "b = view a [4,6]\nc = narrow b 1 2 1\nx = expand c [4,3]\n", {4, 3}},
      {"storage offset", "b = view a [4,6]\nx = narrow b 0 1 2\n", {2, 6}},
      {"channels_last", "x = as_strided a [2,3,2,2] [12,1,6,3] 0\n", {2, 3, 2, 2}},
      {"overlapping", "x = as_strided a [3,4] [2,1] 1\n", {3, 4}},
      // two dims of one stride, the larger last: infer_dense_strides breaks
      // the tie by size, the smaller inner (clone's and empty_like's
      // preserve_format of a tensor that is not dense)
      {"equal strides", "x = as_strided a [2,3] [1,1] 0\n", {2, 3}},
      {"non-dense", "b = view a [4,6]\nx = slice b 1 0 6 2\n", {4, 3}},
      {"size-1 dims, odd strides", "x = as_strided a [2,1,3] [3,100,1] 0\n", {2, 1, 3}},
      // dense, not contiguous, a size-1 dim's stride odd: its exact strides
      // are not what infer_dense_strides makes (clone's preserve rule)
      {"transposed, size-1 odd stride", "x = as_strided a [3,1,2] [1,100,3] 0\n", {3, 1, 2}},
      // contiguous and channels_last at once (TensorIterator's fast set-up checks contiguous first)
      {"contiguous and channels_last", "b = narrow a 0 0 6\nx = view b [2,3,1,1]\n", {2, 3, 1, 1}},
      // N111: every stride 1, strides-like channels_last but ambiguous, so
      // contiguous (is_channels_last_strides_2d_s4, c10/core/MemoryFormat.h)
      {"N111", "b = narrow a 0 0 2\nx = view b [2,1,1,1]\n", {2, 1, 1, 1}},
      // A 9x16 transposed slice of 288 elements: the copy kernels tile planes of
      // at least 8x8 (Note [Tiled transposing copy], engine/kernels/cpu/copy_kernel.cpp).
      {"tiled transpose",
       "l = arange 288\nm = to l dtype=@D@\nb = view m [16,18]\nc = slice b 1 0 18 2\nx = transpose c 0 1\n",
       {9, 16}},
      // Extreme headers (Note [Extreme layouts], program/exhaust.h)
      {"empty, sizes past int64 when multiplied", "x = as_strided a [0,4,4611686018427387904,4] [1,1,1,1] 0\n",
       {0, 4, 4611686018427387904, 4}},
      {"empty, an INT64_MAX size", "x = as_strided a [0,9223372036854775807] [1,1] 0\n", {0, 9223372036854775807}},
      {"empty at storage offset INT64_MAX - 1", "x = as_strided a [0,4] [4,1] 9223372036854775806\n", {0, 4}},
      // out= resizes that raise half way, leaving x's header stale (Note [Stale
      // headers], program/generator.cpp): sizes [3,-1,0] over padded strides,
      // its numel and flags as before; contiguous strides past INT64_MAX over
      // numel 0 (2.x; 1.13 keeps them wrapped); sizes [2] at an offset whose
      // bytes pass INT64_MAX, the storage not grown
      {"stale header, numel overflow",
       "so = clone a\nx = view so [4,6]\nsn = as_strided a [-1,0] [1,1] 0\nsw = as_strided a [3,1,1] [1,1,1] 0\nsr = add sw sn out=x\n",
       {3, -1, 0}},
      {"stale header, strides past INT64_MAX",
       "x = view a [4,6]\nsn = as_strided a [0,4611686018427387904,4] [1,1,1] 0\nsr = add sn sn out=x\n",
       {0, 4611686018427387904, 4}},
      {"stale header, storage size past INT64_MAX bytes",
       "x = as_strided a [0] [1] 2305843009213693950\nsz = narrow a 0 0 2\nsr = add sz sz out=x\n", {2}},
      // sizes whose product passes 2^64 over [4,6]'s strides, its numel 24
      // (the view ops' setStorage bounds check, a new tensor's numel); strides
      // wrapped to -2^62 + 4 over numel 0 (as_strided's negative stride check,
      // above -2^62 where 2.x would read a SymInt pointer)
      {"stale header, sizes past 2^64 when multiplied",
       "x = view a [4,6]\nsh = as_strided a [4294967296,1] [0,0] 0\nsv = as_strided a [1,4294967296] [0,0] 0\n"
       "sr = add sh sv out=x\n",
       {4294967296, 4294967296}},
      // the same over a 0-d x: strides padded with 0s, every element in the
      // storage, so a new tensor's numel overflows (clone, flip, t, to, ...)
      {"stale header, sizes past 2^64 over stride 0",
       "x = select a 0 1\nsh = as_strided a [4294967296,1] [0,0] 0\nsv = as_strided a [1,4294967296] [0,0] 0\n"
       "sr = add sh sv out=x\n",
       {4294967296, 4294967296}},
      {"stale header, a stride wrapped negative",
       "x = view a [4,6]\nsn = as_strided a [0,3458764513820540929,4] [1,1,1] 0\nsr = add sn sn out=x\n",
       {0, 3458764513820540929, 4}},
      // the same at 2-d (t, mT, unbind: the view's bounds check overflows with its strides)
      {"stale header, 2-d, storage size past INT64_MAX bytes",
       "x = as_strided a [0,0] [1,1] 2305843009213693950\nsz = view a [2,2,6]\nsy = select sz 2 0\nsr = add sy sy out=x\n",
       {2, 2}},
      // the numel-overflow stale header over a non-contiguous [2,3] (strides
      // [6,2], numel 6): reshape infers [7,7905747460161236407,-1]'s -1 from
      // the stale numel and, self not viewable as contiguous, computeStride
      // gives strides wrapped below -2^62, which 2.15's _reshape_alias
      // refuses as heap SymInts (view.cpp's check_concrete_symints;
      // mutants14: only corpus/regressions/reshape_alias_heap_symint_stride.prog
      // reached it). Float32 only, and only reshape and flatten take it
      // (aimed_elsewhere).
      {"stale header, non-contiguous, numel overflow",
       "so = clone a\nb = view so [4,6]\nc = narrow b 0 0 2\nx = slice c 1 0 6 2\nsn = as_strided a [-1,0] [1,1] 0\n"
       "sw = as_strided a [3,1,1] [1,1,1] 0\nsr = add sw sn out=x\n",
       {3, -1, 0}, true},
      {"size-1 dim of stride 2^62", "x = as_strided a [1,4] [4611686018427387904,1] 0\n", {1, 4}},
      {"size-1 dim of stride INT64_MAX", "x = as_strided a [4,1] [1,9223372036854775807] 0\n", {4, 1}},
      // Overlapping windows far apart: elements reached twice (an in-place
      // op's result there is undefined) in a span more than 4 numel + 4096
      // elements long, where the engine finds them by sorting the offsets
      // instead of counting them in an array over the span (locations_reached_twice,
      // engine/elementwise.cpp; mutants14: no program took that path); the
      // windows of 3 step by 1, so a location's two visits are not
      // consecutive in the iteration order (plant 110 leaves out the sort). Float32
      // only: the path is the same for every dtype, and the base's 4,300
      // elements cost 0.4 ms a case.
      // A 72x8 transposed view whose fast dim is 72 long: a binary op beside
      // a contiguous operand of its sizes walks that operand in strips of 32
      // (for_each_strided_parallel_strips, Note [Strip-mined loops],
      // engine/kernels/cpu/loop.h: a first dim of 64 or more, a second of 8
      // or more); mutants14: only the corpus took that path. Float32 only.
      {"strip-mined transpose", "l = arange 576\nn = to l dtype=@D@\nb = view n [8,72]\nm = view n [72,8]\nx = transpose b 0 1\n",
       {72, 8}, true},
      {"overlapping, far apart", "l = arange 4300\nm = to l dtype=@D@\nx = as_strided m [2,2,3] [4200,1,1] 0\n",
       {2, 2, 3}, true},
  };
  return v;
}

ExhaustInput make_input(const Layout& l, DType d) {
  ExhaustInput in;
  in.layout = l.name;
  in.dtype = d;
  in.name = dname(d) + " " + l.name;
  in.sizes = l.sizes;
  std::string text = l.text;
  if (const size_t at = text.find("@D@"); at != std::string::npos) text.replace(at, 3, dname(d));
  else text = base_text(d) + text;
  in.steps = steps_of(text);
  return in;
}

bool dtype_matters(const OpSpec& spec) {
  return spec.category != OpCategory::View && spec.category != OpCategory::Creation;
}

// The inputs an op runs on (Note [The exhaust catalogue]): view ops every
// layout in float32 (`view` every dtype too), data ops every layout in every
// dtype; in phase 1 the data ops' other dtypes in five layouts, the rest in
// phase 4 (ExhaustPolicy::phase).
// The stale headers added after phase 1's counts were measured (exhaust14)
// run in phase 4 in every dtype, so phase 1 meets every plant where it did.
bool late_layout(const ExhaustInput& in) {
  return in.layout == "stale header, sizes past 2^64 when multiplied" ||
         in.layout == "stale header, sizes past 2^64 over stride 0" ||
         in.layout == "stale header, a stride wrapped negative" ||
         in.layout == "stale header, 2-d, storage size past INT64_MAX bytes" ||
         in.layout == "stale header, non-contiguous, numel overflow";
}
bool core_input(const OpSpec& spec, const ExhaustInput& in) {
  if (late_layout(in)) return false;
  return in.dtype == DType::Float32 || spec.name == "view" || in.layout == "contiguous 1-d" || in.layout == "0-d" ||
         in.layout == "size 0" || in.layout == "transposed" || in.layout == "tiled transpose";
}
bool aimed_elsewhere(const OpSpec& spec, const ExhaustInput& in) { return exhaust_aimed_elsewhere(spec.name, in); }
std::vector<const ExhaustInput*> inputs_for(const OpSpec& spec, int phase) {
  std::vector<const ExhaustInput*> out;
  for (const ExhaustInput& in : exhaust_inputs())
    if (!aimed_elsewhere(spec, in) &&
        ((in.dtype == DType::Float32 || spec.name == "view" || dtype_matters(spec)) &&
        core_input(spec, in) == (phase == 1)))
      out.push_back(&in);
  return out;
}

// Note [Exhaust surface forms]: the inputs each form is written on.
bool surface_input(const ExhaustInput& in) {
  return in.dtype == DType::Float32 || in.name == "int64 contiguous 1-d" || in.name == "float16 transposed" ||
         in.name == "bool contiguous 4-d";
}

bool pair_input(const ExhaustInput& in) {
  return in.name == "float32 contiguous 2-d" || in.name == "float32 0-d" || in.name == "int64 contiguous 1-d";
}

// Integer values written out for an integer domain (Note [Exhaust combinations]).
std::vector<int64_t> int_values(Domain d, int64_t rank, int64_t size) {
  std::vector<int64_t> v;
  // a dim of a stale header's size 2^32: the values around -size, 0 and size
  auto range = [&](int64_t lo, int64_t hi) {
    if (hi - lo <= 2000) {
      for (int64_t i = lo; i <= hi; ++i) v.push_back(i);
      return;
    }
    for (int64_t c : {lo + 2, int64_t{0}, hi - 2})
      for (int64_t i = c - 2; i <= c + 2; ++i) v.push_back(i);
  };
  const int64_t r = std::max<int64_t>(rank, 1);
  switch (d) {
    case Domain::Dim:
    case Domain::OptDim: range(-r - 2, r + 1); break;
    case Domain::InsertDim: range(-rank - 3, rank + 2); break;
    case Domain::Index:
    case Domain::Start:
    case Domain::SliceBound:
    case Domain::DiagOffset: range(-size - 2, size + 2); break;
    case Domain::Length:
    case Domain::SliceStep:
    case Domain::WindowSize:
    case Domain::WindowStep:
    case Domain::Chunks:
    case Domain::SplitSize: range(-2, size + 2); break;
    default: return v;
  }
  for (int64_t e : {kI64Min, kI64Min + 1, -k2p62 - 1, -k2p31, k2p31, k2p62, kI64Max - 1, kI64Max}) v.push_back(e);
  return v;
}

// split's size lists written out for a dim of `size`: split_with_sizes checks
// each length non-negative as it makes its piece and the sum after the last
// (aten/src/ATen/native/TensorShape.cpp), so a list wrong in both ways, or
// with a negative entry first or last, tells the order of its checks; empty
// pieces first, last and alone.
std::vector<std::vector<int64_t>> split_size_lists(int64_t size) {
  return {{size},           {0, size},         {size, 0},     {1, size - 1}, {},
          {-1},             {size - 1},        {size + 1},    {-1, size},    {size, -1},
          {-1, size + 1},   {size + 1, -1},    {-2, 1, size}, {0},           {0, 0, size},
          {kI64Max, -kI64Max + size}};
}

// Scalars written out for a scalar domain and a self of dtype d: d's limits,
// one within and one past them, and the special values.
std::vector<Number> scalar_values(DType d) {
  std::vector<Number> v;
  if (engine::is_floating(d)) {
    const double fmax = d == DType::Float16 ? 65504.0 : d == DType::BFloat16 ? 3.3895313892515355e38
                        : d == DType::Float32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
    const double past = d == DType::Float16 ? 65520.0 : d == DType::BFloat16 ? 3.3961e38
                        : d == DType::Float32 ? 3.4028235677973366e38 : 1e308 * 10;
    for (double x : {fmax, -fmax, past, -past}) v.push_back(F(x));
  } else if (d == DType::Bool) {
    for (int64_t x : {0, 1, 2, -1}) v.push_back(I(x));
    v.push_back(Number::boolean(false));
  } else if (d == DType::Int64) {
    for (int64_t x : {kI64Min, kI64Min + 1, kI64Max - 1, kI64Max}) v.push_back(I(x));
    v.push_back(F(9223372036854775808.0));
    v.push_back(F(-9223372036854777856.0));
  } else {
    const auto [lo, hi] = integer_range(d);
    for (int64_t x : {lo - 1, lo, lo + 1, hi - 1, hi, hi + 1}) v.push_back(I(x));
    v.push_back(F(static_cast<double>(hi) + 0.5));
    if (d == DType::UInt8) v.push_back(I(-255)), v.push_back(I(-256));
  }
  const double inf = std::numeric_limits<double>::infinity();
  for (double x : {std::nan(""), inf, -inf, -0.0, 0.5, 9223372036854775808.0, 3000000001.0}) v.push_back(F(x));
  v.push_back(I(k2p31));
  v.push_back(Number::boolean(true));
  return v;
}

bool is_int_domain(Domain d) { return !int_values(d, 1, 1).empty(); }
bool is_scalar_domain(Domain d) {
  return d == Domain::Scalar || d == Domain::OptScalar || d == Domain::ScalarOrTensor;
}

std::string number_text(const Number& n) {
  Step s;
  s.op = "full";
  s.args = {n};
  Program p;
  p.steps = {s};
  std::string t = print_program(p, false);
  // "full <n>\n"
  t = t.substr(5);
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

// One parameter (positional, self excluded, or keyword) an op's step takes.
struct Slot {
  bool kwarg = false;
  size_t index = 0;  // into OpSpec::params / OpDomain::params, or ::kwargs
  Domain domain = Domain::Self;
  std::string param;
  bool drawn_by_default = false;  // written at its first valid class unless varied (given_percent 100)
};

// How a slot is set in one combination.
struct Assign {
  size_t slot = 0;
  std::string_view klass;       // a class, or
  std::optional<Arg> value;     // a value written out
};

std::string_view first_valid(Domain d) {
  for (const DomainClass& c : domain_classes(d))
    if (c.validity == Validity::Valid) return c.name;
  return domain_classes(d).front().name;
}

Arg placeholder(ParamKind k) {
  switch (k) {
    case ParamKind::Tensor: return Name{"x"};
    case ParamKind::Int:
    case ParamKind::IntOrIntList: return I(0);
    case ParamKind::OptInt:
    case ParamKind::OptScalar: return Ident{"none"};
    case ParamKind::IntList: return List{};
    case ParamKind::Scalar:
    case ParamKind::ScalarOrTensor:
    case ParamKind::Values: return I(1);
  }
  return I(0);
}

class Enumerator {
 public:
  // prefix: a chain's first step (Note [Exhaust chains]): the op reads x0 and
  // binds x (x2), with no write through.
  Enumerator(const std::string& op, const ExhaustPolicy& policy, ExhaustPlan& plan, bool prefix = false)
      : spec_(find_op(op)), dom_(find_domain(op)), policy_(policy), plan_(plan), prefix_(prefix) {
    if (!spec_ || !dom_) throw std::invalid_argument("exhaust: no op '" + op + "'");
    has_self_ = !spec_->params.empty() && spec_->params[0].kind == ParamKind::Tensor;
    for (size_t i = has_self_ ? 1 : 0; i < dom_->params.size(); ++i)
      slots_.push_back({false, i, dom_->params[i].domain, std::string(dom_->params[i].param),
                        !spec_->params[i].default_value || dom_->params[i].given_percent >= 100});
    for (size_t i = 0; i < dom_->kwargs.size(); ++i)
      if (dom_->kwargs[i].domain != Domain::SetByShape)
        slots_.push_back({true, i, dom_->kwargs[i].domain, std::string(dom_->kwargs[i].param), false});
    for (size_t i = 0; i < slots_.size(); ++i)
      if (!slots_[i].kwarg && slots_[i].domain == Domain::Dim && first_dim_ < 0) first_dim_ = static_cast<int>(i);
  }

  std::vector<ExhaustCase> run() {
    auto in_phase = [&](int p) { return policy_.phase == 0 ? p <= kExhaustDefaultPhases : policy_.phase == p; };
    if (in_phase(1) && !has_self_) {
      one_factor(nullptr);
      combinations(nullptr);
      creation_values();
    } else if (in_phase(1)) {
      for (const ExhaustInput* in : inputs_for(*spec_, 1)) {
        one_factor(in);
        if (pair_input(*in)) combinations(in);
      }
      self_classes();
      dtype_pairs();
      view_dtypes();
    }
    if (in_phase(2) && policy_.depth >= 2 && has_self_) overlap_pairs_of();
    if (in_phase(3) && policy_.depth >= 2 && has_self_)
      for (const ExhaustInput& in : exhaust_chain_inputs(policy_)) chained(&in);
    if (in_phase(4))
      for (const ExhaustInput* in : inputs_for(*spec_, 4)) one_factor(in);
    if (in_phase(5)) surface_forms_of();
    if (in_phase(6)) resized_outs_of();
    if (in_phase(7) && policy_.depth >= 2 && has_self_)
      for (const ExhaustInput& in : exhaust_deep_chain_inputs(policy_))
        if (deep_chain_sampled(spec_->name, in, policy_)) make(&in, {}, {}, {});
    return std::move(out_);
  }

  // A chain's first steps: the op at its first valid classes, and each valid
  // class of each parameter alone (Note [Exhaust chains]).
  std::vector<ExhaustCase> prefixes(const ExhaustInput& in) {
    make(&in, {}, {}, {});
    for (size_t s = 0; s < slots_.size(); ++s)
      for (const DomainClass& c : domain_classes(slots_[s].domain))
        if (c.validity == Validity::Valid) make(&in, {}, {{s, c.name, std::nullopt}}, {});
    return std::move(out_);
  }

 private:
  // A chain input (x bound by a view of x0): the op at its first valid
  // classes; on the chains whose first step is at its own first valid
  // classes (layout "chain"), also each valid class of each parameter alone
  // (ExhaustPolicy::wide: on every chain, each valid or boundary class).
  void chained(const ExhaustInput* in) {
    make(in, {}, {}, {});
    if (!policy_.wide && in->layout != "chain") return;
    for (size_t s = 0; s < slots_.size(); ++s)
      for (const DomainClass& c : domain_classes(slots_[s].domain))
        if (c.validity == Validity::Valid || (policy_.wide && c.validity == Validity::Boundary))
          make(in, {}, {{s, c.name, std::nullopt}}, {});
  }

  // The two-operand data ops on overlapping pairs (program/exhaust_overlap.h),
  // every dtype, each order and each operand with itself: in-place `op X Y`,
  // and with out=X `op Y X`, `op Y Y` (neg: `neg Y`).
  void overlap_pairs_of() {
    static const std::set<std::string_view> in_place = {"add_", "sub_", "mul_", "div_", "copy_", "fill_"};
    static const std::set<std::string_view> with_out = {"add", "mul", "neg"};
    const bool ip = in_place.count(spec_->name) > 0;
    if (!ip && !with_out.count(spec_->name)) return;
    for (DType d : kDTypes)
      for (const OverlapPair& pair : overlap_pairs(d)) {
        const std::vector<Step> prefix = steps_of(pair.text);
        const std::pair<const std::string*, const std::string*> orders[] = {
            {&pair.p, &pair.q}, {&pair.q, &pair.p}, {&pair.p, &pair.p}, {&pair.q, &pair.q}};
        for (const auto& [X, Y] : orders) {
          std::vector<std::vector<Arg>> forms;
          if (ip) forms = {{Name{*X}, Name{*Y}}};
          else if (spec_->name == "neg") forms = {{Name{*Y}}};
          else forms = {{Name{*Y}, Name{*X}}, {Name{*Y}, Name{*Y}}};
          for (std::vector<Arg>& args : forms) {
            ExhaustCase c;
            c.op = std::string(spec_->name);
            c.input = dname(d) + " pair '" + pair.relation + "'";
            c.program.steps = prefix;
            Step s;
            s.op = c.op;
            s.outputs = outputs();
            std::string form = c.op;
            for (const Arg& a : args) form += " " + std::get<Name>(a).id;
            s.args = std::move(args);
            if (!ip) {
              s.kwargs = {{"out", Name{*X}, {}}};
              form += " out=" + *X;
            }
            c.program.steps.push_back(std::move(s));
            c.choices = {{"operands", "= " + form}};
            finish(std::move(c));
          }
        }
      }
  }

  // Note [Exhaust surface forms]: the op at its first valid classes on a few
  // inputs (creation ops: none), its step then written in each form of
  // program/exhaust_forms.h.
  void surface_forms_of() {
    std::vector<const ExhaustInput*> ins;
    for (const ExhaustInput& in : exhaust_inputs())
      if (has_self_ && surface_input(in) && !aimed_elsewhere(*spec_, in)) ins.push_back(&in);
    if (!has_self_) ins.push_back(nullptr);
    for (const ExhaustInput* in : ins) {
      const size_t made = out_.size();
      make(in, {}, {}, {});
      if (out_.size() == made) continue;
      const ExhaustCase base = out_.back();
      for (SurfaceForm& f : surface_forms(base.program.steps[base.op_step], in ? in->sizes.size() : 0)) {
        ExhaustCase c = base;
        c.also.clear();
        c.program.steps[c.op_step] = std::move(f.step);
        c.program.steps.insert(c.program.steps.begin() + static_cast<long>(c.op_step), f.before.begin(),
                               f.before.end());
        c.op_step += f.before.size();
        c.choices = {{"form", "= " + f.what}};
        ++plan_.combinations;
        keep(std::move(c));
      }
    }
  }

  // Note [Exhaust resized out=]: add, mul and neg into an out= that must be
  // resized, or that aliases an input (program/exhaust_out.h).
  void resized_outs_of() {
    if (spec_->name != "add" && spec_->name != "mul" && spec_->name != "neg") return;
    for (const ResizedOut& o : resized_outs()) {
      ExhaustCase c;
      c.op = std::string(spec_->name);
      c.input = o.input;
      c.program.steps = steps_of(o.text);
      Step s;
      s.op = c.op;
      s.outputs = outputs();
      s.args = {Name{o.self}};
      if (c.op != "neg") s.args.push_back(Name{o.other});
      s.kwargs = {{"out", Name{o.out}, {}}};
      c.program.steps.push_back(std::move(s));
      c.choices = {{"out", "= " + o.relation}};
      finish(std::move(c));
    }
    // every catalogue input as the out= of a float32 [4,6] or 0-d result
    for (const ExhaustInput& in : exhaust_inputs())
      for (const char* size : {"[4,6]", "[]"}) {
        if (aimed_elsewhere(*spec_, in)) continue;
        ExhaustCase c;
        c.op = std::string(spec_->name);
        c.input = in.name;
        c.program.steps = in.steps;
        for (Step& s : steps_of(std::string("e1 = zeros ") + size + "\n")) c.program.steps.push_back(std::move(s));
        Step s;
        s.op = c.op;
        s.outputs = outputs();
        s.args = {Name{"e1"}};
        if (c.op != "neg") s.args.push_back(Name{"e1"});
        s.kwargs = {{"out", Name{"x"}, {}}};
        c.program.steps.push_back(std::move(s));
        c.choices = {{"out", std::string("= the input, for a result of sizes ") + size}};
        finish(std::move(c));
      }
  }

  // Each slot alone: each class, and the values written out.
  void one_factor(const ExhaustInput* in) {
    if (slots_.empty()) make(in, {}, {}, {});
    for (size_t s = 0; s < slots_.size(); ++s) {
      const Slot& slot = slots_[s];
      for (const DomainClass& c : domain_classes(slot.domain)) make(in, {}, {{s, c.name, std::nullopt}}, {});
      // An optional parameter left out (with the ones after it).
      if (!slot.kwarg && spec_->params[slot.index].default_value) make_omitted(in, s);
      if (!in) continue;
      if (is_int_domain(slot.domain)) {
        const bool dim_like = slot.domain == Domain::Dim || slot.domain == Domain::OptDim ||
                              slot.domain == Domain::InsertDim;
        const int64_t rank = static_cast<int64_t>(in->sizes.size());
        const int64_t size = in->sizes.empty() ? 1 : in->sizes[0];
        for (int64_t v : int_values(slot.domain, rank, size)) {
          std::vector<Assign> a{{s, {}, Arg{I(v)}}};
          // indices and lengths count along dim 0
          if (!dim_like && first_dim_ >= 0 && static_cast<size_t>(first_dim_) != s)
            a.push_back({static_cast<size_t>(first_dim_), {}, Arg{I(0)}});
          make(in, {}, a, {});
        }
        if (slot.domain == Domain::SplitSize)
          for (const std::vector<int64_t>& l : split_size_lists(size)) {
            List list;
            for (int64_t v : l) list.items.push_back(I(v));
            std::vector<Assign> a{{s, {}, Arg{list}}};
            if (first_dim_ >= 0 && static_cast<size_t>(first_dim_) != s)
              a.push_back({static_cast<size_t>(first_dim_), {}, Arg{I(0)}});
            make(in, {}, a, {});
          }
      }
      if (is_scalar_domain(slot.domain))
        for (const Number& n : scalar_values(in->dtype)) make(in, {}, {{s, {}, Arg{n}}}, {});
    }
  }

  // Every slot's classes combined, on the pair inputs: the whole product
  // when it is small, else every pair of slots.
  void combinations(const ExhaustInput* in) {
    if (slots_.size() < 2) return;
    std::vector<size_t> sizes;
    size_t product = 1;
    for (const Slot& s : slots_) {
      sizes.push_back(domain_classes(s.domain).size());
      product = std::min<size_t>(product * sizes.back(), policy_.product_cap + 1);
    }
    if (product <= policy_.product_cap) {
      std::vector<size_t> k(slots_.size(), 0);
      for (;;) {
        std::vector<Assign> a;
        for (size_t s = 0; s < slots_.size(); ++s) a.push_back({s, domain_classes(slots_[s].domain)[k[s]].name, {}});
        make(in, {}, a, {});
        size_t i = 0;
        while (i < k.size() && ++k[i] == sizes[i]) k[i++] = 0;
        if (i == k.size()) break;
      }
      return;
    }
    for (size_t i = 0; i < slots_.size(); ++i)
      for (size_t j = i + 1; j < slots_.size(); ++j)
        for (const DomainClass& ci : domain_classes(slots_[i].domain))
          for (const DomainClass& cj : domain_classes(slots_[j].domain))
            make(in, {}, {{i, ci.name, {}}, {j, cj.name, {}}}, {});
  }

  // The self parameter's classes: a value of each layout class, made by the
  // generator from the program so far (float32 contiguous 2-d), alone and
  // with each class of each other parameter.
  void self_classes() {
    const ExhaustInput* base = nullptr;
    for (const ExhaustInput& in : exhaust_inputs())
      if (in.name == "float32 contiguous 2-d") base = &in;
    for (const DomainClass& c : domain_classes(dom_->params[0].domain)) {
      make(base, c.name, {}, {});
      // with each class of each other parameter (unbind along a negative size's dim)
      for (size_t s = 0; s < slots_.size(); ++s)
        for (const DomainClass& k : domain_classes(slots_[s].domain)) make(base, c.name, {{s, k.name, {}}}, {});
    }
  }

  // Creation ops: each dtype with its own limits (full's value, the literal's values).
  void creation_values() {
    int dtype_slot = -1, scalar_slot = -1, values_slot = -1;
    for (size_t s = 0; s < slots_.size(); ++s) {
      if (slots_[s].kwarg && slots_[s].param == "dtype") dtype_slot = static_cast<int>(s);
      if (slots_[s].domain == Domain::Scalar) scalar_slot = static_cast<int>(s);
      if (slots_[s].domain == Domain::Values) values_slot = static_cast<int>(s);
    }
    if (dtype_slot < 0) return;
    int shape_slot = -1;
    for (size_t s = 0; s < slots_.size(); ++s)
      if (slots_[s].domain == Domain::Shape && shape_slot < 0) shape_slot = static_cast<int>(s);
    for (DType d : kDTypes) {
      const Assign dt{static_cast<size_t>(dtype_slot), {}, Arg{Ident{dname(d)}}};
      if (scalar_slot >= 0)
        for (const Number& n : scalar_values(d)) {
          const Assign value{static_cast<size_t>(scalar_slot), {}, Arg{n}};
          make(nullptr, {}, {dt, value}, {});
          // the value and the size both wrong: which check comes first
          if (shape_slot >= 0)
            for (std::string_view bad : {"negative size", "product overflows"})
              make(nullptr, {}, {dt, value, {static_cast<size_t>(shape_slot), bad, {}}}, {});
        }
      if (values_slot >= 0) {
        for (DType from : kDTypes)  // one dtype's edges written as another's literal
          make(nullptr, {}, {dt, {static_cast<size_t>(values_slot), {}, Arg{List{dtype_edge_values(from)}}}},
               {{"values", "= " + dname(from) + " edges"}});
        // one value at a time (a literal raises at its first value out of range), as a list and as a 0-d tensor
        for (const Number& n : scalar_values(d)) {
          make(nullptr, {}, {dt, {static_cast<size_t>(values_slot), {}, Arg{List{{n}}}}}, {});
          make(nullptr, {}, {dt, {static_cast<size_t>(values_slot), {}, Arg{n}}}, {});
        }
      }
    }
  }

  // Binary data ops: self of one dtype, the other of another (every pair),
  // 0-d (two values), 1-d or of size 1.
  void dtype_pairs() {
    static const std::set<std::string_view> binary = {"add_", "sub_", "mul_", "div_", "fill_", "copy_", "add", "mul"};
    if (!binary.count(spec_->name)) return;
    for (DType d1 : kDTypes)
      for (const char* self_layout : {"contiguous 1-d", "0-d"}) {
        const ExhaustInput* in = nullptr;
        for (const ExhaustInput& i : exhaust_inputs())
          if (i.dtype == d1 && i.layout == self_layout) in = &i;
        for (DType d2 : kDTypes)
          for (const char* other : {"o = select oa 0 0", "o = select oa 0 8", "o = view oa [24]", "o = narrow oa 0 8 1"}) {
            ExhaustCase c;
            c.op = std::string(spec_->name);
            c.input = in->name;
            c.program.steps = in->steps;
            for (Step& s : steps_of(base_text(d2, "oa") + other + "\n")) c.program.steps.push_back(std::move(s));
            Step s;
            s.op = c.op;
            s.outputs = outputs();
            s.args = {Name{"x"}, Name{"o"}};
            c.program.steps.push_back(std::move(s));
            c.choices = {{"other dtype", "= " + dname(d2)}, {"other", std::string("= ") + (other + 4)}};
            finish(std::move(c));
          }
      }
  }

  // view dtype=: every dtype, reinterpreting each input's bytes.
  void view_dtypes() {
    if (spec_->name != "view") return;
    for (const ExhaustInput* in : inputs_for(*spec_, 1))
      for (DType d : kDTypes) {
        ExhaustCase c;
        c.op = "view";
        c.input = in->name;
        c.program.steps = in->steps;
        Step s;
        s.op = "view";
        s.outputs = outputs();
        s.args = {Name{"x"}};
        s.kwargs = {{"dtype", Ident{dname(d)}, {}}};
        c.program.steps.push_back(std::move(s));
        c.choices = {{"dtype", "= " + dname(d)}};
        finish(std::move(c));
      }
  }

  std::vector<std::string> outputs() const {
    switch (spec_->results) {
      case Results::One: return {prefix_ ? "x" : "r"};
      case Results::Many: return prefix_ ? std::vector<std::string>{"x", "x2"} : std::vector<std::string>{"r", "r2"};
      case Results::Self: return {};
    }
    return {};
  }

  // Slot s and the ones after it left out (positional; keywords stay absent).
  void make_omitted(const ExhaustInput* in, size_t s) {
    omit_from_ = slots_[s].index;
    make(in, {}, {}, {{slots_[s].param, "(omitted)"}});
    omit_from_ = SIZE_MAX;
  }

  // One combination: the catalogue input's steps (none for creation ops), the
  // op's step with its placeholders, values written out, then each class
  // drawn by redraw_parameter in parameter order (a self class first).
  void make(const ExhaustInput* in, std::string_view self_class, const std::vector<Assign>& assigns,
            std::vector<ExhaustChoice> extra) {
    ++plan_.combinations;
    ExhaustCase c;
    c.op = std::string(spec_->name);
    c.input = in ? in->name : "";
    if (in) c.program.steps = in->steps;
    Step s;
    s.op = c.op;
    s.outputs = outputs();
    // Positional arguments up to the last one written: the required ones and
    // those drawn by default, then those the combination sets.
    size_t written = 0;
    for (size_t i = 0; i < spec_->params.size(); ++i) {
      const bool self = has_self_ && i == 0;
      bool wanted = self || !spec_->params[i].default_value;
      for (size_t k = 0; k < slots_.size(); ++k)
        if (!slots_[k].kwarg && slots_[k].index == i)
          wanted = wanted || slots_[k].drawn_by_default ||
                   std::any_of(assigns.begin(), assigns.end(), [&](const Assign& a) { return a.slot == k; });
      if (wanted && i < omit_from_) written = i + 1;
    }
    // (a placeholder where a class is drawn by default: view's none shape
    // would fail the signature check of a self redrawn first)
    auto by_default = [&](size_t i) {
      for (const Slot& slot : slots_)
        if (!slot.kwarg && slot.index == i) return slot.drawn_by_default;
      return false;
    };
    for (size_t i = 0; i < written; ++i)
      s.args.push_back(spec_->params[i].default_value && !(has_self_ && i == 0) && !by_default(i)
                           ? *spec_->params[i].default_value
                           : placeholder(spec_->params[i].kind));
    if (prefix_ && has_self_) s.args[0] = Name{"x0"};
    // `to` needs a keyword: dtype=float64 unless the combination sets dtype=
    // (a redraw replaces it; drawn before it, format= would leave none); when
    // it sets format= (a class other than 'absent'), that keyword alone
    // (format=preserve until the redraw), so the same-dtype forms that may
    // return self are met: to(channels_last) of an N111 tensor must copy
    // (is_channels_last_strides_2d's ambiguity).
    if (spec_->name == "to") {
      const bool sets_format = std::any_of(assigns.begin(), assigns.end(), [&](const Assign& a) {
        return slots_[a.slot].kwarg && slots_[a.slot].param == "format" && a.klass != "absent";
      });
      s.kwargs.push_back(sets_format ? KwArg{"format", Ident{"preserve"}, {}} : KwArg{"dtype", Ident{"float64"}, {}});
    }
    // the classes to draw, in slot order: the varied ones and the defaults
    std::vector<std::pair<size_t, std::string_view>> draws;
    for (size_t k = 0; k < slots_.size(); ++k) {
      const Slot& slot = slots_[k];
      auto it = std::find_if(assigns.begin(), assigns.end(), [&](const Assign& a) { return a.slot == k; });
      if (it != assigns.end() && it->value) {
        if (slot.kwarg) {
          std::erase_if(s.kwargs, [&](const KwArg& k) { return k.key == slot.param; });
          s.kwargs.push_back({slot.param, *it->value, {}});
        }
        else s.args[slot.index] = *it->value;
        extra.push_back({slot.param, "= " + arg_text(*it->value)});
      } else if (it != assigns.end()) {
        draws.push_back({k, it->klass});
        extra.push_back({slot.param, std::string(it->klass)});
      } else if (!slot.kwarg && slot.index < written && slot.drawn_by_default) {
        draws.push_back({k, first_valid(slot.domain)});
      }
    }

    if (!self_class.empty()) extra.insert(extra.begin(), {"self", std::string(self_class)});
    c.choices = extra;
    c.program.steps.push_back(std::move(s));
    size_t at = c.program.steps.size() - 1;
    Choices choices = Choices::from_seed(mix(policy_.seed ^ fnv1a(c.op + "|" + c.description())), 1024);
    auto redraw = [&](bool kwarg, size_t index, std::string_view klass) {
      const size_t before = c.program.steps.size();
      auto v = redraw_parameter(c.program, Redraw{at, kwarg, index, klass}, choices, policy_.generator);
      if (!v) return false;
      at += v->steps.size() - before;
      c.program = std::move(*v);
      return true;
    };
    if (!self_class.empty() && !redraw(false, 0, self_class)) return void(++plan_.not_applicable);
    for (const auto& [k, klass] : draws)
      if (!redraw(slots_[k].kwarg, slots_[k].index, klass)) return void(++plan_.not_applicable);
    c.op_step = at;
    finish(std::move(c));
  }

  static std::string arg_text(const Arg& a) {
    if (const auto* n = std::get_if<Number>(&a)) return number_text(*n);
    if (const auto* i = std::get_if<Ident>(&a)) return i->id;
    if (const auto* l = std::get_if<List>(&a)) {
      if (l->items.size() > 3) return "[" + std::to_string(l->items.size()) + " values]";
      std::string t = "[";
      for (size_t i = 0; i < l->items.size(); ++i) t += (i ? "," : "") + number_text(l->items[i]);
      return t + "]";
    }
    return std::get<Name>(a).id;
  }

  // The write through the op's first result, the trailing comment, and the
  // duplicate check.
  void finish(ExhaustCase c) {
    if (c.op_step == 0) c.op_step = c.program.steps.size() - 1;
    // A combination outside the op's signature (view with neither a shape nor dtype=).
    if (check_signature(c.program.steps[c.op_step])) return void(++plan_.not_applicable);
    Step& op_step = c.program.steps[c.op_step];
    if (!op_step.outputs.empty() && !prefix_) {
      Step w;
      w.args = {Name{op_step.outputs[0]}};
      if (c.op == "empty_like") {
        w.op = "fill_";
        w.args.push_back(I(3));
      } else {
        w.op = "add_";
        w.args.push_back(Number::boolean(true));
      }
      w.trailing_comment = "write through the result";
      c.program.steps.insert(c.program.steps.begin() + static_cast<long>(c.op_step) + 1, std::move(w));
    }
    keep(std::move(c));
  }

  // The duplicate check and the trailing comment (a surface form keeps its
  // base's write through, so it comes here directly).
  void keep(ExhaustCase c) {
    if (check_signature(c.program.steps[c.op_step])) return void(++plan_.not_applicable);
    // A combination that gives an earlier one's program is named on it.
    auto [it, fresh] = seen_.emplace(print_program(c.program, /*with_comments=*/false), out_.size());
    if (!fresh) {
      out_[it->second].also.push_back(std::move(c.choices));
      return void(++plan_.repeats);
    }
    c.program.steps[c.op_step].trailing_comment = "exhaust: " + c.description();
    c.program.source_name = "<exhaust>";
    out_.push_back(std::move(c));
  }

  const OpSpec* spec_;
  const OpDomain* dom_;
  const ExhaustPolicy& policy_;
  ExhaustPlan& plan_;
  bool prefix_ = false;
  bool has_self_ = false;
  std::vector<Slot> slots_;
  int first_dim_ = -1;
  size_t omit_from_ = SIZE_MAX;
  std::map<std::string, size_t> seen_;  // printed program -> index into out_
  std::vector<ExhaustCase> out_;
};

}  // namespace

std::vector<Number> dtype_edge_values(DType d) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Number> v;
  auto floats = [&](std::initializer_list<double> xs) {
    for (double x : xs) v.push_back(F(x));
  };
  auto ints = [&](std::initializer_list<int64_t> xs) {
    for (int64_t x : xs) v.push_back(I(x));
  };
  // Element 0 is an ordinary value the dtype cannot hold exactly (0.1) or a
  // small one; element 8 a finite limit (the dtype pairs' 0-d operands).
  switch (d) {
    case DType::Float64:
      floats({0.1, nan, inf, -inf, -0.0, 0.5, -1.5, 2.5, 1.7976931348623157e308, -1.7976931348623157e308, 5e-324,
              2.2250738585072014e-308, 2147483648.0, 2147483653.0, -2147483649.0, 3000000001.0, 4294967553.0,
              9223372036854775808.0, -9223372036854775808.0, 18446744073709551616.0, 1e20, 255.0, 256.0, -1.0});
      break;
    case DType::Float32:
      floats({0.1, nan, inf, -inf, -0.0, 0.5, -1.5, 2.5, 3.4028234663852886e38, -3.4028234663852886e38,
              1.401298464324817e-45, 1.1754943508222875e-38, 2147483648.0, -2147483648.0, 4294967296.0, 16777217.0,
              9223372036854775808.0, -9223372036854775808.0, 1e20, 255.0, 256.0, -1.0, 65520.0, 2049.0});
      break;
    case DType::Float16:
      floats({0.1, nan, inf, -inf, -0.0, 0.5, -1.5, 2.5, 65504.0, -65504.0, 5.960464477539063e-08, 6.103515625e-05,
              2048.0, 2049.0, 255.0, 256.0, -1.0, 127.5, -129.0, 1.0009765625, 1.00048828125, 32768.0, 65519.0,
              3.0});
      break;
    case DType::BFloat16:
      floats({0.1, nan, inf, -inf, -0.0, 0.5, -1.5, 2.5, 3.3895313892515355e38, -3.3895313892515355e38,
              9.183549615799121e-41, 1.1754943508222875e-38, 257.0, 256.0, 255.0, -1.0, 2147483648.0, 1e20,
              1.00390625, 16777216.0, 3.0, 127.5, -129.0, 65536.0});
      break;
    case DType::Int64:
      ints({3, kI64Min, kI64Max, 0, -1, 1, kI64Min + 1, kI64Max - 1, 2147483648, -2147483649, 4294967301, 255, 256,
            -256, 127, 128, -129, 65535, 65536, 9007199254740993, 16777217, 2049, -2, 7});
      break;
    case DType::Int32:
      ints({3, INT32_MIN, INT32_MAX, 0, -1, 1, INT32_MIN + 1, INT32_MAX - 1, 255, 256, -256, 127, 128, -129, 65535,
            65536, 32767, 32768, -32769, 16777217, 2049, -2, 7, 100});
      break;
    case DType::Int16:
      ints({3, -32768, 32767, 0, -1, 1, -32767, 32766, 255, 256, -256, 127, 128, -129, 2049, 257, -2, 7, 100, 1000,
            -1000, 4097, 16, 32});
      break;
    case DType::Int8:
      ints({3, -128, 127, 0, -1, 1, -127, 126, 100, -100, 64, -64, 2, -2, 7, 8, 16, 32, -3, 5, 11, 13, 17, 19});
      break;
    case DType::UInt8:
      ints({3, 0, 255, 1, 254, 128, 127, 129, 2, 7, 100, 200, 16, 32, 64, 250, 5, 11, 13, 17, 19, 23, 29, 31});
      break;
    case DType::Bool:
      for (int i = 0; i < 24; ++i) v.push_back(Number::boolean(i % 3 != 1));
      break;
  }
  return v;
}

bool exhaust_aimed_elsewhere(std::string_view op, const ExhaustInput& in) {
  return in.layout == "stale header, non-contiguous, numel overflow" && !view_op_may_copy(op);
}

const std::vector<ExhaustInput>& exhaust_inputs() {
  static const std::vector<ExhaustInput> v = [] {
    std::vector<ExhaustInput> out;
    for (DType d : kDTypes)
      for (const Layout& l : layouts())
        if (d == DType::Float32 || !l.float32_only) out.push_back(make_input(l, d));
    return out;
  }();
  return v;
}

std::vector<ExhaustInput> exhaust_view_steps_on(const ExhaustInput& base, const ExhaustPolicy& policy,
                                                const std::string& first, const std::string& classes) {
  const std::unique_ptr<Backend> engine = make_backend("engine:cpu");
  RunOptions run;
  run.record_contents = false;
  std::vector<ExhaustInput> out;
  for (const OpSpec& op : all_ops()) {
    if (op.category != OpCategory::View) continue;
    ExhaustPlan plan;
    for (ExhaustCase& c : Enumerator(std::string(op.name), policy, plan, /*prefix=*/true).prefixes(base)) {
      const bool at_first_valid = c.choices.empty();  // no class varied
      if (!at_first_valid && classes.empty()) continue;
      const Trace t = engine->run(c.program, run);
      if (c.op_step >= t.steps.size() || t.steps[c.op_step].outcome != Outcome::Ok ||
          t.steps[c.op_step].results.empty())
        continue;
      ExhaustInput in;
      in.layout = at_first_valid ? first : classes;
      in.dtype = base.dtype;
      std::string what = c.description();  // "float32 transposed; dim 'negative'"
      const size_t semi = what.find("; ");
      in.name = base.name + " -> " + c.op + (semi == std::string::npos ? "" : " (" + what.substr(semi + 2) + ")");
      c.program.steps[c.op_step].trailing_comment.clear();
      in.steps = std::move(c.program.steps);
      in.sizes = t.steps[c.op_step].results[0].sizes;
      out.push_back(std::move(in));
    }
  }
  return out;
}

// Note [Exhaust chains]: the first step of each chain, on five float32
// layouts whose x is renamed x0; kept where the engine runs it.
const std::vector<ExhaustInput>& exhaust_chain_inputs(const ExhaustPolicy& policy) {
  static ExhaustInputsPerSeed memo;
  return memo.get(policy.seed, [&](std::vector<ExhaustInput>& out) {
    for (const char* layout : kExhaustChainLayouts) {
      ExhaustInput base;
      for (const ExhaustInput& in : exhaust_inputs())
        if (in.dtype == DType::Float32 && in.layout == layout) base = in;
      for (Step& s : base.steps)
        for (std::string& o : s.outputs)
          if (o == "x") o = "x0";
      for (ExhaustInput& in : exhaust_view_steps_on(base, policy, "chain", "chain class")) out.push_back(std::move(in));
    }
  });
}

std::string ExhaustCase::description() const {
  std::string d = input.empty() ? op : input;
  for (size_t i = 0; i < choices.size(); ++i) {
    d += i == 0 ? "; " : ", ";
    const ExhaustChoice& c = choices[i];
    d += c.param + (c.klass.rfind("= ", 0) == 0 || c.klass == "(omitted)" ? " " + c.klass : " '" + c.klass + "'");
  }
  return d;
}

std::vector<ExhaustCase> exhaust_op(const std::string& op, const ExhaustPolicy& policy, ExhaustPlan* plan) {
  ExhaustPlan local;
  return Enumerator(op, policy, plan ? *plan : local).run();
}

}  // namespace sc
