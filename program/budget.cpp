#include "program/budget.h"

#include <limits>
#include <span>

#include "engine/creation.h"
#include "engine/dtype.h"
#include "engine/elementwise.h"
#include "engine/error.h"
#include "engine/layout.h"
#include "engine/overlap.h"
#include "engine/views.h"
#include "program/engine_ops.h"
#include "program/ops.h"

namespace sc {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t sat_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  if (a > kMax / b) return kMax;
  return a * b;
}

// LibTorch's own checks come before the budget (DESIGN.md Limits: only steps
// that would really allocate past it are skipped): a step whose storage size
// computation overflows raises "Storage size calculation overflowed" (or a
// numel overflow) before anything is allocated, so it is run and compared.
// `certain` says the computation overflows for every itemsize >= min_item.
bool nbytes_overflow(std::span<const int64_t> sizes, int64_t min_item) {
  uint64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(n, static_cast<uint64_t>(s), &n);
  overflowed |= __builtin_mul_overflow(n, static_cast<uint64_t>(min_item), &n);
  return overflowed || n > static_cast<uint64_t>(kMax);
}

// nullopt when a size is negative: the op raises LibTorch's own error first.
std::optional<int64_t> numel_of(std::span<const int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s < 0) return std::nullopt;
    n = sat_mul(n, s);
  }
  return n;
}

