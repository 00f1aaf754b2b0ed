#include "program/budget.h"

#include <limits>

#include "engine/creation.h"
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/layout.h"
#include "engine/views.h"
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
bool nbytes_overflow(const std::vector<int64_t>& sizes, int64_t min_item) {
  uint64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(n, static_cast<uint64_t>(s), &n);
  overflowed |= __builtin_mul_overflow(n, static_cast<uint64_t>(min_item), &n);
  return overflowed || n > static_cast<uint64_t>(kMax);
}

// nullopt when a size is negative: the op raises LibTorch's own error first.
std::optional<int64_t> numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s < 0) return std::nullopt;
    n = sat_mul(n, s);
  }
  return n;
}

std::string shape_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

int64_t itemsize_of(const ArgReader& a, int64_t fallback) {
  if (auto d = a.kw_dtype())
    if (auto dt = engine::parse_dtype(*d)) return engine::itemsize(*dt);
  return fallback;
}

}  // namespace

std::optional<AllocationEstimate> allocation_estimate(
    const Step& step, const std::function<InputHeader(const std::string&)>& input) {
  const OpSpec* spec = find_op(step.op);
  if (!spec) return std::nullopt;
  ArgReader a(step);
  const std::string& op = step.op;
  auto make = [&](int64_t bytes, std::string what) {
    return std::optional<AllocationEstimate>(AllocationEstimate{bytes, std::move(what)});
  };

  if (spec->category == OpCategory::Creation) {
    int64_t item = itemsize_of(a, op == "tensor" ? 8 : 4);
    if (op == "arange") {
      // arange's size goes through a double: past 2^62 the C++ API's SymInt
      // check raises, below it the storage size check may.
      if (a.int_(0) < 0 || a.kw_dtype() == std::optional<std::string>("bool")) return std::nullopt;
      const int64_t n = engine::arange_size(a.int_(0));
      if (n < 0 || nbytes_overflow({n}, item)) return std::nullopt;
      return make(sat_mul(n, item), "arange " + std::to_string(n));
    }
    if (op == "tensor") return make(sat_mul(static_cast<int64_t>(a.values(0).size()), item), "tensor");
    std::vector<int64_t> sizes = a.int_list(0);
    if (op == "empty_strided") {
      // computeStorageNbytes: 1 + sum((size-1)*stride) elements, 0 if any size is 0.
      std::vector<int64_t> st = a.int_list(1);
      if (st.size() != sizes.size()) return std::nullopt;
      for (int64_t x : sizes)
        if (x < 0) return std::nullopt;
      try {  // the same computation, with LibTorch's overflow check
        return make(engine::compute_storage_nbytes(sizes, st, item),
                    "empty_strided " + shape_text(sizes) + " " + shape_text(st));
      } catch (const engine::TorchError&) {
        return std::nullopt;
      }
    }
    auto n = numel_of(sizes);
    if (!n || nbytes_overflow(sizes, item)) return std::nullopt;
    return make(sat_mul(*n, item), op + " " + shape_text(sizes));
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
    return make(sat_mul(results, kResultBytes), op + " into " + std::to_string(results) + " tensors");
  }

  if (spec->category == OpCategory::View) {
    if (op != "reshape" && op != "flatten") return std::nullopt;
    // reshape/flatten copy only when no view can express the result
    // (computeStride, the rule the ops themselves use); then at most the
    // input's numel. Arguments the op will reject allocate nothing.
    InputHeader in = input(a.tensor(0));
    auto n = numel_of(in.sizes);
    if (!n) return std::nullopt;
    try {
      std::vector<int64_t> target;
      if (op == "reshape") {
        target = engine::infer_size(a.int_list(1), *n);
      } else {
        const int64_t nd = static_cast<int64_t>(in.sizes.size());
        if (nd == 0) return std::nullopt;
        const int64_t start = engine::maybe_wrap_dim(a.int_(1), nd), end = engine::maybe_wrap_dim(a.int_(2), nd);
        if (start >= end) return std::nullopt;
        target.assign(in.sizes.begin(), in.sizes.begin() + start);
        int64_t merged = 1;
        for (int64_t d = start; d <= end; ++d) merged = sat_mul(merged, in.sizes[d]);
        target.push_back(merged);
        target.insert(target.end(), in.sizes.begin() + end + 1, in.sizes.end());
      }
      if (in.strides.size() == in.sizes.size() && engine::compute_stride(in.sizes, in.strides, target))
        return std::nullopt;
    } catch (const engine::TorchError&) {
      return std::nullopt;
    }
    return make(sat_mul(*n, in.itemsize), op + " of " + shape_text(in.sizes) + " (a copy)");
  }

  InputHeader self = input(a.tensor(0));
  auto self_numel = numel_of(self.sizes);
  if (!self_numel) return std::nullopt;
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
    return make(sat_mul(n, item), op + " of " + shape_text(self.sizes));
  }

  if (spec->category == OpCategory::InPlace) {
    // Only a tensor operand may need a temporary (overlapping copy_ / dtype conversion).
    if (a.size() >= 2 && a.given(1) && a.is_tensor(1)) return make(sat_mul(*self_numel, 8), op + " temporary");
    return std::nullopt;
  }

  // Elementwise: the broadcast result, at most 8 bytes an element.
  std::vector<int64_t> out = self.sizes;
  if (a.size() >= 2 && a.given(1) && a.is_tensor(1)) {
    InputHeader other = input(a.tensor(1));
    size_t nd = std::max(out.size(), other.sizes.size());
    std::vector<int64_t> b(nd, 1);
    for (size_t i = 0; i < nd; ++i) {
      int64_t x = i < nd - out.size() ? 1 : out[i - (nd - out.size())];
      int64_t y = i < nd - other.sizes.size() ? 1 : other.sizes[i - (nd - other.sizes.size())];
      if (x != y && x != 1 && y != 1) return std::nullopt;  // not broadcastable: raises first
      b[i] = x == 1 ? y : x;
    }
    out = b;
  }
  auto n = numel_of(out);
  // Overflow for any result dtype (itemsize >= 1): LibTorch raises first.
  if (!n || nbytes_overflow(out, 1)) return std::nullopt;
  return make(sat_mul(*n, 8), op + " result " + shape_text(out));
}

std::optional<int64_t> inplace_elements(const Step& step,
                                        const std::function<InputHeader(const std::string&)>& input) {
  const OpSpec* spec = find_op(step.op);
  if (!spec || spec->category != OpCategory::InPlace) return std::nullopt;
  return numel_of(input(ArgReader(step).tensor(0)).sizes);
}

}  // namespace sc