std::string shape_text(std::span<const int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

int64_t itemsize_of(const ArgReader& a, int64_t fallback) {
  if (auto d = a.kw_dtype())
    if (auto dt = engine::parse_dtype(*d)) return engine::itemsize(*dt);
  return fallback;
}

// Note [hidden allocations of type promotion]
// A binary TensorIterator op (add, mul, and in place add_, sub_, mul_, div_)
// on the CPU computes in the common dtype. After the overlap and shape checks
// and before any output is allocated, compute_types swaps every operand of
// another dtype for one of the common dtype (TensorIterator.cpp,
// promote_inputs_to_common_dtype / cast_common_dtype_to_outputs):
//  - an input: `input.to(common)`, a copy of the input's own elements, not of
//    the broadcast result's: `zeros [0,1]` + a stride-0 int16 [2^31] converts
//    2^31 elements to float32, 8 GiB for an empty result (measured RSS, both
//    backends: the engine mirrors it, engine/elementwise.cpp run_iterator);
//  - an output (out=, or self in place): at::empty_like(out, common) of out's
//    current shape, resized with out to the result's. In place, self is an
//    input as well: converted too.
// An operand whose conversion cannot be allocated (its storage size
// overflows) makes _to_copy raise: nothing is counted for it. copy_ converts
// element by element in its kernel (no temporary).
// The shape self and other (when given) broadcast to, or nullopt when they
// do not.
std::optional<engine::Shape> broadcast_shape(const InputHeader& self, const std::optional<InputHeader>& other) {
  if (!other) return self.sizes;
  const engine::Shape& s = self.sizes;
  const engine::Shape& o = other->sizes;
  const size_t nd = std::max(s.size(), o.size());
  engine::Shape b(nd, 1);
  for (size_t i = 0; i < nd; ++i) {
    const int64_t x = i < nd - s.size() ? 1 : s[i - (nd - s.size())];
    const int64_t y = i < nd - o.size() ? 1 : o[i - (nd - o.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    b[i] = x == 1 ? y : x;
  }
  return b;
}

std::optional<engine::Tensor> header_tensor(const InputHeader& h) {
  if (!h.dtype || h.strides.size() != h.sizes.size()) return std::nullopt;
  engine::Tensor t;
  t.sizes = h.sizes;
  t.strides = h.strides;
  t.dtype = *h.dtype;
  return t;
}

// The common dtype of self and a.(1) (a tensor or a number; absent for a
// unary op), as engine::result_type and TensorIterator's
// promote_integer_inputs_to_float (true division) compute it; nullopt when a
// dtype is unknown.
std::optional<engine::DType> common_dtype(const InputHeader& self, const ArgReader& a,
                                          const std::function<InputHeader(const std::string&)>& input,
                                          bool int_to_float) {
  auto s = header_tensor(self);
  if (!s) return std::nullopt;
  std::vector<engine::Operand> ops{engine::Operand::of(*s)};
  std::optional<engine::Tensor> o;
  if (a.size() >= 2 && a.given(1) && !a.is_none(1)) {
    if (a.is_tensor(1)) {
      o = header_tensor(input(a.tensor(1)));
      if (!o) return std::nullopt;
      ops.push_back(engine::Operand::of(*o));
    } else {
      ops.push_back(engine::Operand::of(to_scalar(a.scalar(1))));
    }
  }
  engine::DType common = engine::result_type(ops);
  if (int_to_float && engine::is_integral(common, true)) common = engine::DType::Float32;
  return common;
}

// Bytes of `x.to(common)` (0 when x is of the common dtype or empty, or when
// the copy's storage size overflows: _to_copy raises, allocating nothing).
int64_t conversion_bytes(const InputHeader& x, engine::DType common) {
  if (!x.dtype || *x.dtype == common) return 0;
  auto n = numel_of(x.sizes);
  if (!n || nbytes_overflow(x.sizes, engine::itemsize(common))) return 0;
  return sat_mul(*n, engine::itemsize(common));
}

int64_t sat_add(int64_t a, int64_t b) { return a > kMax - b ? kMax : a + b; }

// TensorIterator's first check: a written tensor with a stride-0 dim of size
// > 1 raises ("unsupported operation: more than one element of the
// written-to tensor refers to a single memory location") before anything is
// allocated; unless its cached is_non_overlapping_and_dense() says true,
// which has_internal_overlap asks first: a 0-d out whose resize to
// [2^32,2^32] raised keeps strides [0,0] and the 0-d tensor's flag, and a
// later out= resize from there allocates (generated seed 38772 of the
// message-reach law's search, once Note [Stale headers] made such outs:
// 16 GiB on both sides, where the estimate said nothing).
bool written_overlaps_itself(const InputHeader& h) {
  if (h.non_overlapping_and_dense.value_or(false)) return false;
  auto t = header_tensor(h);
  return t && engine::has_internal_overlap(*t) == engine::MemOverlap::Yes;
}

}  // namespace

std::optional<AllocationEstimate> allocation_estimate(
    const Step& step, const std::function<InputHeader(const std::string&)>& input, bool describe) {
  const OpSpec* spec = find_op(step.op);
  if (!spec) return std::nullopt;
  ArgReader a(step, spec);
  const std::string& op = step.op;
  // The text is built only when asked for (it is read only for a step over
  // the budget): `what` is a callable returning it.
  auto make = [&](int64_t bytes, const auto& what) {
    return std::optional<AllocationEstimate>(AllocationEstimate{bytes, describe ? std::string(what()) : std::string()});
  };

  if (spec->category == OpCategory::Creation) {
    int64_t item = itemsize_of(a, op == "tensor" ? 8 : 4);
    if (op == "arange") {
      // arange's size goes through a double: past 2^62 the C++ API's SymInt
      // check raises, below it the storage size check may.
      if (a.int_(0) < 0 || a.kw_dtype() == std::optional<std::string>("bool")) return std::nullopt;
      const int64_t n = engine::arange_size(a.int_(0));
      if (n < 0 || nbytes_overflow(std::span<const int64_t>(&n, 1), item)) return std::nullopt;
      return make(sat_mul(n, item), [&] { return "arange " + std::to_string(n); });
    }
    if (op == "tensor") return make(sat_mul(static_cast<int64_t>(a.values(0).size()), item), [] { return "tensor"; });
    std::vector<int64_t> sizes = a.int_list(0);
    if (op == "empty_strided") {
      // computeStorageNbytes: 1 + sum((size-1)*stride) elements, 0 if any size is 0.
      std::vector<int64_t> st = a.int_list(1);
      if (st.size() != sizes.size()) return std::nullopt;
      for (int64_t x : sizes)
        if (x < 0) return std::nullopt;
      // The same computation, with LibTorch's overflow check (returned, not thrown).
      auto nbytes = engine::compute_storage_nbytes_checked(sizes, st, item);
      if (!nbytes.ok()) return std::nullopt;
      return make(nbytes.value(), [&] { return "empty_strided " + shape_text(sizes) + " " + shape_text(st); });
    }
    auto n = numel_of(sizes);
    if (!n || nbytes_overflow(sizes, item)) return std::nullopt;
    return make(sat_mul(*n, item), [&] { return op + " " + shape_text(sizes); });
  }

  if (spec->category == OpCategory::View && spec->results == Results::Many && !a.is_list(1)) {
    // split/chunk/unbind allocate one tensor object per result (LibTorch: a
    // TensorImpl each; unbind of expand(1e9) makes 1e9 of them): counted as
    // kResultBytes each, so a huge result count is over budget on every
    // backend alike instead of exhausting memory. Arguments the op rejects
    // allocate nothing.
    constexpr int64_t kResultBytes = 512;
    InputHeader in = input(a.tensor(0));
    const int64_t nd = static_cast<int64_t>(in.sizes.size());
    const int64_t dim_arg = op == "unbind" ? a.int_(1) : a.int_(2);
    if (nd == 0 || dim_arg < -nd || dim_arg >= nd) return std::nullopt;
    const int64_t dim_size = in.sizes[static_cast<size_t>(dim_arg < 0 ? dim_arg + nd : dim_arg)];
    if (dim_size < 0) return std::nullopt;
    int64_t results = dim_size;  // unbind
    if (op == "split") {
      const int64_t size = a.int_(1);
      if (size < 0 || (size == 0 && dim_size != 0)) return std::nullopt;
      results = size == 0 ? 1 : std::max<int64_t>(1, dim_size / size + (dim_size % size != 0));
    } else if (op == "chunk") {
      const int64_t chunks = a.int_(1);
      if (chunks <= 0) return std::nullopt;
      results = dim_size == 0 ? chunks : std::min(chunks, dim_size);  // empty dim: `chunks` empty results
    }
    return make(sat_mul(results, kResultBytes), [&] { return op + " into " + std::to_string(results) + " tensors"; });
  }

  if (spec->category == OpCategory::View) {
    if (op != "reshape" && op != "flatten") return std::nullopt;
    // reshape/flatten copy only when no view can express the result
    // (computeStride, the rule the ops themselves use); then at most the
    // input's numel. Arguments the op will reject allocate nothing.
    InputHeader in = input(a.tensor(0));
    auto n = numel_of(in.sizes);
    if (!n) return std::nullopt;
    // The checked forms: an argument the op rejects costs no throw here
    // (Note [errors returned, not thrown]).
    engine::Shape target;
    if (op == "reshape") {
      auto inferred = engine::infer_size_checked(a.int_list(1), *n);
      if (!inferred.ok()) return std::nullopt;
      target = std::move(inferred).value();
    } else {
      const int64_t nd = static_cast<int64_t>(in.sizes.size());
      if (nd == 0) return std::nullopt;
      auto start = engine::maybe_wrap_dim_checked(a.int_(1), nd), end = engine::maybe_wrap_dim_checked(a.int_(2), nd);
      if (!start.ok() || !end.ok() || start.value() >= end.value()) return std::nullopt;
      target.assign(in.sizes.begin(), in.sizes.begin() + start.value());
      int64_t merged = 1;
      for (int64_t d = start.value(); d <= end.value(); ++d) merged = sat_mul(merged, in.sizes[d]);
      target.push_back(merged);
      target.insert(target.end(), in.sizes.begin() + end.value() + 1, in.sizes.end());
    }
    if (in.strides.size() == in.sizes.size() && engine::compute_stride(in.sizes, in.strides, target))
      return std::nullopt;
    return make(sat_mul(*n, in.itemsize), [&] { return op + " of " + shape_text(in.sizes) + " (a copy)"; });
  }

  InputHeader self = input(a.tensor(0));
  // A self with a negative size (numel_of: none) makes copies and in-place
  // ops raise before they allocate; an elementwise op still converts its
  // other input first (below).
  auto self_numel = numel_of(self.sizes);
  if (!self_numel && spec->category != OpCategory::Elementwise) return std::nullopt;
  int64_t self_item = self.itemsize;

  if (spec->category == OpCategory::Copy) {
    int64_t item = itemsize_of(a, self_item);
    int64_t n = *self_numel;
    if (op == "repeat") {
      // the result is empty(self's padded sizes * repeats), int64 products
      // that wrap as LibTorch's do; its own size checks come first.
      std::vector<int64_t> rep = a.int_list(1), target;
      if (rep.size() < self.sizes.size()) return std::nullopt;
      const size_t pad = rep.size() - self.sizes.size();
      for (size_t i = 0; i < rep.size(); ++i) {
        const int64_t s = i < pad ? 1 : self.sizes[i - pad];
        target.push_back(static_cast<int64_t>(static_cast<uint64_t>(s) * static_cast<uint64_t>(rep[i])));
        if (target.back() < 0) return std::nullopt;
      }
      if (nbytes_overflow(target, item)) return std::nullopt;
      n = *numel_of(target);
    } else if (op == "index_select") {
      // the result: self's sizes with sizes[dim] = the index count. The product
      // is taken without sizes[dim] (dividing a saturated numel by it would
      // underestimate: [8,1e9,2,1e12] along dim 3 is 128 GB, not 73 MB).
      int64_t dim = a.int_(1);
      int64_t nd = static_cast<int64_t>(self.sizes.size());
      if (dim < 0) dim += nd;
      if (nd > 0 && dim >= 0 && dim < nd) {
        n = 1;
        for (int64_t k = 0; k < nd; ++k)
          if (k != dim) n = sat_mul(n, self.sizes[static_cast<size_t>(k)]);
      }
      const int64_t ni = static_cast<int64_t>(a.int_list(2).size());
      n = sat_mul(n, ni);
      // index_select_out_cpu_dim1_ (self.dim() > 1, dim 1, an index, a
      // non-empty self) starts with self.contiguous(): a full copy of a
      // non-contiguous self, next to the result.
      const bool contiguous =
          self.strides.size() == self.sizes.size() && engine::is_contiguous(self.sizes, self.strides);
      if (nd > 1 && dim == 1 && ni > 0 && *self_numel > 0 && !contiguous)
        n = n > kMax - *self_numel ? kMax : n + *self_numel;
    }
    if (op != "repeat" && op != "index_select" && nbytes_overflow(self.sizes, item)) return std::nullopt;
    return make(sat_mul(n, item), [&] { return op + " of " + shape_text(self.sizes); });
  }

  if (spec->category == OpCategory::InPlace) {
    const bool binary = op == "add_" || op == "sub_" || op == "mul_" || op == "div_";
    if (op == "fill_" && a.is_tensor(1)) {
      // a 0-d value, cloned first when it is a view of self: its own bytes
      InputHeader v = input(a.tensor(1));
      auto vn = numel_of(v.sizes);
      if (!vn || *vn == 0) return std::nullopt;
      return make(sat_mul(*vn, v.itemsize), [&] { return op + " value"; });
    }
    if (!binary || !(a.size() >= 2 && a.given(1) && a.is_tensor(1))) return std::nullopt;
    // Note [hidden allocations of type promotion]: LibTorch's own checks first
    // (self overlapping itself, a shape that does not broadcast to self's, a
    // common dtype that cannot be cast to self's), then the conversions.
    InputHeader other = input(a.tensor(1));
    auto common = common_dtype(self, a, input, op == "div_");
    if (!common) return make(sat_mul(*self_numel, 8), [&] { return op + " temporary"; });  // dtypes unknown: the old bound
    if (written_overlaps_itself(self)) return std::nullopt;
    if (other.sizes.size() > self.sizes.size()) return std::nullopt;  // the broadcast shape is not self's
    for (size_t i = 0; i < other.sizes.size(); ++i) {
      const int64_t o = other.sizes[i], s = self.sizes[self.sizes.size() - other.sizes.size() + i];
      if (o != s && o != 1) return std::nullopt;
    }
    if (!engine::can_cast(*common, *self.dtype)) return std::nullopt;
    int64_t bytes = conversion_bytes(other, *common);
    if (*self.dtype != *common && !nbytes_overflow(self.sizes, engine::itemsize(*common))) {
      // the output temporary and self converted as an input
      bytes = sat_add(bytes, sat_mul(sat_mul(*self_numel, engine::itemsize(*common)), 2));
    }
    if (bytes == 0) return std::nullopt;
    return make(bytes, [&] { return op + " conversions to " + std::string(engine::dtype_name(*common)); });
  }

  // Elementwise: the broadcast result, at most 8 bytes an element.
  std::optional<InputHeader> other;
  if (a.size() >= 2 && a.given(1) && a.is_tensor(1)) other = input(a.tensor(1));
  const std::optional<engine::Shape> result_shape = broadcast_shape(self, other);
  if (!result_shape) return std::nullopt;  // not broadcastable: raises first
  const engine::Shape& out = *result_shape;
  auto n = numel_of(out);
  // Overflow for any result dtype (itemsize >= 1): LibTorch raises when it
  // allocates the result, after the conversions below.
  const bool result_allocates = n && !nbytes_overflow(out, 1);
  int64_t bytes = result_allocates ? sat_mul(*n, 8) : 0;
  std::string what;
  if (describe) what = op + " result " + shape_text(out);
  // An out= of another shape is resized (resize_output, the engine's
  // resize_out): when it has elements, its storage grows to (numel +
  // storage_offset) * itemsize bytes unless it holds that many already
  // (maybe_resize_storage_cpu); an overflow there raises before allocating.
  // Counted below, once out's own checks have passed.
  std::optional<InputHeader> out_header;  // asked once: both sides build it from their tensor
  if (auto out_name = a.kw_tensor("out")) out_header = input(*out_name);
  int64_t growth = 0;
  if (out_header && result_allocates && *n > 0) {
    const InputHeader& o = *out_header;
    int64_t need = 0;
    const bool overflows = __builtin_add_overflow(*n, o.storage_offset, &need) ||
                           __builtin_mul_overflow(need, o.itemsize, &need);
    if (o.sizes != out && o.storage_nbytes && !overflows && need > *o.storage_nbytes) {
      growth = need;
      if (describe) what += ", out's storage grown to " + std::to_string(need) + " bytes";
    }
  }
  // Note [hidden allocations of type promotion]; neg checks that all dtypes
  // are the same instead of converting. The conversions come before the
  // result's allocation, whose negative-size check they precede: `mul` of a
  // float16 [-2,0] and an int32 [2^31,2^30,1,1] of stride 0 converts the
  // int32 operand's 2^61 elements first, and LibTorch fails to allocate 2^62
  // bytes (generated seed 90125570, --swarm 100 on 2.15).
  if (op != "neg") {
    if (auto common = common_dtype(self, a, input, false)) {
      const int64_t common_item = engine::itemsize(*common);
      if (out_header) {
        const InputHeader& o = *out_header;
        if (written_overlaps_itself(o) || (o.dtype && !engine::can_cast(*common, *o.dtype))) return std::nullopt;
        if (o.dtype && *o.dtype != *common) {
          // the temporary of out's current shape, then resized to the result's
          auto on = numel_of(o.sizes);
          if (on && !nbytes_overflow(o.sizes, common_item)) bytes = sat_add(bytes, sat_mul(*on, common_item));
          if (result_allocates) bytes = sat_add(bytes, sat_mul(*n, common_item));
          if (describe) what += ", out's " + std::string(engine::dtype_name(*common)) + " temporary of " + shape_text(o.sizes);
        }
      }
      int64_t converted = conversion_bytes(self, *common);
      if (other) converted = sat_add(converted, conversion_bytes(*other, *common));
      if (describe && converted > 0) what += " and its inputs converted to " + std::string(engine::dtype_name(*common));
      bytes = sat_add(bytes, converted);
    }
  }
  bytes = sat_add(bytes, growth);
  if (bytes == 0 && !result_allocates) return std::nullopt;
  return make(bytes, [&] { return std::move(what); });
}

std::optional<int64_t> inplace_elements(const Step& step,
                                        const std::function<InputHeader(const std::string&)>& input) {
  const OpSpec* spec = find_op(step.op);
  if (!spec) return std::nullopt;
  ArgReader a(step, spec);
  if (spec->category == OpCategory::InPlace) return numel_of(input(a.tensor(0)).sizes);
  // Note [an out= that needs no resize]: an out= that has the result's shape
  // already is written as it is, allocating nothing, however many elements
  // its shape says (a resize that raised on a numel overflow leaves such
  // sizes on out: TensorIterator's numel then wraps, and LibTorch loops for
  // years on both backends; generated seed 1100427 under UBSan).
  if (spec->category != OpCategory::Elementwise) return std::nullopt;
  const auto out_name = a.kw_tensor("out");
  if (!out_name) return std::nullopt;
  std::optional<InputHeader> other;
  if (a.size() >= 2 && a.given(1) && a.is_tensor(1)) other = input(a.tensor(1));
  const InputHeader out = input(*out_name);
  const std::optional<engine::Shape> result = broadcast_shape(input(a.tensor(0)), other);
  if (!result || *result != out.sizes) return std::nullopt;  // resized: bounded by what it allocates
  return numel_of(out.sizes);
}

}  // namespace sc
