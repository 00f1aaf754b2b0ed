#include "program/generator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <climits>
#include <limits>
#include <numeric>
#include <random>

#include "engine/error.h"
#include "engine/layout.h"
#include "engine/views/wrapping.h"
#include "program/budget.h"
#include "program/storage_bounds.h"
#include "program/domains.h"
#include "program/crash_trail.h"
#include "program/engine_ops.h"
#include "program/int_edges.h"
#include "program/printer.h"
#include "program/stable_hash.h"
#include "program/ops.h"
#include "program/value_draws.h"

namespace sc {

Choices Choices::from_bytes(const uint8_t* data, size_t size) {
  std::vector<uint32_t> v;
  v.reserve(size / 2 + 1);
  for (size_t i = 0; i + 1 < size; i += 2) v.push_back(static_cast<uint32_t>(data[i]) << 8 | data[i + 1]);
  if (size % 2) v.push_back(data[size - 1]);
  return Choices(std::move(v));
}

Choices Choices::from_seed(uint64_t seed, size_t count) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> v(count);
  for (auto& x : v) x = static_cast<uint32_t>(rng());
  return Choices(std::move(v));
}

uint32_t Choices::below(uint32_t n) {
  if (n <= 1 || pos_ >= values_.size()) return 0;
  return values_[pos_++] % n;
}

int64_t Choices::between(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;  // hi - lo may pass INT64_MAX
  uint32_t r = below(span > 0xffffffffu ? 0xffffffffu : static_cast<uint32_t>(span));
  return lo + static_cast<int64_t>(r);
}

bool Choices::percent(int p) { return static_cast<int>(below(100)) < p; }

namespace {

using engine::Tensor;

using namespace int_edges;  // kI64Min, kI64Max, k2p31, k2p62, integer_range

struct Value {
  std::string name;
  Tensor tensor;
};

// What the draws of one step know about each other: the dim drawn first (the
// size the index-like parameters are relative to), narrow's start, the shape
// drawn for strides, movedim's source length, keyword arguments a class adds.
struct StepContext {
  const Value* self = nullptr;
  int64_t rank = 0;
  int64_t dim_size = 1;
  int64_t start = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // as_strided's, for its storage offset
  // A reinterpreting view of "padded rows" (+1): a wider dtype; of "wraps when narrowed" (-1): a narrower one.
  int dtype_width = 0;
  int64_t move_len = -1;  // -1: source not drawn, 0: an int, else the list length
  std::vector<KwArg> extra_kwargs;
  std::vector<DrawnClass> drawn;
};

class Generator {
 public:
  Generator(Choices& c, const GeneratorPolicy& p, GenerationLog* log) : c_(c), p_(p), log_(log) {
    for (const OpSpec& s : all_ops())
      if (p_.ops.empty() || std::find(p_.ops.begin(), p_.ops.end(), s.name) != p_.ops.end())
        by_category_[static_cast<int>(s.category)].push_back(&s);
    for (const OpSpec* s : by_category_[static_cast<int>(OpCategory::Creation)]) creation_ops_.push_back(s);
    if (creation_ops_.empty())  // a policy without creation ops still needs a first tensor
      for (const OpSpec& s : all_ops())
        if (s.category == OpCategory::Creation) creation_ops_.push_back(&s);
  }

  Program run() {
    Program prog;
    prog_ = &prog;
    prog.source_name = "<generated>";
    unit();
    swarm();
    emit(prog, creation());
    unit();
    int steps = static_cast<int>(c_.between(1, max_steps_));
    for (int i = 0; i < steps && !c_.exhausted(); ++i) {
      unit();
      if (env_.empty()) {
        emit(prog, creation());
        continue;
      }
      std::optional<Drafted> s = next_step();
      if (s) emit(prog, std::move(*s));
    }
    return prog;
  }

 private:
  struct Drafted {
    Step step;
    std::vector<DrawnClass> drawn;
  };

  void unit() {
    if (log_) log_->unit_starts.push_back(c_.used());
  }

  // ---- Note [Swarm programs] -----------------------------------------------
  static uint64_t mix(uint64_t x) { return splitmix64(x); }
  static uint64_t name_key(std::string_view name) { return fnv1a(name); }
  static uint64_t class_key(Domain d, size_t j) { return (uint64_t{1} << 63) | uint64_t(d) << 32 | j; }
  // Whether this program keeps the op or class of `key` (every one when not swarmed).
  bool swarm_keeps(uint64_t key) const { return swarm_ == 0 || (mix(swarm_ ^ mix(key)) & 1) != 0; }

  void swarm() {
    if (p_.swarm_percent <= 0 || !c_.percent(p_.swarm_percent)) return;
    uint64_t bits = 0;
    for (int i = 0; i < 4; ++i) bits = bits << 16 | c_.below(65536);
    if (bits == 0) return;
    swarm_ = bits;
    if (c_.percent(50)) max_steps_ = 2 * p_.max_steps;
    std::vector<const OpSpec*> kept[5];
    bool any = false;
    for (int cat = 0; cat < 5; ++cat)
      for (const OpSpec* s : by_category_[cat])
        if (cat == static_cast<int>(OpCategory::Creation) || swarm_keeps(name_key(s->name))) {
          kept[cat].push_back(s);
          any = any || cat != static_cast<int>(OpCategory::Creation);
        }
    if (!any) return;  // no op beside creation left: keep them all
    for (int cat = 0; cat < 5; ++cat) by_category_[cat] = std::move(kept[cat]);
  }

  // ---- drawing helpers -----------------------------------------------------
  int64_t size_draw() { return c_.between(0, p_.max_dim_size) == 0 && c_.percent(70) ? 1 : c_.between(0, p_.max_dim_size); }
  const Value& pick() { return env_[c_.below(static_cast<uint32_t>(env_.size()))]; }
  const Value& pick_recent() {
    size_t n = std::min<size_t>(env_.size(), 3);
    return env_[env_.size() - 1 - c_.below(static_cast<uint32_t>(n))];
  }
  // A value of the layout class `cls` of Domain::ViewSelf or FormatSelf. When
  // the program has none yet, one is made first from any value by a step of
  // its own (prepare_layout); any value when that cannot be done either.
  const Value& pick_layout(std::string_view cls) {
    if (cls == "special-value run") return special_run();
    if (cls == "odd size-1 strides") return odd_size_one_self();
    if (cls == "padded rows") return padded_rows();
    if (cls == "wraps when narrowed") return wraps_when_narrowed();
    if (cls == "dtype limits") return dtype_limits_value();
    if (cls == "conversion edges") return conversion_edges_value(nullptr);
    if (cls == "tiled transpose") return tiled_transpose_value();
    if (cls == "ambiguous channels layout") return ambiguous_channels_value();
    auto has = [&](const Tensor& t) {
      const int64_t n = t.dim();
      if (cls == "0-d") return n == 0;
      if (cls == "rank 5 or more") return n >= 5;
      if (cls == "rank 64 or 65") return n >= 64;
      if (cls == "failed out=") return t.stale_numel.has_value() || t.stale_layout.has_value();
      if (cls == "negative size") {
        for (int64_t d = 0; d < n; ++d)
          if (t.sizes[d] < 0) return true;
        return false;
      }
      if (cls == "4-d or 5-d value") return n == 4 || n == 5;  // the channels_last formats' ranks
      if (cls == "huge numel") {
        int64_t numel = 1;
        for (int64_t d = 0; d < n; ++d)
          if (t.sizes[d] <= 0 || __builtin_mul_overflow(numel, t.sizes[d], &numel)) return false;
        return numel >= int64_t{1} << 40;
      }
      bool empty = false, stride0 = false, size1 = false;
      for (int64_t d = 0; d < n; ++d) {
        empty |= t.sizes[d] == 0;
        stride0 |= t.strides[d] == 0 && t.sizes[d] > 1;
        size1 |= t.sizes[d] == 1;
      }
      if (cls == "empty") return empty;
      if (cls == "stride 0") return stride0;
      if (cls == "size-1 dim") return size1;
      if (cls == "storage offset") return t.storage_offset != 0;
      if (cls == "non-contiguous") return !empty && !engine::is_contiguous(t);
      // "overlapping": two indices reach one element (stride 0 or as_strided/unfold windows)
      return !empty && !engine::is_non_overlapping_and_dense(t) && (stride0 || n >= 1);
    };
    auto find = [&] {
      std::vector<const Value*> found;
      for (const Value& v : env_)
        if (has(v.tensor)) found.push_back(&v);
      return found;
    };
    std::vector<const Value*> found = find();
    if (found.empty() && prepare_layout(cls)) found = find();
    if (found.empty()) return pick();
    return *found[c_.below(static_cast<uint32_t>(found.size()))];
  }
  // Emits `as_strided v sizes strides offset` (or `unsqueeze v 0` for a
  // size-1 dim) whose result has the layout `cls`, from a value v of the
  // program, within v's storage; false when v's storage is too small.
  bool prepare_layout(std::string_view cls) {
    if (!prog_) return false;
    if (cls == "failed out=") return prepare_failed_out();
    const Value& v = pick();
    const Tensor& t = v.tensor;
    const int64_t elems = t.storage->nbytes() / engine::itemsize(t.dtype);
    Drafted d;
    d.step.args.push_back(Name{v.name});
    d.drawn.push_back({"self", made_class_name(cls)});
    if (cls == "size-1 dim") {
      d.step.op = "unsqueeze";
      d.step.args.push_back(I(0));
      emit(*prog_, std::move(d));
      return true;
    }
    std::vector<int64_t> sizes, strides;
    int64_t offset = 0;
    if (cls == "0-d") {
      if (elems < 1) return false;
      offset = c_.between(0, elems - 1);
    } else if (cls == "empty") {
      sizes = t.sizes, strides = t.strides, offset = t.storage_offset;
      if (sizes.empty()) sizes = {0}, strides = {1};
      else sizes[c_.below(static_cast<uint32_t>(sizes.size()))] = 0;
    } else if (cls == "stride 0") {
      sizes = t.sizes, strides = t.strides, offset = t.storage_offset;
      sizes.insert(sizes.begin(), c_.between(2, 3));
      strides.insert(strides.begin(), 0);
    } else if (cls == "rank 5 or more") {
      sizes = t.sizes, strides = t.strides, offset = t.storage_offset;
      while (sizes.size() < 5) sizes.insert(sizes.begin(), 1), strides.insert(strides.begin(), c_.between(1, 3));
    } else if (cls == "rank 64 or 65") {
      sizes = t.sizes, strides = t.strides, offset = t.storage_offset;
      const size_t rank = c_.percent(50) ? 64 : 65;
      while (sizes.size() < rank) sizes.insert(sizes.begin(), 1), strides.insert(strides.begin(), c_.between(1, 3));
    } else if (cls == "negative size") {
      // numel 0, so no storage needed: [-k, 0], [0, -k], [-k, 0, m], [0, m, -k]
      // (numel multiplies in order: a size above 1 before the -k would overflow it)
      const int64_t k = c_.between(1, 3), m = c_.between(1, 3);
      switch (c_.below(4)) {
        case 0: sizes = {-k, 0}; break;
        case 1: sizes = {0, -k}; break;
        case 2: sizes = {-k, 0, m}; break;
        default: sizes = {0, m, -k}; break;
      }
      strides.assign(sizes.size(), 1);
      offset = t.storage_offset;
    } else if (cls == "4-d or 5-d value") {
      if (t.dim() > 5) return false;
      sizes = t.sizes, strides = t.strides, offset = t.storage_offset;
      const size_t rank = c_.percent(50) ? 4 : 5;
      while (sizes.size() < rank) sizes.insert(sizes.begin(), 1), strides.insert(strides.begin(), c_.between(1, 3));
    } else if (cls == "huge numel") {
      // stride 0 everywhere: a view of one element; its copies' byte counts
      // overflow int64 for float32 and wider (2^61 x 4), or are over budget
      if (elems < 1) return false;
      switch (c_.below(4)) {
        case 0: sizes = {k2p31, int64_t{1} << 30}; break;
        case 1: sizes = {3, int64_t{1} << 61}; break;
        case 2: sizes = {k2p31, int64_t{1} << 30, 1, 1}; break;  // rank 4: channels_last's rank check passes
        default: sizes = {int64_t{1} << 20, int64_t{1} << 20, 1024, 2, 1}; break;  // rank 5
      }
      strides.assign(sizes.size(), 0);
      offset = c_.between(0, elems - 1);
    } else if (cls == "non-contiguous" || cls == "overlapping") {
      if (elems < 4) return false;
      sizes = {2, 2};
      strides = cls == "overlapping" ? std::vector<int64_t>{1, 1} : std::vector<int64_t>{1, 2};
    } else {  // "storage offset"
      if (elems < 2) return false;
      offset = c_.between(1, elems - 1);
      sizes = {elems - offset};
      strides = {1};
    }
    d.step.op = "as_strided";
    d.step.args.push_back(int_list(sizes));
    d.step.args.push_back(int_list(strides));
    d.step.args.push_back(I(offset));
    emit(*prog_, std::move(d));
    return true;
  }
  // The class "failed out=": an out= tensor whose resize raised after it set
  // the new sizes (corpus/regressions/out_resize_stale_numel.prog,
  // out_resize_raise_leaves_sizes.prog): a fresh `zeros [a,b]` as the out of
  // `mul n w` that broadcasts to [2,-k,0] (refresh_numel's numel overflow:
  // the old numel stays) or of `add d 7` with d of sizes
  // [0,1152921504606846445,0,3,5] (2.x: "Stride calculation overflowed"; the
  // wrapped strides stay). Later steps on it meet LibTorch's checks on a header
  // its own checks would never build. Four steps of their own.
  bool prepare_failed_out() {
    const Value& v = pick();
    const std::string base = v.name;
    const int64_t offset = v.tensor.storage_offset;
    auto made = [&](Drafted d) -> std::optional<std::string> {
      const int before = next_name_;
      emit(*prog_, std::move(d));
      if (next_name_ == before) return std::nullopt;
      return "v" + std::to_string(next_name_ - 1);
    };
    auto step = [&](std::string op) {
      Drafted d;
      d.step.op = std::move(op);
      d.drawn.push_back({"self", "made failed out="});
      return d;
    };
    const bool wrapped_strides = c_.percent(40);
    Drafted view = step("as_strided");
    view.step.args = {Name{base},
                      wrapped_strides ? int_list({0, 1152921504606846445, 0, 3, 5}) : int_list({-c_.between(1, 2), 0}),
                      wrapped_strides ? int_list({0, 30, 30, 5, 1}) : int_list({1, 1}), I(offset)};
    const std::optional<std::string> input = made(std::move(view));
    if (!input || !bound_value(*input)) return false;
    std::optional<std::string> other;
    if (!wrapped_strides) {
      Drafted w = step("zeros");
      w.step.args = {int_list({c_.between(2, 3), 1, 1})};
      other = made(std::move(w));
      if (!other || !bound_value(*other)) return false;
    }
    Drafted out = step("zeros");
    out.step.args = {int_list({c_.between(2, 5), c_.between(1, 7)})};
    const std::optional<std::string> target = made(std::move(out));
    if (!target || !bound_value(*target)) return false;
    Drafted op = step(wrapped_strides ? "add" : "mul");
    op.step.args = {Name{*input}};
    if (wrapped_strides) op.step.args.push_back(I(7));
    else op.step.args.push_back(Name{*other});
    op.step.kwargs.push_back({"out", Name{*target}, {}});
    made(std::move(op));
    return true;
  }
  // Note [Odd size-1 strides]: a size-1 dim's stride is anything, and
  // TensorIterator sorts size-1 dims with the others (Note [Size-1 dims in
  // the loop order], engine/kernels/dim_order.h), so where they sit and what
  // strides they carry decides the loop order: which run is contiguous, so
  // which NaN bits a reduced-float kernel writes. The class "odd size-1
  // strides" makes such values by a step of their own: for self, `as_strided
  // v` with v's dims and one or two size-1 dims inserted (or one element of
  // rank 1..3 at a drawn offset), each size-1 stride 0, 1, a neighbour's,
  // one past it, or 2^40; for a second operand, a fresh float tensor full of
  // NaNs laid out with self's sizes (some dims 1, so they broadcast), its
  // other dims dense in order or reversed, its size-1 dims odd as above.
  int64_t odd_stride(int64_t neighbour) {
    switch (c_.below(10)) {
      case 0: case 1: case 2: return 0;
      case 3: case 4: return 1;
      case 5: case 6: return neighbour;
      case 7: return engine::wrapping::add(neighbour, 1);  // a neighbour may be INT64_MAX
      case 8: return engine::wrapping::add(engine::wrapping::mul(2, neighbour), 1);
      default: return int64_t{1} << 40;
    }
  }
  const Value& odd_size_one_self() {
    if (!prog_ || env_.empty()) return pick();
    const Value& v = c_.percent(50) ? pick_recent() : pick();
    const Tensor& t = v.tensor;
    const int64_t elems = t.storage->nbytes() / engine::itemsize(t.dtype);
    std::vector<int64_t> sizes, strides;
    int64_t offset = t.storage_offset;
    // half the time on a fresh storage of a reduced float (whose loops'
    // NaN bits show the order), v's sizes dense in a drawn order
    const bool fresh = c_.percent(50);
    std::string base = v.name;
    if (c_.percent(25)) {  // one element of rank 1..3
      if (fresh) {
        base = fresh_zeros(4);
        offset = c_.between(0, 3);
      } else {
        if (elems < 1) return pick();
        offset = c_.between(0, elems - 1);
      }
      const int64_t rank = c_.between(1, 3);
      for (int64_t d = 0; d < rank; ++d) sizes.push_back(1), strides.push_back(odd_stride(c_.between(1, 4)));
    } else if (fresh) {
      sizes = t.sizes;
      std::vector<size_t> order(sizes.size());  // innermost first
      for (size_t k = 0; k < order.size(); ++k) order[k] = order.size() - 1 - k;
      if (c_.percent(40)) std::reverse(order.begin(), order.end());
      else if (c_.percent(30)) {
        const std::vector<int64_t> p = permutation(static_cast<int64_t>(order.size()));
        for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<size_t>(p[k]);
      }
      strides.assign(sizes.size(), 0);
      int64_t extent = 1;
      for (size_t d : order) {
        strides[d] = sizes[d] == 1 ? odd_stride(extent) : extent;
        if (sizes[d] <= 0 || __builtin_mul_overflow(extent, sizes[d], &extent) || extent > (int64_t{1} << 16))
          return pick();
      }
      base = fresh_zeros(extent);
      offset = 0;
      const int64_t inserts = c_.between(1, 2);
      for (int64_t k = 0; k < inserts && sizes.size() < 8; ++k) {
        const size_t at = c_.below(static_cast<uint32_t>(sizes.size() + 1));
        sizes.insert(sizes.begin() + static_cast<std::ptrdiff_t>(at), 1);
        strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(at), odd_stride(at < strides.size() ? strides[at] : 1));
      }
    } else {
      sizes = t.sizes, strides = t.strides;
      for (size_t d = 0; d < sizes.size(); ++d)
        if (sizes[d] == 1 && c_.percent(50)) strides[d] = odd_stride(d + 1 < sizes.size() ? strides[d + 1] : 1);
      const int64_t inserts = c_.between(1, 2);
      for (int64_t k = 0; k < inserts && sizes.size() < 8; ++k) {
        const size_t at = c_.below(static_cast<uint32_t>(sizes.size() + 1));
        const int64_t next = at < strides.size() ? strides[at] : 1;
        sizes.insert(sizes.begin() + static_cast<std::ptrdiff_t>(at), 1);
        strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(at), odd_stride(next < 0 ? 1 : next));
      }
    }
    for (int64_t& st : strides) st = st < 0 ? 0 : st;  // (the engine's own negative strides: flip)
    if (base.empty()) return pick();
    return emit_as_strided(base, sizes, strides, offset, "made odd size-1 strides");
  }
  // The ViewSelf class "padded rows" (program/domains.cpp): `as_strided`
  // rows of n elements whose stride is n + pad, at a small offset, on a
  // value's storage, or on a new `arange` of a narrow dtype (half the time,
  // and when that storage is too small).
  const Value& padded_rows() {
    using engine::DType;
    if (!prog_ || env_.empty()) return pick();
    const int64_t n = one_of<int64_t>({2, 4, 8});
    const int64_t pad = c_.between(0, 4);
    const int64_t offset = c_.between(0, 4);
    const int64_t rows = c_.between(1, 3);
    const int64_t need = offset + (rows - 1) * (n + pad) + n;
    const Value& v = pick();
    std::string base = v.name;
    const int64_t elems = v.tensor.storage->nbytes() / engine::itemsize(v.tensor.dtype);
    if (c_.percent(50) || elems < need) {
      Drafted make;
      make.step.op = "arange";
      make.step.args.push_back(I(need + c_.between(0, 3)));
      const DType d = one_of({DType::Int8, DType::UInt8, DType::Int16, DType::Float16, DType::BFloat16, DType::Int32,
                              DType::Float32});
      make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
      make.drawn.push_back({"end", "made padded rows"});
      const Value* made = emit_bound(std::move(make));
      if (!made) return pick();
      base = made->name;
    }
    return emit_as_strided(base, {rows, n}, {n + pad, 1}, offset, "made padded rows");
  }
  // The ViewSelf class "wraps when narrowed" (program/domains.cpp): `as_strided
  // v` with a size-1 dim of stride 2^63 / r ([1, n] [2^63 / r, 1]), a last
  // size of 2^63 / r beside a zero one ([0, 2^63 / r] [1, 1]) or a storage
  // offset of 2^63 / r with a zero size ([0] [1]); numel 0 needs no storage.
  // r is 2, 4 or 8 (no more than v's element size when it can): `view dtype=`
  // to an element r times narrower multiplies each by r, to -2^63, which is
  // no SymInt (2.x: the result is symbolic; 1.13 keeps the wrapped values).
  // For an op other than `view` (whose dtype is drawn narrower half the time
  // instead), half the time the value goes one step on (Note [Past the wrap]).
  const Value& wraps_when_narrowed() {
    if (!prog_ || env_.empty()) return pick();
    const Value& v = pick();
    const std::string name = v.name;
    const engine::DType dtype = v.tensor.dtype;
    const int64_t item = engine::itemsize(dtype);
    const int64_t elems = v.tensor.storage->nbytes() / item;
    const int64_t r = item >= 8 ? one_of<int64_t>({2, 4, 8}) : item >= 4 ? one_of<int64_t>({2, 4}) : 2;
    const int64_t big = static_cast<int64_t>((uint64_t{1} << 63) / static_cast<uint64_t>(r));
    const uint32_t form = elems > 0 ? c_.below(3) : 1 + c_.below(2);
    std::string made;
    const int before = next_name_;
    if (form == 0) {
      const int64_t n = c_.between(1, std::min<int64_t>(elems, 4));
      made = emit_as_strided(name, {1, n}, {big, 1}, 0, "made wraps when narrowed").name;
    } else if (form == 1) {
      made = emit_as_strided(name, {0, big}, {1, 1}, 0, "made wraps when narrowed").name;
    } else {
      made = emit_as_strided(name, {0}, {1}, big, "made wraps when narrowed").name;
    }
    const bool emitted = next_name_ != before && made == "v" + std::to_string(next_name_ - 1);
    if (!emitted || drafting_op_ == "view" || !c_.percent(50)) return *bound_or_pick(made);
    // a 1-byte element (r = 2) has no narrower dtype, and its offset times
    // its size does not pass 2^63
    if (item < r) return *bound_or_pick(made);
    return past_the_wrap(made, dtype, item / r, form == 2 && c_.percent(50));
  }
  // Note [Past the wrap]: what LibTorch checks after the wrap is seen only by
  // the op after the step that wraps, which a program drawing from half the
  // ops (Note [Swarm programs]), or from one op (the message-reach law's
  // second search), seldom has. So "wraps when narrowed" sometimes makes that
  // step itself, by a step of its own:
  //  - narrowed: `view dtype=` of an element `narrow_item` bytes wide; on
  //    1.13 the stride, size or offset is -2^63 (the next view op's
  //    set_storage_offset: "Tensor: invalid storage offset -9223372036854775808";
  //    clone's empty of the size: "IntArrayRef contains an int that cannot be
  //    represented as a SymInt"); on 2.x that step raises (a symbolic result)
  //    and the value stays as it was;
  //  - resized (the offset form): the out= of `add z z`, z a new `zeros [k]`
  //    of its dtype,
  //    whose resize sets sizes [k] and raises ("Storage size calculation
  //    overflowed": (k + offset) * itemsize passes 2^63), leaving k elements
  //    far outside the storage, which the next view op's storage bounds check
  //    meets (2.x: "Storage size calculation overflowed with sizes=[k] and
  //    strides=[1]"; 1.13: "setStorage: ... out of bounds").
  // The message-reach law found those templates only in its mixed search
  // (seeds 7163..45776) and lost them all with --swarm 50.
  const Value& past_the_wrap(const std::string& made, engine::DType dtype, int64_t narrow_item, bool resize) {
    using engine::DType;
    auto step = [&](std::string op) {
      Drafted d;
      d.step.op = std::move(op);
      d.drawn.push_back({"self", "made wraps when narrowed"});
      return d;
    };
    if (resize) {
      Drafted z = step("zeros");
      z.step.args = {int_list({c_.between(1, 3)})};
      z.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(dtype))}, {}});
      const Value* z_value = emit_bound(std::move(z));
      if (!z_value) return *bound_or_pick(made);
      const std::string zeros = z_value->name;
      Drafted add = step("add");  // of out's dtype: nothing converted, any dtype (bool too)
      add.step.args = {Name{zeros}, Name{zeros}};
      add.step.kwargs.push_back({"out", Name{made}, {}});
      emit(*prog_, std::move(add));
      return *bound_or_pick(made);
    }
    const DType to = narrow_item == 1 ? one_of({DType::UInt8, DType::Int8, DType::Bool})
                   : narrow_item == 2 ? one_of({DType::Float16, DType::BFloat16, DType::Int16})
                                      : one_of({DType::Float32, DType::Int32});
    Drafted view = step("view");
    view.step.args = {Name{made}};
    view.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(to))}, {}});
    if (const Value* narrowed = emit_bound(std::move(view))) return *narrowed;
    return *bound_or_pick(made);
  }
  // Emits d into the program: the value its step bound, or null when the
  // step raised (no name taken) or left its name unbound.
  const Value* emit_bound(Drafted d) {
    const int before = next_name_;
    emit(*prog_, std::move(d));
    return next_name_ == before ? nullptr : bound_value("v" + std::to_string(next_name_ - 1));
  }
  const Value* bound_or_pick(const std::string& name) {
    const Value* v = bound_value(name);
    return v ? v : &pick();
  }
  // The Self class "dtype limits" (program/domains.cpp): `tensor [...]
  // dtype=D` of 4..12 values drawn from D's lowest and highest values, one
  // within each, 0, 1 and -1 (a floating D: its finite limits, signed zeros
  // and infinities).
  const Value& dtype_limits_value() {
    using engine::DType;
    if (!prog_) return pick();
    static constexpr DType all[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,  DType::Int32,
                                    DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};
    const DType d = c_.percent(40) ? DType::Int64 : all[c_.below(10)];
    const double inf = std::numeric_limits<double>::infinity();
    List l;
    const int64_t n = c_.between(4, 12);
    for (int64_t k = 0; k < n; ++k) {
      if (d == DType::Bool) {
        l.items.push_back(Number::boolean(c_.percent(50)));
      } else if (engine::is_floating(d)) {
        // its finite limits, signed zeros and infinities, and (1 in 4) the edges of a later
        // conversion to an integer dtype or bool: halves, 255.5/256, past int32 (the low
        // byte set: float64 -> uint8 goes through int64), the last double below 2^63
        const uint32_t kind = c_.below(20);
        l.items.push_back(kind < 10  ? Number::floating(value_draws::finite_limit(c_, d))
                          : kind < 15 ? Number::floating(one_of({0.0, -0.0, 1.0, -1.0, inf, -inf}))
                                      : Number::floating(one_of({0.5, -0.5, -0.0, 255.5, 256.0, -128.5, 2147483648.0,
                                                                 -2147483649.0, 3000000001.0, 4294967553.0,
                                                                 9223372036854774784.0})));
      } else {
        const auto [lo, hi] = integer_range(d);
        l.items.push_back(I(one_of<int64_t>({lo, lo + 1, hi - 1, hi, 0, 1, d == DType::UInt8 ? 128 : -1})));
      }
    }
    Drafted make;
    make.step.op = "tensor";
    make.step.args.push_back(std::move(l));
    make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
    make.drawn.push_back({"values", "made dtype limits"});
    const Value* v = emit_bound(std::move(make));
    return v ? *v : pick();
  }
  // The ScalarOrTensor class "NaN payload mix" (program/domains.cpp): `tensor
  // [bits...] dtype=<the integers of self's width>`, `view dtype=<self's>`,
  // `view <self's sizes>`, each element a special bit pattern of self's dtype
  // (value_draws::special_bits: NaNs most often) or 1.0; for a self that is
  // not float16/32/64 of 1..1100 elements, a special-value run. ctx.self is
  // looked up again by name (the steps grow env_).
  Name nan_payload_mix(StepContext& ctx) {
    using engine::DType;
    const std::string self_name = ctx.self->name;
    const DType d = ctx.self->tensor.dtype;
    const std::vector<int64_t> sizes = ctx.self->tensor.sizes;
    const int64_t n = ctx.self->tensor.numel();
    if (!prog_ || (d != DType::Float16 && d != DType::Float32 && d != DType::Float64) || n < 1 || n > 1100)
      return layout_operand("special-value run", ctx);
    const int64_t one = d == DType::Float16 ? 0x3c00 : d == DType::Float32 ? 0x3f800000 : 0x3ff0000000000000;
    List l;
    for (int64_t k = 0; k < n; ++k) l.items.push_back(I(c_.percent(60) ? value_draws::special_bits(c_, d) : one));
    auto step = [&](std::string op, std::vector<Arg> args, std::optional<DType> dtype) -> std::optional<std::string> {
      Drafted s;
      s.step.op = std::move(op);
      s.step.args = std::move(args);
      if (dtype) s.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(*dtype))}, {}});
      s.drawn.push_back({"values", "made NaN payload mix"});
      const Value* made = emit_bound(std::move(s));
      if (!made) return std::nullopt;
      return made->name;
    };
    std::optional<std::string> name = step("tensor", {std::move(l)}, value_draws::bits_dtype(d));
    if (name) name = step("view", {Name{*name}}, d);
    if (name) name = step("view", {Name{*name}, int_list(sizes)}, std::nullopt);
    for (const Value& v : env_)
      if (v.name == self_name) ctx.self = &v;
    return Name{name ? *name : pick().name};
  }
  // The OptOut class "another dtype": `zeros <self's sizes> dtype=D`, D not
  // self's dtype (bool 1 time in 3): the iterator's casting check against the
  // out (can_cast: "result type Float can't be cast to the desired output
  // type Bool"), the ops' own dtype checks (neg of bool names self's dtype,
  // not out's) and the conversion through a temporary of the common dtype.
  // Any value when self's sizes make no tensor (or the step raised).
  Name other_dtype_out(StepContext& ctx) {
    using engine::DType;
    const std::string self_name = ctx.self->name;
    const DType self_dtype = ctx.self->tensor.dtype;
    static constexpr DType all[] = {DType::Bool,    DType::UInt8,   DType::Int8,     DType::Int16,   DType::Int32,
                                    DType::Int64,   DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};
    DType d = c_.percent(33) ? DType::Bool : all[c_.below(10)];
    if (d == self_dtype) d = self_dtype == DType::Bool ? DType::Float32 : DType::Bool;
    std::string made;
    if (prog_ && ctx.self->tensor.numel() <= p_.max_step_elements) {
      Drafted make;
      make.step.op = "zeros";
      make.step.args.push_back(int_list(ctx.self->tensor.sizes));
      make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
      make.drawn.push_back({"size", "made another dtype"});
      if (const Value* v = emit_bound(std::move(make))) made = v->name;
    }
    for (const Value& v : env_)
      if (v.name == self_name) ctx.self = &v;
    return Name{made.empty() ? pick().name : made};
  }
  // Emits `zeros [n] dtype=<bfloat16 70%, float16, float32>`; its name, or "" when it raised.
  std::string fresh_zeros(int64_t n) {
    Drafted make;
    make.step.op = "zeros";
    make.step.args.push_back(int_list({n}));
    const engine::DType d = c_.percent(70)   ? engine::DType::BFloat16
                            : c_.percent(50) ? engine::DType::Float16
                                             : engine::DType::Float32;
    make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
    make.drawn.push_back({"size", "made odd size-1 strides"});
    const Value* made = emit_bound(std::move(make));
    return made ? made->name : std::string();
  }
  // The second operand of class "odd size-1 strides" (Note [Odd size-1
  // strides]); ctx.self is looked up again by name, as layout_operand does.
  Name odd_size_one_operand(StepContext& ctx) {
    const std::string self_name = ctx.self->name;
    const Tensor self = ctx.self->tensor;
    if (!prog_ || self.sizes.empty()) return layout_operand("size-1 dim", ctx);
    // a quarter of the time fewer dims than self (broadcast from the left; a
    // one-element self then reads a 0-d or [1] source: the iterator's general path)
    const size_t drop = c_.percent(25) ? c_.between(1, static_cast<int64_t>(self.sizes.size())) : 0;
    std::vector<int64_t> sizes(self.sizes.begin() + static_cast<std::ptrdiff_t>(drop), self.sizes.end());
    std::vector<int64_t> strides(sizes.size(), 0);
    for (int64_t& sz : sizes)
      if (sz != 1 && c_.percent(25)) sz = 1;
    // dense over the dims of size > 1, innermost last (or first: reversed)
    const bool reversed = c_.percent(30);
    int64_t extent = 1;
    for (size_t k = 0; k < sizes.size(); ++k) {
      const size_t d = reversed ? k : sizes.size() - 1 - k;
      if (sizes[d] == 1) continue;
      strides[d] = extent;
      if (sizes[d] <= 0 || __builtin_mul_overflow(extent, sizes[d], &extent) || extent > (int64_t{1} << 16))
        return layout_operand("size-1 dim", ctx);
    }
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] != 1) continue;
      // where self's own stride is 0 (self has no say in the loop order), a
      // small stride here decides it: the order TensorIterator keeps
      const size_t sd = d + drop;
      strides[d] = self.sizes[sd] == 1 && self.strides[sd] == 0 && c_.percent(50)
                       ? 1
                       : odd_stride(d + 1 < sizes.size() && strides[d + 1] ? strides[d + 1] : 1);
    }
    Drafted make;
    make.step.op = "full";
    make.step.args.push_back(int_list({extent}));
    make.step.args.push_back(Number::floating(std::nan("")));
    const bool to_reduced = self.dtype == engine::DType::BFloat16 || self.dtype == engine::DType::Float16;
    const engine::DType d = c_.percent(to_reduced ? 80 : 60) ? engine::DType::Float32 : any_float_dtype();
    make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
    make.drawn.push_back({"fill_value", "made odd size-1 strides"});
    const Value* made = emit_bound(std::move(make));
    Name n{!made ? pick().name : emit_as_strided(made->name, sizes, strides, 0, "made odd size-1 strides").name};
    for (const Value& v : env_)
      if (v.name == self_name) ctx.self = &v;
    return n;
  }
  // Emits `as_strided <name> sizes strides offset`; its result, or any value when it raised.
  const Value& emit_as_strided(const std::string& name, const std::vector<int64_t>& sizes,
                               const std::vector<int64_t>& strides, int64_t offset, std::string_view made) {
    Drafted d;
    d.step.op = "as_strided";
    d.step.args.push_back(Name{name});
    d.step.args.push_back(int_list(sizes));
    d.step.args.push_back(int_list(strides));
    d.step.args.push_back(I(offset));
    d.drawn.push_back({"self", made});  // (a literal: DrawnClass holds string_views)
    const Value* r = emit_bound(std::move(d));
    return r ? *r : pick();
  }
  static std::string_view made_class_name(std::string_view cls) {
    // the class name the coverage report shows for a preparation step
    if (cls == "0-d") return "made 0-d";
    if (cls == "empty") return "made empty";
    if (cls == "stride 0") return "made stride 0";
    if (cls == "rank 5 or more") return "made rank 5+";
    if (cls == "rank 64 or 65") return "made rank 64 or 65";
    if (cls == "negative size") return "made negative size";
    if (cls == "failed out=") return "made failed out=";
    if (cls == "4-d or 5-d value") return "made 4-d or 5-d";
    if (cls == "non-contiguous") return "made non-contiguous";
    if (cls == "overlapping") return "made overlapping";
    if (cls == "size-1 dim") return "made size-1 dim";
    if (cls == "huge numel") return "made huge numel";
    return "made storage offset";
  }
  // Another value on v's storage (any value when v has no alias).
  const Value& pick_alias(const Value& v) {
    std::vector<const Value*> aliases;
    for (const Value& w : env_)
      if (w.name != v.name && w.tensor.storage == v.tensor.storage) aliases.push_back(&w);
    if (aliases.empty()) return pick();
    return *aliases[c_.below(static_cast<uint32_t>(aliases.size()))];
  }
  int64_t wrap(int64_t d, int64_t r) const { return d < 0 ? d + std::max<int64_t>(r, 1) : d; }
  int64_t size_at(const Tensor& t, int64_t d) const {
    if (d == kI64Min) return 1;
    int64_t w = wrap(d, t.dim());
    return (w >= 0 && w < t.dim()) ? t.sizes[w] : 1;
  }
  template <class T>
  T one_of(std::initializer_list<T> v) { return *(v.begin() + c_.below(static_cast<uint32_t>(v.size()))); }
  Number I(int64_t v) { return Number::integer(v); }
  List int_list(const std::vector<int64_t>& v) {
    List l;
    for (int64_t x : v) l.items.push_back(Number::integer(x));
    return l;
  }
  int64_t sign() { return c_.percent(50) ? 1 : -1; }
  // INT64_MIN, INT64_MAX, +-2^31, +-2^62 (with_extremes in domains.cpp); nullopt for other classes.
  std::optional<int64_t> extreme(std::string_view cls) {
    if (cls == "INT64_MIN") return kI64Min;
    if (cls == "INT64_MAX") return kI64Max;
    if (cls == "+-2^31") return sign() * k2p31 - (c_.percent(30) ? 1 : 0);
    if (cls == "+-2^62") return sign() * k2p62;
    return std::nullopt;
  }
  int class_weight(const DomainClass& c) const {
    if (c.validity == Validity::Valid || p_.boundary_weight_percent == 100) return c.weight;
    return std::max(1, c.weight * p_.boundary_weight_percent / 100);
  }
  // Note [Check order]: a class of d that is not valid (boundary or invalid),
  // by the declared weights, among those a swarm program kept (Note [Swarm
  // programs]); any class (draw_class) when there is none.
  std::string_view draw_not_valid_class(Domain d) {
    const auto& cs = domain_classes(d);
    auto weight = [&](size_t j) {
      return cs[j].validity == Validity::Valid || (swarm_ != 0 && !swarm_keeps(class_key(d, j))) ? 0 : cs[j].weight;
    };
    int total = 0;
    for (size_t j = 0; j < cs.size(); ++j) total += weight(j);
    if (total == 0) return draw_class(d);
    int r = static_cast<int>(c_.below(static_cast<uint32_t>(total)));
    for (size_t j = 0; j < cs.size(); ++j) {
      if (r < weight(j)) return cs[j].name;
      r -= weight(j);
    }
    return cs.front().name;
  }
  static bool invalid_class(Domain d, std::string_view cls) {
    for (const DomainClass& c : domain_classes(d))
      if (c.name == cls) return c.validity == Validity::Invalid;
    return false;
  }
  std::string_view draw_class(Domain d) {
    const auto& cs = domain_classes(d);
    // Note [Swarm programs]: the classes this program left out weigh 0, unless
    // that would leave no valid one.
    bool swarmed = false;
    for (size_t j = 0; swarm_ != 0 && !swarmed && j < cs.size(); ++j)
      swarmed = cs[j].validity == Validity::Valid && swarm_keeps(class_key(d, j));
    auto weight = [&](size_t j) { return swarmed && !swarm_keeps(class_key(d, j)) ? 0 : class_weight(cs[j]); };
    int total = 0;
    for (size_t j = 0; j < cs.size(); ++j) total += weight(j);
    int r = static_cast<int>(c_.below(static_cast<uint32_t>(total)));
    for (size_t j = 0; j < cs.size(); ++j) {
      if (r < weight(j)) return cs[j].name;
      r -= weight(j);
    }
    return cs.front().name;
  }

  // ---- values of each domain -----------------------------------------------
  int64_t dim_value(std::string_view cls, int64_t r) {
    const int64_t re = std::max<int64_t>(r, 1);
    if (auto e = extreme(cls)) return *e;
    if (cls == "in range") return c_.between(0, re - 1);
    if (cls == "negative") return c_.between(-re, -1);
    if (cls == "-rank-1") return -re - 1;
    return re;  // "rank"
  }
  int64_t insert_dim_value(std::string_view cls, int64_t r) {
    if (auto e = extreme(cls)) return *e;
    if (cls == "in range") return c_.between(0, r);
    if (cls == "negative") return c_.between(-r - 1, -1);
    if (cls == "-rank-2") return -r - 2;
    return r + 1;
  }
  std::vector<int64_t> permutation(int64_t r) {
    std::vector<int64_t> p(static_cast<size_t>(r));
    std::iota(p.begin(), p.end(), 0);
    for (int64_t i = r - 1; i > 0; --i) std::swap(p[i], p[c_.between(0, i)]);
    return p;
  }
  std::vector<int64_t> subset(int64_t r, bool negative) {
    std::vector<int64_t> out;
    for (int64_t d = 0; d < r; ++d)
      if (c_.percent(50)) out.push_back(negative && c_.percent(70) ? d - r : d);
    return out;
  }
  // A random factorisation of n into up to max_rank factors.
  std::vector<int64_t> factor_shape(int64_t n, int rank) {
    std::vector<int64_t> out;
    int64_t rest = n;
    for (int i = 0; i + 1 < rank; ++i) {
      std::vector<int64_t> divisors;
      for (int64_t d = 1; d <= rest && d <= 12; ++d)
        if (rest == 0 || rest % d == 0) divisors.push_back(d);
      if (rest == 0) divisors.push_back(0);
      if (divisors.empty()) divisors.push_back(1);
      int64_t f = divisors[c_.below(static_cast<uint32_t>(divisors.size()))];
      out.push_back(f);
      if (f != 0) rest /= f;
    }
    out.push_back(rest);
    if (rank == 0 && n != 1) out = {n};
    if (rank == 0 && n == 1) out.clear();
    return out;
  }
  std::vector<int64_t> small_shape(int rank) {
    std::vector<int64_t> s(static_cast<size_t>(rank));
    for (auto& x : s) x = size_draw();
    return s;
  }
  std::vector<int64_t> shape_value(std::string_view cls) {
    if (cls == "small") return small_shape(static_cast<int>(c_.between(0, p_.max_rank)));
    if (cls == "rank 5-6") {
      std::vector<int64_t> s(static_cast<size_t>(c_.between(5, 6)));
      for (auto& x : s) x = c_.percent(5) ? 0 : c_.between(1, 3);
      return s;
    }
    if (cls == "rank 7-64" || cls == "rank 65") {
      // 64 itself a third of the time: flip's and dim lists' 64-dim limit
      const int64_t rank = cls == "rank 65" ? 65 : c_.percent(33) ? 64 : c_.between(7, 64);
      std::vector<int64_t> s(static_cast<size_t>(rank), 1);
      for (int k = 0; k < 6; ++k) s[c_.below(static_cast<uint32_t>(s.size()))] = c_.between(0, 3);
      return s;
    }
    if (cls == "thousands of elements") {
      switch (c_.below(3)) {
        case 0: return {c_.between(1000, 20000)};
        case 1: return {c_.between(30, 150), c_.between(30, 130)};
        default: return {c_.between(8, 24), c_.between(8, 24), c_.between(8, 24)};
      }
    }
    if (cls == "vector boundaries") {
      const int64_t n = value_draws::boundary_length(c_);
      if (c_.percent(70)) return {n};
      const int64_t rows = c_.between(2, 3);  // a [rows, n / rows] contiguous tensor is one run of the loops
      return {rows, std::max<int64_t>(n / rows, 1)};
    }
    if (cls == "with zero") {
      std::vector<int64_t> s = small_shape(static_cast<int>(c_.between(1, p_.max_rank)));
      s[c_.below(static_cast<uint32_t>(s.size()))] = 0;
      if (c_.percent(40)) {
        // One draw per statement: the order of a call's arguments is the
        // compiler's (gcc and clang differ), and a seed must give one program.
        const int64_t huge = one_of({k2p62, kI64Max, k2p31});
        s.insert(s.begin() + c_.below(static_cast<uint32_t>(s.size() + 1)), huge);
      }
      return s;
    }
    if (cls == "negative size") {
      std::vector<int64_t> s = small_shape(static_cast<int>(c_.between(1, p_.max_rank)));
      s[c_.below(static_cast<uint32_t>(s.size()))] = c_.percent(80) ? c_.between(-3, -1) : kI64Min;
      return s;
    }
    if (cls == "product overflows") {
      switch (c_.below(4)) {
        case 0: return {k2p62, 4};
        case 1: return {int64_t{1} << 32, int64_t{1} << 32};
        case 2: return {kI64Max, 2};
        default: return {3, k2p62, 0 + 1};
      }
    }
    if (cls == "over budget") return c_.percent(50) ? std::vector<int64_t>{c_.between(k2p31, int64_t{1} << 40)}
                                                    : std::vector<int64_t>{65536, 65536};
    return {kI64Max};  // "INT64_MAX size"
  }
  std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& s) {
    std::vector<int64_t> st(s.size());
    int64_t acc = 1;
    for (size_t i = s.size(); i-- > 0;) {
      st[i] = acc;
      if (s[i] > 1) acc = acc > kI64Max / s[i] ? kI64Max : acc * s[i];
    }
    return st;
  }
  std::vector<int64_t> strides_value(std::string_view cls, const std::vector<int64_t>& s) {
    std::vector<int64_t> st(s.size());
    if (cls == "contiguous") return contiguous_strides(s);
    if (cls == "zero") return st;
    for (auto& x : st) x = c_.between(0, 4);
    if (cls == "negative" && !st.empty()) st[c_.below(static_cast<uint32_t>(st.size()))] = c_.between(-3, -1);
    if (cls == "huge" && !st.empty()) st[c_.below(static_cast<uint32_t>(st.size()))] = one_of({k2p62, kI64Max, k2p31});
    if (cls == "wrong length") {
      if (st.empty() || c_.percent(50)) st.push_back(1);
      else st.pop_back();
    }
    return st;
  }
  std::optional<std::vector<int64_t>> view_shape_value(std::string_view cls, int64_t n) {
    if (cls == "reinterpret as dtype") return std::nullopt;
    int rank = static_cast<int>(c_.between(0, p_.max_rank));
    std::vector<int64_t> s = factor_shape(n, rank);
    auto at = [&] { return c_.below(static_cast<uint32_t>(s.size())); };
    if (cls == "with -1") {
      if (s.empty()) s.push_back(1);
      s[at()] = -1;
    } else if (cls == "high rank with ones") {
      size_t target = static_cast<size_t>(c_.percent(80) ? c_.between(7, 20) : c_.between(60, 66));
      while (s.size() < target) s.insert(s.begin() + c_.below(static_cast<uint32_t>(s.size() + 1)), 1);
    } else if (cls == "two -1") {
      while (s.size() < 2) s.push_back(1);
      s[0] = -1;
      s[1 + c_.below(static_cast<uint32_t>(s.size() - 1))] = -1;
    } else if (cls == "wrong element count") {
      if (s.empty() || c_.percent(30)) s.push_back(2);
      else {
        const size_t d = at();
        s[d] = engine::wrapping::add(s[d], 1);  // numel may be INT64_MAX (a stride-0 view)
      }
    } else if (cls == "negative size") {
      if (s.empty()) s.push_back(1);
      s[at()] = c_.between(-3, -2);
    } else if (cls == "-1 with zero elements") {
      s = {0, -1};
    } else if (cls == "product overflows") {
      s = {k2p62, 4, -1};
      if (c_.percent(50)) s.pop_back();
    } else if (cls == "below -2^62") {  // not a SymInt
      if (s.empty()) s.push_back(1);
      s[at()] = c_.percent(50) ? kI64Min : -k2p62 - c_.between(1, 3);
    } else if (cls == "product wraps to numel") {
      // [k, x] with k * x == n in int64 that wraps (3 * 6148914691236517206 == 2):
      // infer_size accepts it, computeStride and numel must not (half the
      // time [k, x, -1] with k * x == 1, so that the -1 takes n).
      const bool infer = c_.percent(50);
      s = wrapping_factors(infer ? 1 : n);
      if (infer) s.push_back(-1);
    }
    return s;
  }
  // A dtype with a wider element than d (`width` +1) or a narrower one (-1); any dtype when there is none.
  std::string_view other_width_dtype(engine::DType d, int width) {
    using engine::DType;
    std::vector<DType> found;
    for (DType w : {DType::Int8, DType::UInt8, DType::Bool, DType::Int16, DType::Float16, DType::BFloat16, DType::Int32,
                    DType::Float32, DType::Int64, DType::Float64})
      if (width > 0 ? engine::itemsize(w) > engine::itemsize(d) : engine::itemsize(w) < engine::itemsize(d))
        found.push_back(w);
    if (found.empty()) return draw_class(Domain::DType);
    return engine::dtype_name(found[c_.below(static_cast<uint32_t>(found.size()))]);
  }
  // The StorageOffset class "storage bytes at INT64_MAX": as_strided's offset o
  // such that the storage its header needs, (1 + o + sum(stride * (size - 1)))
  // * itemsize, is the largest multiple of the itemsize <= INT64_MAX (for a
  // 1-byte dtype INT64_MAX itself), or one element more half the time:
  // computeStorageNbytes' `bytes > INT64_MAX` overflow test against its
  // out-of-bounds message. The drawn sizes and strides as they are (a size 0:
  // no storage needed; a negative stride: the span counts as 0).
  int64_t offset_at_int64_max_bytes(const Tensor& t, const StepContext& ctx) {
    __int128 span = 0;
    for (size_t i = 0; i < ctx.shape.size() && i < ctx.strides.size(); ++i)
      if (ctx.shape[i] > 1 && ctx.strides[i] > 0) span += static_cast<__int128>(ctx.strides[i]) * (ctx.shape[i] - 1);
    const __int128 elems = static_cast<__int128>(kI64Max / engine::itemsize(t.dtype)) + (c_.percent(50) ? 1 : 0);
    const __int128 o = elems - 1 - span;
    return o < 0 ? 0 : static_cast<int64_t>(o);
  }
  // The first odd k >= 3 whose x = target * k^-1 (mod 2^64) is a valid size (< 2^63).
  // -2^63 (the numel of a size wrapped by `view dtype=`, Note [Past the
  // wrap]) is 2^63 times every odd k's inverse, never valid: 2 * 2^62 there
  // (the loop never ended).
  static std::vector<int64_t> wrapping_factors(int64_t target) {
    if (target == kI64Min) return {2, k2p62};
    for (uint64_t k = 3;; k += 2) {
      uint64_t inv = k;  // Newton's iteration for the inverse of an odd k mod 2^64
      for (int i = 0; i < 6; ++i) inv *= 2 - k * inv;
      const uint64_t x = static_cast<uint64_t>(target) * inv;
      if (x < (uint64_t{1} << 63)) return {static_cast<int64_t>(k), static_cast<int64_t>(x)};
    }
  }
  std::vector<int64_t> expand_value(std::string_view cls, const Tensor& t) {
    const int64_t r = t.dim();
    std::vector<int64_t> s;
    for (int64_t d = 0; d < r; ++d) s.push_back(t.sizes[d] == 1 || c_.percent(70) ? t.sizes[d] : -1);
    auto at = [&] { return c_.below(static_cast<uint32_t>(s.size())); };
    if (cls == "broadcast size-1 dims") {
      for (int64_t d = 0; d < r; ++d)
        if (t.sizes[d] == 1 && c_.percent(70))
          // a huge dim beside a zero one: numel 0, but a copy's contiguous strides overflow
          s[d] = c_.percent(10) ? c_.between(1000, 5000) : c_.percent(5) ? one_of({k2p31, k2p62}) : c_.between(0, 5);
    } else if (cls == "new leading dims") {
      int extra = static_cast<int>(c_.between(1, 2));
      for (int i = 0; i < extra; ++i) s.insert(s.begin(), c_.between(0, 4));
    } else if (cls == "huge new dim") {
      s.insert(s.begin(), one_of({int64_t{1000000000}, k2p62, k2p31}));
    } else if (cls == "numel overflows") {
      s.insert(s.begin(), {k2p62, 16});
    } else if (cls == "numel at INT64_MAX") {
      // a new leading dim k with k * numel(self) == the largest product <= INT64_MAX
      // (safe_compute_numel passes), or k + 1 (it overflows by the least)
      int64_t n = 1;
      bool fits = true;
      for (int64_t d = 0; d < r && fits; ++d) fits = t.sizes[d] > 0 && !__builtin_mul_overflow(n, t.sizes[d], &n);
      if (!fits) n = 1;
      const int64_t k = kI64Max / n;
      if (c_.percent(50)) s.insert(s.begin(), k);
      else if (k < kI64Max) s.insert(s.begin(), k + 1);
      else s.insert(s.begin(), {2, k2p62});  // numel 1: 2^63
    } else if (cls == "mismatch") {
      if (s.empty()) s.push_back(2);
      size_t i = at();
      s[i] = engine::wrapping::add(s[i] == -1 ? t.sizes[i] : s[i], 1);  // may be INT64_MAX (UBSan)
    } else if (cls == "negative") {
      if (s.empty()) s.push_back(-2);
      else s[at()] = -2;
    } else if (cls == "-1 in a new dim") {
      s.insert(s.begin(), -1);
    } else if (cls == "fewer dims") {
      if (!s.empty()) s.erase(s.begin());
      else s.push_back(1), s.push_back(2);  // rank 0: more dims than asked is fine; this one is valid
    } else if (cls == "INT64_MAX in a size-1 dim") {
      std::vector<size_t> ones;
      for (size_t d = 0; d < s.size(); ++d)
        if (t.sizes[d] == 1) ones.push_back(d);
      if (ones.empty()) s.insert(s.begin(), kI64Max);  // a new leading dim instead
      else s[ones[c_.below(static_cast<uint32_t>(ones.size()))]] = kI64Max;
    } else if (cls == "below -2^62") {
      const size_t at = c_.below(static_cast<uint32_t>(s.size() + 1));
      s.insert(s.begin() + at, -k2p62 - c_.between(1, 3));
      // Half the time -2^62 itself (a SymInt) comes first: the error names the first value
      // that is not one, so a bound off by one names the wrong value.
      if (c_.percent(50)) s.insert(s.begin() + c_.below(static_cast<uint32_t>(at + 1)), -k2p62);
    }
    return s;
  }
  // The class "self dtype limit" (program/domains.cpp): a limit of self's dtype.
  Number self_dtype_limit(engine::DType d) {
    using engine::DType;
    const double fmax = d == DType::Float16 ? 65504.0 : d == DType::BFloat16 ? 3.3895313892515355e38
                      : d == DType::Float32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
    if (engine::is_floating(d)) {
      const double v = c_.percent(50) ? fmax : one_of({2 * fmax, fmax * 1.0000001, 1e300});
      return Number::floating(c_.percent(50) ? v : -v);
    }
    if (d == DType::Bool) return c_.percent(50) ? I(one_of<int64_t>({0, 1, 2, -1})) : Number::boolean(c_.percent(50));
    if (d == DType::Int64) {
      const int64_t v = one_of<int64_t>({kI64Min, kI64Min + 1, kI64Max, kI64Max - 1});
      if (c_.percent(20)) return Number::floating(one_of({9223372036854775808.0, -9223372036854777856.0}));
      return I(v);
    }
    const auto [lo, hi] = integer_range(d);
    int64_t v = one_of<int64_t>({lo - 1, lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, hi + 1});  // past the range: 1 in 2
    if (d == DType::UInt8 && c_.percent(30)) v = one_of<int64_t>({-255, -256});
    if (c_.percent(20)) return Number::floating(static_cast<double>(v) + one_of({0.0, 0.5, -0.5}));
    return I(v);
  }
  // clamp_'s bounds (OptScalar) of an integer self: 3 times in 4 an integer
  // exactly at the dtype's min or max or one past it, where the Clamp range
  // checks branch (TensorCompare.cpp, 2.x: a min bound above the max raises, a
  // min bound at the max is valid and clamps every element to it; a max bound
  // below the min raises); self_dtype_limit draws the max itself 1 time in 10.
  std::optional<Number> clamp_bound_edge(engine::DType d) {
    using engine::DType;
    if (engine::is_floating(d) || d == DType::Bool || !c_.percent(75)) return std::nullopt;
    if (d == DType::Int64) return I(one_of<int64_t>({kI64Min, kI64Max, kI64Max, kI64Min + 1, kI64Max - 1}));
    const auto [lo, hi] = integer_range(d);
    return I(one_of<int64_t>({lo - 1, lo, hi, hi, hi + 1}));
  }
  Number scalar_value(std::string_view cls, const Value* self = nullptr) {
    const double inf = std::numeric_limits<double>::infinity();
    if (cls == "self dtype limit") return self ? self_dtype_limit(self->tensor.dtype) : scalar_value("int dtype limit");
    if (cls == "small int") return I(one_of<int64_t>({0, 1, 2, -1, -3, 7, 100}));
    if (cls == "small float") return Number::floating(one_of({0.5, -1.5, 2.0, 3.25, 1e-3, 0.1, -2.5}));
    if (cls == "bool") return Number::boolean(c_.percent(50));
    if (cls == "int dtype limit") {
      int64_t v = one_of<int64_t>({-129, -128, 127, 128, 255, 256, -1, -32769, -32768, 32767, 32768, 65535, 65536,
                                   int64_t{INT32_MIN} - 1, INT32_MIN, INT32_MAX, int64_t{INT32_MAX} + 1,
                                   4294967295, 4294967296, kI64Min, kI64Max, kI64Max - 1, kI64Min + 1});
      if (c_.percent(25) && v != kI64Max && v != kI64Max - 1) return Number::floating(static_cast<double>(v));
      return I(v);
    }
    if (cls == "reduced float max")
      return Number::floating(one_of({65504.0, 65505.0, 65519.0, 65520.0, 65536.0, -65504.0, -65520.0,
                                      3.3895313892515355e38, 3.3961e38, 3.4028234663852886e38, 3.4028235677973366e38,
                                      3.5e38, -3.5e38}));
    if (cls == "past exact integers") {
      if (c_.percent(40)) return I(one_of<int64_t>({257, 2049, 4097, 16777217, 33554435, 9007199254740993}));
      return Number::floating(one_of({257.0, 2049.0, 4097.0, 16777217.0, 33554435.0, 9007199254740994.0}));
    }
    // (and integers between 2^31 and 2^53 whose low byte is not 0: float64 -> uint8 and int64
    // convert through int64, the narrower integers through int32's INT32_MIN, c10's
    // static_cast_with_inter_type; only such a value tells the two paths apart)
    if (cls == "huge float64")
      return Number::floating(one_of({1e20, -1e20, 9223372036854775808.0, -9223372036854775808.0,
                                      18446744073709551616.0, 4294967296.5, 1e300, -1e308, 3000000001.0,
                                      -3000000001.0, 4294967553.0, 1000000000000007.0}));
    if (cls == "nan") return Number::floating(std::numeric_limits<double>::quiet_NaN());
    if (cls == "inf") return Number::floating(inf);
    if (cls == "-inf") return Number::floating(-inf);
    if (cls == "-0.0") return Number::floating(-0.0);
    if (cls == "rounding tie") return Number::floating(value_draws::rounding_tie(c_));
    if (cls == "finite limits") return Number::floating(value_draws::finite_limit(c_, any_float_dtype()));
    // denormal
    return Number::floating(one_of({1e-40, -1e-40, 5e-324, 6e-8, -6e-8, 1e-45, 1.1754942e-38, 1e-310}));
  }
  Arg values_value(std::string_view cls, StepContext& ctx) {
    List l;
    // "dtype limits": 3 times in 4 the edges of one dtype D (self_dtype_limit:
    // just inside and just past its range, uint8's -255 and -256) with
    // dtype=D, the class's own keyword: tensor_new's checked conversion
    // (store_scalar, c10::checked_convert) branches exactly there.
    if (cls == "dtype limits" && c_.percent(75)) {
      using engine::DType;
      // uint8 twice: the unsigned rule (-255 converts, -256 raises) is the odd one
      const DType d = one_of({DType::UInt8, DType::UInt8, DType::Int8, DType::Int16, DType::Int32, DType::Int64,
                              DType::Float16, DType::BFloat16, DType::Bool});
      const int n = static_cast<int>(c_.between(1, 6));
      for (int i = 0; i < n; ++i) l.items.push_back(self_dtype_limit(d));
      ctx.extra_kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
      ctx.drawn.push_back({"dtype", "set by the values"});
      return l;
    }
    auto push_n = [&](int n, auto draw) {
      for (int i = 0; i < n; ++i) l.items.push_back(draw());
    };
    int n = static_cast<int>(c_.between(1, 6));
    if (cls == "0-d") return c_.percent(50) ? scalar_value("small int") : scalar_value(one_of<std::string_view>(
                                                                             {"small float", "bool", "int dtype limit",
                                                                              "nan", "past exact integers"}));
    if (cls == "ints") push_n(n, [&] { return scalar_value("small int"); });
    else if (cls == "floats") push_n(n, [&] { return scalar_value("small float"); });
    else if (cls == "bools") push_n(n, [&] { return scalar_value("bool"); });
    else if (cls == "mixed int and float")
      push_n(n + 1, [&] { return scalar_value(c_.percent(50) ? "small int" : "small float"); });
    else if (cls == "mixed bool and number")
      push_n(n + 1, [&] { return scalar_value(c_.percent(50) ? "bool" : c_.percent(50) ? "small int" : "small float"); });
    else if (cls == "dtype limits")
      push_n(n, [&] { return scalar_value(c_.percent(60) ? "int dtype limit" : "reduced float max"); });
    else if (cls == "nan, inf, -0.0")
      push_n(n, [&] { return scalar_value(one_of<std::string_view>({"nan", "inf", "-inf", "-0.0", "small float"})); });
    else if (cls == "thousands")
      push_n(static_cast<int>(c_.between(1000, 3000)), [&] { return I(c_.between(-100, 100)); });
    else if (cls == "past exact integers")
      push_n(c_.percent(50) ? 1 : n, [&] { return scalar_value(c_.percent(70) ? "past exact integers" : "small int"); });
    else if (cls == "special-value runs") {
      const engine::DType limits_of = any_float_dtype();  // the dtype keyword is drawn after the values
      for (double v : value_draws::runs(c_, std::min<int64_t>(value_draws::boundary_length(c_), 600),
                                        [&] { return value_draws::special_float(c_, limits_of); }))
        l.items.push_back(Number::floating(v));
    }
    return l;  // "empty" too
  }

  // The value of `param` drawn from class `cls` of domain `d`; nullopt: the
  // parameter is not written (an absent keyword, a reinterpreting view).
  std::optional<Arg> value(Domain d, std::string_view cls, StepContext& ctx) {
    const Tensor* t = ctx.self ? &ctx.self->tensor : nullptr;
    const int64_t r = ctx.rank, s = ctx.dim_size;
    switch (d) {
      case Domain::Self:
      case Domain::ViewSelf:
      case Domain::FormatSelf: return Name{ctx.self->name};
      case Domain::Other:
        if (cls == "same storage") return Name{pick_alias(*ctx.self).name};
        if (cls == "reinterpreted alias") return reinterpreted_alias(ctx);
        if (cls == "self") return Name{ctx.self->name};
        if (cls == "any value") return Name{pick().name};
        if (cls == "odd size-1 strides") return odd_size_one_operand(ctx);
        if (cls == "conversion edges") {
          const std::string self_name = ctx.self->name;
          Name n{conversion_edges_value(ctx.self).name};
          for (const Value& v : env_)
            if (v.name == self_name) ctx.self = &v;
          return n;
        }
        return layout_operand(cls, ctx);
      case Domain::Dim: return I(dim_value(cls, r));
      case Domain::InsertDim: return I(insert_dim_value(cls, r));
      case Domain::OptDim:
        if (cls == "none") return Ident{"none"};
        return I(dim_value(cls, r));
      case Domain::DimList: {
        std::vector<int64_t> v;
        if (cls == "subset") v = subset(r, false);
        else if (cls == "negative dims") v = subset(r, true);
        else if (cls == "all dims") v = permutation(r);
        else if (cls == "repeated dim") {
          v = subset(r, false);
          int64_t d0 = r ? c_.between(0, r - 1) : 0;
          v.push_back(d0);
          v.push_back(d0 - (c_.percent(50) ? std::max<int64_t>(r, 1) : 0));
        } else if (cls == "out of range") {
          v = subset(r, false);
          v.push_back(c_.percent(50) ? std::max<int64_t>(r, 1) : -std::max<int64_t>(r, 1) - 1);
        }
        return int_list(v);
      }
      case Domain::Permutation: {
        std::vector<int64_t> p = permutation(r);
        if (cls == "negative dims")
          for (auto& x : p) x = c_.percent(50) ? x - r : x;
        if (cls == "repeated dim") {
          // The same dim twice, half the time only after wrapping (d and d - rank):
          // a check on the raw values would let that one through.
          const int64_t alias = c_.percent(50) ? std::max<int64_t>(r, 1) : 0;
          if (p.size() < 2) p = {0, -alias};
          else p[1] = p[0] - alias;
        }
        if (cls == "wrong length") {
          if (p.empty() || c_.percent(50)) p.push_back(r);
          else p.pop_back();
        }
        if (cls == "out of range" || cls == "INT64_MIN or INT64_MAX") {
          const bool extreme = cls != "out of range";
          const int64_t bad = c_.percent(50) ? (extreme ? kI64Max : r) : (extreme ? kI64Min : -r - 1);
          if (p.empty()) p.push_back(extreme ? bad : 1);
          else p[c_.below(static_cast<uint32_t>(p.size()))] = bad;
        }
        return int_list(p);
      }
      case Domain::MoveDims: {
        const int64_t re = std::max<int64_t>(r, 1);
        int64_t prev = ctx.move_len;
        auto set = [&](int64_t len) {
          if (ctx.move_len < 0) ctx.move_len = len;
        };
        if (cls == "one dim") {
          set(0);
          return I(dim_value(c_.percent(70) ? "in range" : "negative", r));
        }
        if (cls == "out of range") {
          set(0);
          return I(c_.percent(50) ? re : -re - 1);
        }
        if (cls == "INT64_MIN or INT64_MAX") {
          set(0);
          return I(c_.percent(50) ? kI64Max : kI64Min);
        }
        std::vector<int64_t> v;
        if (cls == "dim list") {
          v = permutation(r);
          size_t len = prev > 0 ? static_cast<size_t>(prev) : static_cast<size_t>(c_.between(1, std::max<int64_t>(r, 1)));
          if (v.size() > len) v.resize(len);
        } else if (cls == "repeated dim") {
          v = {0, c_.percent(50) ? -re : 0};  // the same dim, half the time only after wrapping
        } else if (cls == "length mismatch") {
          v = permutation(r);
          size_t len = prev > 0 ? static_cast<size_t>(prev) + 1 : static_cast<size_t>(std::max<int64_t>(r - 1, 0));
          v.resize(std::min(v.size(), len));
          if (v.size() < len) v.push_back(0);
        }
        set(static_cast<int64_t>(v.size()));
        return int_list(v);
      }
      case Domain::Index: {
        if (auto e = extreme(cls)) return I(*e);
        if (cls == "in range") return I(c_.between(0, std::max<int64_t>(s - 1, 0)));
        if (cls == "negative") return I(c_.between(-std::max<int64_t>(s, 1), -1));
        if (cls == "size") return I(s);
        return I(-s - 1);
      }
      case Domain::Start: {
        int64_t v;
        if (auto e = extreme(cls)) v = *e;
        else if (cls == "in range") v = c_.between(0, s);
        else if (cls == "negative") v = c_.between(-std::max<int64_t>(s, 1), -1);
        else if (cls == "size") v = s;
        else if (cls == "size+1") v = engine::wrapping::add(s, 1);  // s may be INT64_MAX: wraps (UBSan)
        else v = -s - 1;
        ctx.start = v;
        return I(v);
      }
      case Domain::Length: {
        if (auto e = extreme(cls)) return I(*e);
        int64_t w = ctx.start < 0 && ctx.start > kI64Min ? ctx.start + s : ctx.start;
        int64_t avail = (w >= 0 && w <= s) ? s - w : 0;
        if (cls == "fits") return I(c_.between(0, avail));
        if (cls == "zero") return I(0);
        if (cls == "one past") return I(engine::wrapping::add(avail, 1));
        return I(c_.between(-3, -1));
      }
      case Domain::SliceBound: {
        if (cls == "none") return Ident{"none"};
        if (auto e = extreme(cls)) return I(*e);
        if (cls == "in range") return I(c_.between(0, s));
        if (cls == "negative") return I(c_.between(-std::max<int64_t>(s, 1), -1));
        // past either end of a size up to INT64_MAX: the int64 wraps (never signed overflow: UBSan)
        if (cls == "past the end") return I(engine::wrapping::add(s, c_.between(1, 3)));
        return I(engine::wrapping::sub(engine::wrapping::sub(0, s), c_.between(1, 3)));
      }
      case Domain::SliceStep: {
        if (cls == "1") return I(1);
        if (cls == "2..3") return I(c_.between(2, 3));
        if (cls == "size or more") return I(engine::wrapping::add(std::max<int64_t>(s, 1), c_.between(0, 2)));
        if (cls == "INT64_MAX") return I(kI64Max);
        if (cls == "2^31 or 2^62") return I(c_.percent(50) ? k2p31 : k2p62);
        if (cls == "INT64_MIN") return I(kI64Min);
        if (cls == "below -2^62") return I(-k2p62 - c_.between(1, 3));
        if (cls == "0") return I(0);
        return I(c_.between(-3, -1));
      }
      case Domain::DiagOffset: {
        if (auto e = extreme(cls)) return I(*e);
        if (cls == "small") return I(c_.between(-3, 3));
        if (cls == "+-size") return I(sign() * s);
        return I(engine::wrapping::mul(sign(), engine::wrapping::add(s, 1)));  // s may be INT64_MAX
      }
      case Domain::WindowSize: {
        if (cls == "fits") return I(c_.between(0, s));
        if (cls == "0") return I(0);
        if (cls == "size") return I(s);
        if (cls == "size+1") return I(engine::wrapping::add(s, 1));
        if (cls == "negative") return I(c_.between(-2, -1));
        if (cls == "INT64_MIN") return I(kI64Min);
        return I(kI64Max);
      }
      case Domain::WindowStep: {
        if (cls == "1..3") return I(c_.between(1, 3));
        if (cls == "size+1") return I(engine::wrapping::add(s, 1));
        if (cls == "INT64_MAX") return I(kI64Max);
        if (cls == "2^62") return I(k2p62);
        if (cls == "INT64_MIN") return I(kI64Min);
        if (cls == "0") return I(0);
        return I(c_.between(-2, -1));
      }
      case Domain::Shape: {
        std::vector<int64_t> v = shape_value(cls);
        if (t && cls == "small") v = small_shape(static_cast<int>(c_.between(0, 3)));  // as_strided: in the storage more often
        ctx.shape = v;
        return int_list(v);
      }
      case Domain::Strides:
        ctx.strides = strides_value(cls, ctx.shape);
        return int_list(ctx.strides);
      case Domain::StorageOffset: {
        if (cls == "none") return Ident{"none"};
        if (auto e = extreme(cls)) return I(*e);
        int64_t elems = t->storage->nbytes() / engine::itemsize(t->dtype);
        if (cls == "0") return I(0);
        if (cls == "in storage") return I(c_.between(0, std::max<int64_t>(0, elems - 1)));
        if (cls == "past the end") return I(elems + c_.between(1, 3));
        if (cls == "storage bytes at INT64_MAX") return I(offset_at_int64_max_bytes(*t, ctx));
        return I(c_.between(-3, -1));
      }
      case Domain::ViewShape:
      case Domain::ViewShapeOrDType: {
        int64_t n = ctx.dim_size;  // unflatten: the dim's size
        if (ctx.self && find_domain_param_is_view_) n = t->numel();
        auto v = view_shape_value(cls, n);
        if (!v) {
          std::string_view dc = ctx.dtype_width ? other_width_dtype(t->dtype, ctx.dtype_width) : draw_class(Domain::DType);
          ctx.extra_kwargs.push_back({"dtype", Ident{std::string(dc)}, {}});
          ctx.drawn.push_back({"dtype", dc});
          return std::nullopt;
        }
        return int_list(*v);
      }
      case Domain::ExpandShape: return int_list(expand_value(cls, *t));
      case Domain::ArangeEnd: {
        if (cls == "small") return I(c_.between(0, 24));
        if (cls == "thousands") return I(c_.between(1000, 20000));
        if (cls == "zero") return I(0);
        if (cls == "one") return I(1);
        if (cls == "negative") return I(c_.between(-5, -1));
        if (cls == "past float16 exact range") return I(c_.between(2049, 2100));
        if (cls == "past reduced float exact range") return reduced_float_arange_end(ctx);
        if (cls == "over budget") return I(c_.between(k2p31, int64_t{1} << 40));
        if (cls == "storage overflows") return I((int64_t{1} << 61) + c_.between(0, 3) * (int64_t{1} << 59));
        return I(cls == "INT64_MAX" ? kI64Max : kI64Min);
      }
      case Domain::Chunks: {
        if (cls == "1..4") return I(c_.between(1, 4));
        if (cls == "more than size") return I(engine::wrapping::add(s, c_.between(1, 3)));  // s may be INT64_MAX: wraps (UBSan)
        if (cls == "INT64_MAX") return I(kI64Max);
        if (cls == "2^62") return I(k2p62);
        if (cls == "INT64_MIN") return I(kI64Min);
        if (cls == "0") return I(0);
        return I(c_.between(-2, -1));
      }
      case Domain::SplitSize: {
        if (cls == "one size") return I(c_.between(1, std::max<int64_t>(1, s)));
        if (cls == "0") return I(0);
        if (cls == "INT64_MAX") return I(kI64Max);
        if (cls == "negative") return I(c_.between(-2, -1));
        if (cls == "list with negative") return int_list({-1, engine::wrapping::add(s, 1)});
        if (cls == "2^62") return I(k2p62);
        if (cls == "INT64_MIN") return I(kI64Min);
        // sums to s in int64 that wraps: the pieces' starts wrap past INT64_MAX
        if (cls == "list with wrapping sum")
          return c_.percent(50) ? int_list({kI64Max, kI64Max, engine::wrapping::add(s, 2)})
                                : int_list({k2p62, k2p62, k2p62, engine::wrapping::add(k2p62, s)});
        if (cls == "list below -2^62") return int_list({-k2p62 - 1, engine::wrapping::add(k2p62 + 1, s)});
        std::vector<int64_t> parts;
        int64_t left = s;
        while (left > 0 && parts.size() < 6) {
          int64_t p = c_.between(0, left);
          parts.push_back(p);
          left -= p;
        }
        if (left > 0) parts.push_back(left);
        if (cls == "list with wrong sum") parts.push_back(1);
        return int_list(parts);
      }
      case Domain::Repeats: {
        std::vector<int64_t> rep;
        for (int64_t i = 0; i < r; ++i) rep.push_back(c_.between(0, 3));
        if (cls == "extra leading") {
          const int64_t value = c_.between(0, 3);  // before the count, one draw per statement (as above)
          rep.insert(rep.begin(), c_.between(1, 2), value);
        }
        else if (cls == "thousands of elements") {
          std::fill(rep.begin(), rep.end(), 1);
          int64_t n = std::max<int64_t>(t->numel(), 1);
          rep.insert(rep.begin(), std::max<int64_t>(1, std::min<int64_t>(c_.between(1000, 8000) / n, 8000)));
        } else if (cls == "fewer than dims") {
          if (!rep.empty()) rep.pop_back();
        } else if (cls == "negative") {
          rep.push_back(-1);
        } else if (cls == "product overflows") {
          rep.insert(rep.begin(), {k2p62, 8});
        }
        return int_list(rep);
      }
      case Domain::IndexList: {
        std::vector<int64_t> idx;
        auto in_range = [&] { return c_.between(0, std::max<int64_t>(s - 1, 0)); };
        int64_t n = c_.between(1, 4);
        if (cls == "empty") return int_list(idx);
        if (cls == "many") n = c_.between(100, 2000);
        for (int64_t i = 0; i < n; ++i) idx.push_back(in_range());
        if (cls == "duplicates") idx.push_back(idx[0]);
        else if (cls == "negative") idx[0] = c_.between(-std::max<int64_t>(s, 1), -1);
        else if (cls == "size") idx[0] = s;
        else if (auto e = extreme(cls)) idx[0] = *e;
        return int_list(idx);
      }
      case Domain::Scalar: return scalar_value(cls, ctx.self);
      case Domain::OptScalar:
        if (cls == "none") return Ident{"none"};
        if (cls == "self dtype limit" && ctx.self)
          if (std::optional<Number> edge = clamp_bound_edge(ctx.self->tensor.dtype)) return *edge;
        return scalar_value(cls, ctx.self);
      case Domain::ScalarOrTensor:
        if (cls == "tensor") return Name{pick().name};
        if (cls == "special-value run") return layout_operand(cls, ctx);
        if (cls == "odd size-1 strides") return odd_size_one_operand(ctx);
        if (cls == "NaN payload mix") return nan_payload_mix(ctx);
        if (cls == "0-d of another dtype") return zero_d_other_dtype(ctx);
        if (cls == "self") return Name{ctx.self->name};
        if (cls == "same storage") return Name{pick_alias(*ctx.self).name};
        return scalar_value(cls, ctx.self);
      case Domain::Values: return values_value(cls, ctx);
      case Domain::DType: return Ident{std::string(cls)};
      case Domain::OptDType:
        if (cls == "absent") return std::nullopt;
        return Ident{std::string(cls)};
      case Domain::SetByShape: return std::nullopt;
      case Domain::OptFormat:
        if (cls == "absent") return std::nullopt;
        return Ident{std::string(cls)};
      case Domain::OptOut:
        if (cls == "absent") return std::nullopt;
        if (cls == "same storage") return Name{pick_alias(*ctx.self).name};
        if (cls == "non-contiguous view") return layout_operand("non-contiguous", ctx);
        if (cls == "offset view") return layout_operand("storage offset", ctx);
        if (cls == "another dtype") return other_dtype_out(ctx);
        return Name{cls == "self" ? ctx.self->name : pick().name};
    }
    return std::nullopt;
  }

  // ---- Note [Stale headers] ------------------------------------------------
  // An out= resize that raises leaves out's header half set, as LibTorch's
  // resize_output -> resize_impl_cpu_ (aten/src/ATen/native/Resize.cpp) sets
  // it step by step (engine/elementwise.cpp, resize_out):
  //  - set_sizes_contiguous: the new sizes over the old strides (cut, or
  //    padded with 0s); its refresh_numel raises "numel: integer
  //    multiplication overflow" (a negative size after a size above 1, or
  //    sizes whose product passes 2^64): the cached numel and layout flags
  //    stay as they were (Note [stale layout flags], engine/tensor.h);
  //  - 2.x: empty_tensor_restride's contiguous strides, wrapped, then "Stride
  //    calculation overflowed" (numel 0): the cached flags stay;
  //  - computeStorageNbytesContiguous: "Storage size calculation overflowed"
  //    for an out at an offset near INT64_MAX / itemsize: new sizes and
  //    strides, the storage not grown (elements outside it: only views of it
  //    run, Note [elements outside their storage]);
  //  - the storage grows: a size past the budget is refused on both sides;
  //  - a negative size with a zero before it passes every check.
  // LibTorch's own checks never build such headers, so every op that reads
  // one meets them unprepared (the 2026-12-01 swarm sweeps' index_select dim
  // 1, fill_'s stale numel of 1, the budget's negative-size self; view dtype=
  // to a wider element after). The class "failed out=" gives one step such a
  // self now and then; a stale header step makes one on purpose
  // (make_stale_header) and hands it to 1..4 readers drawn from the view,
  // copy, in-place and elementwise ops this program kept: as self, as the
  // other operand, as out= again, or a view an earlier reader made of it.
  void stale_header_step() {
    if (!prog_) return;
    const std::string stale = make_stale_header();
    if (stale.empty()) return;
    std::string current = stale;
    const int readers = static_cast<int>(c_.between(1, 4));
    for (int i = 0; i < readers; ++i) {
      const OpSpec* spec = stale_reader_op();
      if (!spec) return;
      if (!bound_value(current) || c_.percent(25)) current = stale;
      if (!bound_value(current)) return;
      const bool two_operands = spec->params.size() > 1 && (spec->params[1].kind == ParamKind::Tensor ||
                                                            spec->params[1].kind == ParamKind::ScalarOrTensor);
      const bool takes_out = !spec->kwargs.empty() && spec->kwargs[0].kind == KwKind::Tensor;
      const uint32_t role = c_.below(4);  // 0: the other operand, 1: out=, else self
      const bool as_other = role == 0 && two_operands, as_out = role == 1 && takes_out;
      if (!as_other && !as_out) forced_self_ = current;
      std::optional<Drafted> d = draft(*spec);
      forced_self_.clear();
      if (!d) continue;
      if (as_other) {
        if (d->step.args.size() < 2) continue;
        d->step.args[1] = Name{current};
        d->drawn[1].klass = "stale header";  // drawn holds one entry per written parameter, in order
      }
      if (as_out) {
        auto& kw = d->step.kwargs;
        kw.erase(std::remove_if(kw.begin(), kw.end(), [](const KwArg& k) { return k.key == "out"; }), kw.end());
        kw.push_back({"out", Name{current}, {}});
        for (DrawnClass& c : d->drawn)
          if (c.param == "out") c.klass = "stale header";
      }
      const Value* r = emit_bound(std::move(*d));
      if (r && spec->category == OpCategory::View && !as_other && c_.percent(60)) current = r->name;
    }
  }
  // A view, copy, in-place or elementwise op this program draws from, the
  // families weighted alike (views a little more: they pass the header on).
  const OpSpec* stale_reader_op() {
    static constexpr OpCategory kinds[] = {OpCategory::View, OpCategory::View, OpCategory::Copy,
                                           OpCategory::InPlace, OpCategory::Elementwise};
    const auto& ops = by_category_[static_cast<int>(kinds[c_.below(5)])];
    if (ops.empty()) return nullptr;
    return ops[c_.below(static_cast<uint32_t>(ops.size()))];
  }
  // Emits the steps of one failed out= resize; the out's name, or "" when a
  // step of it could not be made. 30% of the time an earlier stale header is
  // read again instead.
  std::string make_stale_header() {
    using engine::DType;
    std::vector<const Value*> earlier;
    for (const Value& v : env_)
      if (v.tensor.stale_numel || v.tensor.stale_layout) earlier.push_back(&v);
    if (!earlier.empty() && c_.percent(30)) return earlier[c_.below(static_cast<uint32_t>(earlier.size()))]->name;
    auto step = [&](std::string op, std::vector<Arg> args, std::optional<DType> dtype = std::nullopt) {
      Drafted d;
      d.step.op = std::move(op);
      d.step.args = std::move(args);
      if (dtype) d.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(*dtype))}, {}});
      d.drawn.push_back({"self", "made stale header"});
      const Value* v = emit_bound(std::move(d));
      return v ? v->name : std::string();
    };
    static constexpr DType dtypes[] = {DType::Float32, DType::Float32, DType::Float32, DType::Float16,
                                       DType::BFloat16, DType::Float64, DType::Int64,  DType::Int32,
                                       DType::Int16,    DType::UInt8,   DType::Bool};
    const DType dtype = dtypes[c_.below(11)];
    // The out: fresh (any rank, 0-d and empty too), or a view: transposed,
    // every other element at an offset, a 0-d element, channels-last.
    std::string out;
    const uint32_t form = c_.below(10);
    if (form < 5) {
      std::vector<int64_t> sizes(static_cast<size_t>(c_.between(0, 4)));
      for (int64_t& s : sizes) s = c_.percent(10) ? 0 : c_.between(1, 4);
      out = step("zeros", {int_list(sizes)}, dtype);
    } else {
      const int64_t a = c_.between(2, 4), b = c_.between(2, 5);
      const std::string base = step("zeros", {int_list(form == 9 ? std::vector<int64_t>{a, 1, b, 2}
                                                                 : std::vector<int64_t>{a, b})},
                                    dtype);
      if (base.empty()) return "";
      if (form == 5) out = step("transpose", {Name{base}, I(0), I(1)});
      else if (form == 6) out = step("slice", {Name{base}, I(1), I(1), Ident{"none"}, I(2)});
      else if (form == 7) out = step("select", {Name{base}, I(0), I(a - 1)});
      else if (form == 8) out = step("select", {Name{base}, I(1), I(c_.between(0, b - 1))});
      else out = step("permute", {Name{base}, int_list({0, 2, 3, 1})});
    }
    if (out.empty()) return "";
    // The inputs: views of a small tensor of the out's dtype (most often;
    // else float32 into a float64 or int64 out, the iterator's temporary)
    // whose broadcast shape the resize takes.
    const DType in_dtype = c_.percent(75) || dtype == DType::Float32 ? dtype : DType::Float32;
    const int64_t m = c_.between(2, 3), k = c_.between(1, 3);
    const std::string w = step("zeros", {int_list({m, 1, 1})}, in_dtype);
    if (w.empty()) return "";
    auto strided = [&](std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset) {
      return step("as_strided", {Name{w}, int_list(sizes), int_list(strides), I(offset)});
    };
    auto resize = [&](std::string op, Arg self, std::optional<Arg> other) {
      Drafted d;
      d.step.op = std::move(op);
      d.step.args.push_back(std::move(self));
      if (other) d.step.args.push_back(std::move(*other));
      d.step.kwargs.push_back({"out", Name{out}, {}});
      d.drawn.push_back({"self", "made stale header"});
      emit(*prog_, std::move(d));
    };
    // neg of bool raises before its resize: add the input to itself instead
    const std::string unary = in_dtype == DType::Bool ? "add" : "neg";
    auto one_input = [&](const std::string& n) {
      if (unary == "neg") resize("neg", Name{n}, std::nullopt);
      else resize("add", Name{n}, Name{n});
    };
    const uint32_t failure = c_.below(20);
    if (failure < 9) {
      // numel overflow: [m,-k,0] ([m,-k,0,j]): m * (2^64 - k) passes 2^64 before the 0
      const bool rank4 = c_.percent(30);
      const std::string n = rank4 ? strided({-k, 0, c_.between(1, 3)}, {1, 1, 1}, 0) : strided({-k, 0}, {1, 1}, 0);
      if (n.empty()) return "";
      std::string wide = w;
      if (rank4) wide = step("unsqueeze", {Name{w}, I(-1)});
      if (wide.empty()) return "";
      const bool mul = c_.percent(50);
      if (c_.percent(50)) resize(mul ? "mul" : "add", Name{n}, Name{wide});
      else resize(mul ? "mul" : "add", Name{wide}, Name{n});
    } else if (failure < 14) {
      // 2.x: contiguous strides past INT64_MAX over numel 0 (1.13 keeps them wrapped)
      static const std::vector<int64_t> shapes[] = {{0, 1152921504606846445, 0, 3, 5},
                                                    {0, k2p62, 4},
                                                    {3, k2p62, 0, 2},
                                                    {0, k2p31, k2p31, 4}};
      const std::vector<int64_t>& sizes = shapes[c_.below(4)];
      const std::string n = strided(sizes, std::vector<int64_t>(sizes.size(), 1), 0);
      if (n.empty()) return "";
      if (c_.percent(50)) one_input(n);
      else resize("add", Name{n}, I(7));
    } else if (failure < 16) {
      // the storage size: an out of no elements at an offset whose k elements pass INT64_MAX bytes
      const int64_t item = engine::itemsize(dtype);
      const std::string far = step("as_strided", {Name{out}, int_list({0}), int_list({1}),
                                                  I(kI64Max / item - c_.between(0, k - 1))});
      if (far.empty()) return "";
      out = far;
      const std::string z = step("zeros", {int_list({k})}, in_dtype);
      if (z.empty()) return "";
      one_input(z);
    } else if (failure < 17) {
      // numel overflow of positive sizes: [2^32, 2^32] from two stride-0 views
      const std::string p = strided({int64_t{1} << 32, 1}, {0, 0}, 0);
      const std::string q = strided({1, int64_t{1} << 32}, {0, 0}, 0);
      if (p.empty() || q.empty()) return "";
      resize("add", Name{p}, Name{q});
    } else if (failure < 18 && p_.stale_header_percent <= 2) {
      // past the budget: 2^32 elements of a stride-0 view (emit leaves it out,
      // or keeps it unrun and the rest of the program is skipped): only at the
      // default rate, the next form taking its draws above it (--stale-headers
      // 30, 2,000 programs: skipped 30.6% -> 27.3%; the rest are steps the
      // engine refuses on elements outside their storage, Note [elements
      // outside their storage])
      const std::string p = strided({65536, 65536}, {0, 0}, 0);
      if (p.empty()) return "";
      one_input(p);
    } else {
      // a negative size that passes: [m,0,-k] multiplies to 0 before the -k
      const std::string n = strided({0, -k}, {1, 1}, 0);
      if (n.empty()) return "";
      resize(c_.percent(50) ? "mul" : "add", Name{w}, Name{n});
    }
    return out;
  }

  // ---- steps -----------------------------------------------------------------
  // Draws every parameter of `spec` from its domain (program/domains.cpp).
  // Dims are drawn first: indices, starts and lengths are relative to the
  // size of the dim they index.
  std::optional<Drafted> draft(const OpSpec& spec) {
    const OpDomain* dom = find_domain(spec.name);
    if (!dom) return std::nullopt;
    StepContext ctx;
    if (!spec.params.empty() && spec.params[0].kind == ParamKind::Tensor) {
      const Domain self_domain = dom->params[0].domain;
      drafting_op_ = spec.name;
      const Value* forced = forced_self_.empty() ? nullptr : bound_value(forced_self_);  // Note [Stale headers]
      self_class_ = forced ? "stale header" : draw_class(self_domain);
      ctx.self = forced                        ? forced
                 : self_class_ == "recent value" ? &pick_recent()
                 : self_class_ == "any value"    ? &pick()
                                                 : &pick_layout(self_class_);
      ctx.rank = ctx.self->tensor.dim();
      ctx.dim_size = size_at(ctx.self->tensor, 0);
      conversion_keywords(spec.name, ctx);
    }
    // How many positional parameters are written: the required ones, then
    // optional ones while each one's given_percent says so.
    size_t given = 0;
    for (; given < spec.params.size(); ++given) {
      const ParamSpec& p = spec.params[given];
      if (p.default_value && !c_.percent(dom->params[given].given_percent)) break;
    }
    std::vector<std::optional<Arg>> args(given);
    std::vector<std::string_view> classes(given);
    find_domain_param_is_view_ = spec.name == "view" || spec.name == "reshape";
    bool invalid_drawn = false;  // Note [Check order]
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < given; ++i) {
        const bool is_dim = dom->params[i].domain == Domain::Dim;
        if ((pass == 0) != is_dim) continue;
        const bool is_self = dom->params[i].domain == Domain::Self || dom->params[i].domain == Domain::ViewSelf ||
                             dom->params[i].domain == Domain::FormatSelf;
        const Domain pd = dom->params[i].domain;
        classes[i] = is_self                                                         ? self_class_
                     : invalid_drawn && c_.percent(p_.second_invalid_percent) ? draw_not_valid_class(pd)
                                                                                    : draw_class(pd);
        if (!is_self && invalid_class(pd, classes[i])) invalid_drawn = true;
        // Note [Odd size-1 strides]: half the time, the second operand of an
        // odd self is odd too (its size-1 strides decide where self's do not)
        if (!is_self && ctx.self && self_class_ == "odd size-1 strides" &&
            (pd == Domain::Other || pd == Domain::ScalarOrTensor) && c_.percent(50))
          classes[i] = "odd size-1 strides";
        // the operand of a special-value run self mixes NaN payloads half the time
        if (!is_self && ctx.self && self_class_ == "special-value run" && pd == Domain::ScalarOrTensor &&
            c_.percent(50))
          classes[i] = "NaN payload mix";
        // and a scalar operand of a "dtype limits" self is a limit of its dtype half the time
        if (!is_self && ctx.self && self_class_ == "dtype limits" &&
            (pd == Domain::Scalar || pd == Domain::OptScalar || pd == Domain::ScalarOrTensor) && c_.percent(50))
          classes[i] = "self dtype limit";
        // and a view of "padded rows" reinterprets them as a wider dtype half the time: the
        // class is there for view(dtype=)'s divisibility checks (size, storage offset, strides)
        // (and one of "wraps when narrowed" as a narrower dtype: its sizes, strides or offset times
        // the ratio wrap to -2^63)
        if (!is_self && ctx.self && (self_class_ == "padded rows" || self_class_ == "wraps when narrowed") &&
            pd == Domain::ViewShapeOrDType && c_.percent(50)) {
          classes[i] = "reinterpret as dtype";
          ctx.dtype_width = self_class_ == "padded rows" ? 1 : -1;
        }
        if (!is_self) reduced_float_operand_class(spec.name, ctx, pd, classes[i]);
        args[i] = value(dom->params[i].domain, classes[i], ctx);
        if (is_dim && ctx.self && !have_dim_) {
          const auto* n = std::get_if<Number>(&*args[i]);
          ctx.dim_size = size_at(ctx.self->tensor, n->i);
          have_dim_ = true;
        }
      }
    }
    have_dim_ = false;
    Drafted out;
    out.step.op = std::string(spec.name);
    for (size_t i = 0; i < given; ++i) {
      if (!args[i]) {  // a class that omits the parameter (and so the ones after it)
        out.drawn.push_back({dom->params[i].param, classes[i]});
        break;
      }
      out.step.args.push_back(std::move(*args[i]));
      out.drawn.push_back({dom->params[i].param, classes[i]});
    }
    for (DrawnClass& d : ctx.drawn) out.drawn.push_back(d);
    for (KwArg& k : ctx.extra_kwargs) out.step.kwargs.push_back(std::move(k));
    for (const ParamDomain& kd : dom->kwargs) {
      if (kd.domain == Domain::SetByShape) continue;
      // a keyword a class already wrote (the values' "dtype limits": dtype=)
      if (std::any_of(out.step.kwargs.begin(), out.step.kwargs.end(), [&](const KwArg& k) { return k.key == kd.param; }))
        continue;
      std::string_view cls = draw_class(kd.domain);
      ambiguous_channels_format(ctx, kd.domain, cls);
      std::optional<Arg> v = value(kd.domain, cls, ctx);
      out.drawn.push_back({kd.param, cls});
      if (v) out.step.kwargs.push_back({std::string(kd.param), std::move(*v), {}});
    }
    return out;
  }

  Drafted creation() {
    const OpSpec* spec = creation_ops_[c_.below(static_cast<uint32_t>(creation_ops_.size()))];
    if (auto d = draft(*spec)) return std::move(*d);
    return Drafted{};
  }

  std::optional<Drafted> next_step() {
    int weights[5] = {p_.weight_creation, p_.weight_view, p_.weight_copy, p_.weight_inplace,
                      p_.weight_elementwise};
    int total = 0;
    for (int i = 0; i < 5; ++i) total += by_category_[i].empty() ? 0 : weights[i];
    if (total == 0) return std::nullopt;
    int r = static_cast<int>(c_.below(static_cast<uint32_t>(total)));
    int cat = 0;
    for (; cat < 5; ++cat) {
      int w = by_category_[cat].empty() ? 0 : weights[cat];
      if (r < w) break;
      r -= w;
    }
    if (cat == static_cast<int>(OpCategory::Creation)) return creation();
    if (p_.stale_header_percent > 0 && p_.ops.empty() && swarm_keeps(name_key("stale header")) &&
        c_.percent(p_.stale_header_percent)) {
      stale_header_step();  // Note [Stale headers]: emits its own steps
      return std::nullopt;
    }
    const auto& ops = by_category_[cat];
    return draft(*ops[c_.below(static_cast<uint32_t>(ops.size()))]);
  }

  // The "reinterpreted alias" class: `view self dtype=D` (float32 <-> float16
  // half the time), then, when the view's last dim grew (a smaller element),
  // `narrow` back to self's last size: steps of their own, emitted before the
  // step that drew the class (as prepare_layout's); each takes one name.
  Name reinterpreted_alias(StepContext& ctx) {
    using engine::DType;
    if (!prog_) return Name{pick_alias(*ctx.self).name};
    // copies: emit() grows env_, which moves the value ctx.self points at
    const std::string self_name = ctx.self->name;
    const std::vector<int64_t> self_sizes = ctx.self->tensor.sizes;
    const DType from = ctx.self->tensor.dtype;
    DType to;
    if (c_.percent(50) && (from == DType::Float32 || from == DType::Float16)) {
      to = from == DType::Float32 ? DType::Float16 : DType::Float32;
    } else {
      static constexpr DType all[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,  DType::Int32,
                                      DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};
      to = all[c_.below(10)];
    }
    auto last_name = [&] { return "v" + std::to_string(next_name_ - 1); };
    Drafted view;
    view.step.op = "view";
    view.step.args.push_back(Name{self_name});
    view.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(to))}, {}});
    view.drawn.push_back({"self", "reinterpreted alias"});
    emit(*prog_, std::move(view));
    std::string name = last_name();
    if (!self_sizes.empty() && engine::itemsize(to) < engine::itemsize(from)) {
      // from the start of self's bytes, or (3 in 10) from a later element of
      // the view: copy_'s float32 <-> float16 path then reads bytes that an
      // earlier element's write reaches, or none (Note [copy_'s fbgemm path
      // over its own source], engine/inplace.cpp)
      int64_t start = 0;
      if (const Value* w = bound_value(name); w && !w->tensor.sizes.empty() && c_.percent(30)) {
        const int64_t room = engine::wrapping::sub(w->tensor.sizes.back(), self_sizes.back());  // sizes may be negative
        if (room > 0 && room < (int64_t{1} << 40)) start = c_.between(1, room);
      }
      Drafted narrow;
      narrow.step.op = "narrow";
      narrow.step.args = {Name{name}, I(-1), I(start), I(self_sizes.back())};
      narrow.drawn.push_back({"self", "reinterpreted alias"});
      emit(*prog_, std::move(narrow));
      name = last_name();
    }
    for (const Value& v : env_)
      if (v.name == self_name) ctx.self = &v;
    return Name{name};
  }

  // ---- special-value runs (Note [Special-value runs], program/value_draws.h)
  // float16 and bfloat16 most often: their loops' NaN bits depend on the path.
  engine::DType any_float_dtype() {
    using engine::DType;
    const uint32_t r = c_.below(10);
    return r < 3 ? DType::Float16 : r < 6 ? DType::BFloat16 : r < 8 ? DType::Float32 : DType::Float64;
  }
  const Value* bound_value(const std::string& n) const {
    for (const Value& v : env_)
      if (v.name == n) return &v;
    return nullptr;
  }
  // The class "special-value run": a tensor made earlier in the program by
  // make_special_run, or a new one; any value when neither can be had.
  const Value& special_run() {
    if (!special_runs_.empty() && c_.percent(40))
      if (const Value* v = bound_value(special_runs_[c_.below(static_cast<uint32_t>(special_runs_.size()))])) return *v;
    if (std::optional<std::string> n = make_special_run()) {
      special_runs_.push_back(*n);
      return *bound_value(*n);
    }
    return pick();
  }
  // Emits the steps that make a tensor of special-value runs of a floating
  // dtype d, 31..1100 elements: a literal of runs of special values, a literal
  // of runs of d's special bit patterns as the integers of d's width viewed as
  // d, or `full` of one special value or one bit pattern (viewed as d). The
  // storage is then read as those integers too (half the time for the float
  // forms): its NaN bits, and those later steps write there, are compared
  // (Note [NaN bits] in program/diff.cpp). Returns the name of the d value.
  std::optional<std::string> make_special_run() {
    if (!prog_) return std::nullopt;
    const engine::DType d = any_float_dtype(), bits = value_draws::bits_dtype(d);
    const uint32_t form = c_.below(4);
    const bool literal = form < 2, from_bits = form % 2 == 1;
    Drafted make;
    make.step.op = literal ? "tensor" : "full";
    if (literal) {
      const int64_t n = std::min<int64_t>(value_draws::boundary_length(c_), 600);
      List l;
      if (from_bits)
        for (int64_t b : value_draws::runs(c_, n, [&] { return value_draws::special_bits(c_, d); })) l.items.push_back(I(b));
      else
        for (double v : value_draws::runs(c_, n, [&] { return value_draws::special_float(c_, d); }))
          l.items.push_back(Number::floating(v));
      make.step.args.push_back(std::move(l));
      make.drawn.push_back({"values", "special-value run"});
    } else {
      make.step.args.push_back(int_list(shape_value("vector boundaries")));
      make.step.args.push_back(from_bits ? I(value_draws::special_bits(c_, d))
                                         : Number::floating(value_draws::special_float(c_, d)));
      make.drawn.push_back({"size", "special-value run"});
      make.drawn.push_back({"fill_value", "special-value run"});
    }
    make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(from_bits ? bits : d))}, {}});
    make.drawn.push_back({"dtype", "special-value run"});
    auto last_name = [&] { return "v" + std::to_string(next_name_ - 1); };
    const Value* made = emit_bound(std::move(make));
    if (!made) return std::nullopt;
    std::string name = made->name;
    if (from_bits || c_.percent(50)) {
      Drafted view;
      view.step.op = "view";
      view.step.args.push_back(Name{name});
      view.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(from_bits ? d : bits))}, {}});
      view.drawn.push_back({"self", "special-value run"});
      emit(*prog_, std::move(view));
      if (from_bits) name = last_name();
    }
    if (!bound_value(name)) return std::nullopt;
    return name;
  }
  // After a data op: when the tensor it wrote is floating and holds a NaN,
  // `view W dtype=<the integers of its width>` (Domain-free: a follow-up, as
  // write_after_empty_like), unless its storage is read so already, so that
  // the NaN bits each loop path writes are compared, not excused as equal
  // NaNs (Note [NaN bits], Note [Special-value runs]).
  std::optional<Drafted> view_bits_after(const Step& s, const OpSpec& spec, bool ok) {
    if (!ok || spec.category == OpCategory::Creation || spec.category == OpCategory::View) return std::nullopt;
    std::string written;
    if (spec.results == Results::Self) {
      if (const auto* n = s.args.empty() ? nullptr : std::get_if<Name>(&s.args[0])) written = n->id;
    } else if (!s.outputs.empty()) {
      written = s.outputs[0];
    }
    const Value* w = written.empty() ? nullptr : bound_value(written);
    if (!w || !engine::is_floating(w->tensor.dtype) || w->tensor.device() != engine::Device::CPU) return std::nullopt;
    const engine::DType bits = value_draws::bits_dtype(w->tensor.dtype);
    for (const Value& v : env_)
      if (v.tensor.storage == w->tensor.storage && v.tensor.dtype == bits) return std::nullopt;
    if (!holds_nan(w->tensor) || !c_.percent(p_.view_bits_percent)) return std::nullopt;
    Drafted view;
    view.step.op = "view";
    view.step.args.push_back(Name{written});
    view.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(bits))}, {}});
    view.drawn.push_back({"self", "NaN-holding result"});
    return view;
  }
  // Does t (CPU, floating) hold a NaN? Up to 1 << 16 elements are looked at.
  static bool holds_nan(const Tensor& t) {
    const int64_t n = t.numel();
    if (n == 0 || n > (int64_t{1} << 16)) return false;
    bool found = false;
    const std::byte* base = t.storage->data();
    const int64_t item = engine::itemsize(t.dtype);
    std::vector<int64_t> idx(t.sizes.size(), 0);
    for (int64_t k = 0; k < n && !found; ++k) {
      int64_t off = t.storage_offset;
      for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.strides[d];
      found = is_nan_at(base + off * item, t.dtype);
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < t.sizes[d]) break;
        idx[d] = 0;
      }
    }
    return found;
  }
  static bool is_nan_at(const std::byte* p, engine::DType d) {
    switch (d) {
      case engine::DType::Float16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
      }
      case engine::DType::BFloat16: {
        uint16_t b;
        std::memcpy(&b, p, 2);
        return (b & 0x7f80u) == 0x7f80u && (b & 0x7fu) != 0;
      }
      case engine::DType::Float32: {
        uint32_t f;
        std::memcpy(&f, p, 4);
        return (f & 0x7fffffffu) > 0x7f800000u;
      }
      case engine::DType::Float64: {
        uint64_t x;
        std::memcpy(&x, p, 8);
        return (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
      }
      default: return false;
    }
  }

  // A value of layout class `cls` (pick_layout) as a second operand; a step
  // that makes one may be emitted first, which grows env_: ctx.self is looked
  // up again by name.
  Name layout_operand(std::string_view cls, StepContext& ctx) {
    const std::string self_name = ctx.self->name;
    Name n{pick_layout(cls).name};
    for (const Value& v : env_)
      if (v.name == self_name) ctx.self = &v;
    return n;
  }

  // ---- Note [Rule boundaries drawn on purpose] -----------------------------
  // Classes that each make the inputs where one LibTorch rule branches, which
  // the other classes meet only by a chain of chances (each measured by a
  // semantic plant, scripts/plants/, that the search did not find or found
  // late before these):
  // - "conversion edges" (FormatSelf, Other): a floating tensor holding the
  //   values where float -> integer and float -> bool conversions branch
  //   (c10::convert / static_cast_with_inter_type, c10/util/TypeCast.h: uint8
  //   goes through int64 and the narrower integers through int32, so only a
  //   float64 integer past 2^31 whose low byte is not 0 tells the two apart;
  //   static_cast<bool>: -0.0 is false, NaN true; halves truncate toward 0),
  //   float64 half the time; `to` of one converts it to an integer dtype or
  //   bool 4 times in 5 (conversion_keywords); as copy_'s source it has
  //   self's last size (it broadcasts).
  // - "tiled transpose" (FormatSelf): a [n0, n1] (or [2, n0, n1]) layout
  //   whose fastest dim is the contiguous copy's slowest, n0 and n1 in 8..70
  //   (whole and partial 32-element tiles), the source's fast stride 1..3
  //   elements (1: the exact transpose), of a 4- or 8-byte dtype 3 times in 4:
  //   the blocked transposing copy (ATen's copy_same_type_transpose_ and
  //   cpu_transpose need a dense source column and destination row; the
  //   engine's Note [Tiled transposing copy]) against its element loop.
  // - "ambiguous channels layout" (FormatSelf): 4-d and 5-d views with size-1
  //   dims whose strides are a neighbour's (N111, N1H1, 1C1W permuted), C's
  //   stride 0 or a size-0 dim, with that rank's channels-last format= 3
  //   times in 4: where is_channels_last_strides_2d/3d default to contiguous
  //   (suggest_memory_format, so `to`'s alias rule) and the contiguity rules
  //   skip size-1 dims (ambiguous_channels_value).
  // - "0-d of another dtype" (ScalarOrTensor): `tensor v dtype=D` (1 in 5
  //   `tensor [v]`), D another dtype than self's (another floating one for a
  //   floating self 7 times in 10), v a value a narrower dtype cannot hold
  //   (0.1, ties, limits): result_type's ranking of 0-d operands below
  //   dimensioned ones of their category (TypeProperties.cpp), and the
  //   reduced-float binary kernels' opmath scalar (BinaryOpsKernel.cpp,
  //   iter.is_scalar(2): a 0-d float32 operand of a float16 mul is read in
  //   float, uncast). A binary op of a float16/bfloat16 self draws it 1 time
  //   in 5 (reduced_float_operand_class).
  // - "past reduced float exact range" (ArangeEnd): 256 + k (bfloat16) or
  //   2048 + k (float16), k within 1 of a multiple of 8, 16, 32 or 64, with
  //   that dtype= 4 times in 5: arange's vector loop (RangeFactoriesKernel.cpp,
  //   Vectorized<T> lanes from a base rounded to T) differs from rounding each
  //   index only past the exact range (Note [arange's vectorized loop]).
  static double largest_finite(engine::DType d) {
    using engine::DType;
    return d == DType::Float16 ? 65504.0 : d == DType::BFloat16 ? 3.3895313892515355e38
         : d == DType::Float32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
  }
  const Value& conversion_edges_value(const Value* like) {
    using engine::DType;
    if (!prog_) return pick();
    const DType f = c_.percent(50) ? DType::Float64 : one_of({DType::Float32, DType::Float16, DType::BFloat16});
    const int64_t last = like && !like->tensor.sizes.empty() ? like->tensor.sizes.back() : 0;
    const int64_t n = last >= 1 && last <= 64 ? last : c_.between(1, 12);
    const double inf = std::numeric_limits<double>::infinity();
    List l;
    for (int64_t k = 0; k < n; ++k) {
      double v = one_of({-0.0, -0.0, 0.0, 0.5, -0.5, 1.5, -1.5, 127.5, 128.0, 255.5, 256.0, -128.5, -129.0, 32767.5,
                         65535.5, 65536.0, 2147483648.0, -2147483649.0, 3000000001.0, -3000000001.0, 4294967295.0,
                         4294967553.0, 1099511628031.0, 9007199254740991.0, 9223372036854774784.0,
                         -9223372036854775808.0, std::numeric_limits<double>::quiet_NaN(), inf, -inf});
      if (std::isfinite(v) && std::fabs(v) > largest_finite(f)) v = one_of({-0.0, 0.5, 255.5});  // tensor's checked conversion
      // a narrower float's -0.0 converts to bool through float (not double): 1 in 4 of its values
      if (f != DType::Float64 && c_.percent(25)) v = -0.0;
      l.items.push_back(Number::floating(v));
    }
    Drafted make;
    make.step.op = "tensor";
    make.step.args.push_back(std::move(l));
    make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(f))}, {}});
    make.drawn.push_back({"values", "made conversion edges"});
    const Value* v = emit_bound(std::move(make));
    return v ? *v : pick();
  }
  // `to` of a "conversion edges" self: dtype= an integer dtype or bool 4 times in 5 (uint8 alone goes
  // through int64, bool alone compares with 0: one of them 4 times in 10, by the self's dtype).
  void conversion_keywords(std::string_view op, StepContext& ctx) {
    using engine::DType;
    if (op != "to" || self_class_ != "conversion edges" || !c_.percent(80)) return;
    // float64 (only it holds integers past 2^31 whose low byte is not 0): uint8 most often;
    // a narrower float (whose -0.0 and NaN convert to bool through float): bool most often
    const bool wide = ctx.self && ctx.self->tensor.dtype == DType::Float64;
    const DType most = wide ? DType::UInt8 : DType::Bool, rest = wide ? DType::Bool : DType::UInt8;
    const DType d = one_of({most, most, most, most, DType::Int8, DType::Int16, DType::Int32, DType::Int64, rest, rest});
    ctx.extra_kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
    ctx.drawn.push_back({"dtype", "set by the self class"});
  }
  const Value& tiled_transpose_value() {
    using engine::DType;
    if (!prog_) return pick();
    const DType d = c_.percent(75) ? one_of({DType::Float32, DType::Int32, DType::Float64, DType::Int64})
                                   : one_of({DType::UInt8, DType::Int8, DType::Int16, DType::Float16, DType::BFloat16});
    auto side = [&] { return one_of<int64_t>({8, 9, 15, 16, 17, 31, 32, 33, 40, 47, 63, 64, 65, 70}); };
    const int64_t n0 = side(), n1 = side();
    const int64_t st0 = c_.percent(50) ? 1 : c_.between(2, 3);
    const int64_t st1 = n0 * st0 + (c_.percent(50) ? 0 : c_.between(1, 3));
    std::vector<int64_t> sizes{n0, n1}, strides{st0, st1};
    int64_t elems = 1 + (n0 - 1) * st0 + (n1 - 1) * st1;
    if (c_.percent(25)) {  // a leading dim the kernel loops outside the tiles
      sizes.insert(sizes.begin(), 2);
      strides.insert(strides.begin(), elems + c_.between(0, 2));
      elems += strides.front();
    }
    const int64_t offset = c_.between(0, 3);
    Drafted make;
    make.step.op = "arange";
    make.step.args.push_back(I(elems + offset));
    make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
    make.drawn.push_back({"end", "made tiled transpose"});
    const Value* base = emit_bound(std::move(make));
    if (!base) return pick();
    return emit_as_strided(base->name, sizes, strides, offset, "made tiled transpose");
  }
  // "ambiguous channels layout" (FormatSelf): a 4-d (1 in 4 5-d) as_strided
  // view of an arange, N 2..3; 1 in 3 an N111 (all size-1 dims of one
  // stride, at most N's); else every other dim 1 half the time (else 2..3,
  // 1 in 12 a 0), strides contiguous or channels-last for those sizes, each
  // size-1 dim's stride then (half the time) a neighbour's in that order or
  // the neighbour's times its size, C's stride 0 1 in 8: the inputs where
  // is_channels_last_strides_2d/3d (c10/core/MemoryFormat.h) meet their
  // special cases (N111, N11W sliced, N1H1, 1C1W permuted, C's stride 0, a
  // size-0 dim) and compute_channels_last_contiguous / compute_contiguous
  // skip size-1 dims. The format= of the op is that rank's channels-last
  // format 3 times in 4 (ambiguous_channels_format).
  const Value& ambiguous_channels_value() {
    using engine::DType;
    if (!prog_) return pick();
    const size_t rank = c_.percent(75) ? 4 : 5;
    std::vector<int64_t> sizes(rank);
    sizes[0] = c_.between(2, 3);
    // 1 in 3 an N111 (N1111) whose size-1 dims share one stride s <= stride[0]: the
    // ambiguity is_channels_last_strides_2d/3d resolve to contiguous (min == stride[C] at N)
    if (c_.percent(33)) {
      const int64_t st = one_of<int64_t>({1, 1, 2, 3});
      std::vector<int64_t> ones(rank, 1), strides(rank, st);
      ones[0] = sizes[0];
      strides[0] = st * c_.between(1, 3);
      return emit_ambiguous_channels(ones, strides);
    }
    for (size_t d = 1; d < rank; ++d) sizes[d] = c_.percent(50) ? 1 : c_.between(2, 3);
    if (c_.percent(8)) sizes[1 + c_.below(static_cast<uint32_t>(rank - 1))] = 0;
    // inner to outer: contiguous W, H, (D,) C, N; channels-last C, W, H, (D,) N
    std::vector<size_t> order;
    const bool channels_last = c_.percent(50);
    if (channels_last) order.push_back(1);
    for (size_t d = rank; d-- > 1;)
      if (d != 1 || !channels_last) order.push_back(d);
    order.push_back(0);
    std::vector<int64_t> strides(rank);
    int64_t cur = 1;
    for (size_t d : order) {
      strides[d] = cur;
      cur *= std::max<int64_t>(sizes[d], 1);
    }
    for (size_t k = 0; k < rank; ++k) {
      const size_t d = order[k];
      if (sizes[d] != 1 || !c_.percent(50)) continue;
      const size_t nb = order[k == 0 ? 1 : c_.percent(50) || k + 1 == rank ? k - 1 : k + 1];
      strides[d] = c_.percent(50) ? strides[nb] : strides[nb] * std::max<int64_t>(sizes[nb], 1);
    }
    if (c_.percent(12)) strides[1] = 0;
    return emit_ambiguous_channels(sizes, strides);
  }
  // `arange` (of another dtype half the time) and `as_strided sizes strides` of it.
  const Value& emit_ambiguous_channels(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
    using engine::DType;
    int64_t elems = 1;
    for (size_t d = 0; d < sizes.size(); ++d) elems += std::max<int64_t>(sizes[d] - 1, 0) * strides[d];
    Drafted make;
    make.step.op = "arange";
    make.step.args.push_back(I(elems));
    if (c_.percent(50)) {
      const DType d = one_of({DType::Float64, DType::Int32, DType::UInt8, DType::Float16});
      make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
    }
    make.drawn.push_back({"end", "made ambiguous channels layout"});
    const Value* base = emit_bound(std::move(make));
    if (!base) return pick();
    return emit_as_strided(base->name, sizes, strides, 0, "made ambiguous channels layout");
  }
  // The format= of an op whose self is an "ambiguous channels layout": the
  // channels-last format of its rank 3 times in 4.
  void ambiguous_channels_format(const StepContext& ctx, Domain d, std::string_view& cls) {
    if (d != Domain::OptFormat || self_class_ != "ambiguous channels layout" || !c_.percent(75)) return;
    if (ctx.rank == 4) cls = "channels_last";
    else if (ctx.rank == 5) cls = "channels_last_3d";
  }
  Name zero_d_other_dtype(StepContext& ctx) {
    using engine::DType;
    static constexpr DType all[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,  DType::Int32,
                                    DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};
    static constexpr DType floats[] = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};
    const std::string self_name = ctx.self->name;
    const DType s = ctx.self->tensor.dtype;
    const bool reduced = s == DType::Float16 || s == DType::BFloat16;
    DType d = s;
    for (int tries = 0; d == s && tries < 4; ++tries) {
      if (engine::is_floating(s) && c_.percent(70))
        d = reduced && c_.percent(75) ? one_of({DType::Float32, DType::Float64}) : floats[c_.below(4)];
      else
        d = all[c_.below(10)];
    }
    if (d == s) d = s == DType::Float64 ? DType::Float32 : DType::Float64;
    Number v = I(0);
    if (engine::is_floating(d)) {
      double x = c_.percent(30) ? (c_.percent(50) ? value_draws::rounding_tie(c_) : value_draws::finite_limit(c_, d))
                                : one_of({0.1, 1.0 / 3.0, -0.7, 1.00048828125, 1.00390625, 2049.0, 257.0, 65520.0,
                                          1e5, 1e-8, 3e38, -0.0, 0.5, 2.5, 16777217.0});
      if (std::fabs(x) > largest_finite(d)) x = value_draws::finite_limit(c_, d);
      v = Number::floating(x);
    } else if (d == DType::Bool) {
      v = Number::boolean(c_.percent(50));
    } else {
      const auto [lo, hi] = integer_range(d);
      v = I(c_.percent(50) ? one_of<int64_t>({lo, lo + 1, hi - 1, hi}) : one_of<int64_t>({0, 1, 2, 3, 100}));
    }
    Drafted make;
    make.step.op = "tensor";
    if (c_.percent(80)) {
      make.step.args.push_back(v);
    } else {
      List l;
      l.items.push_back(v);
      make.step.args.push_back(std::move(l));
    }
    make.step.kwargs.push_back({"dtype", Ident{std::string(engine::dtype_name(d))}, {}});
    make.drawn.push_back({"values", "made 0-d of another dtype"});
    const Value* made = prog_ ? emit_bound(std::move(make)) : nullptr;
    const std::string name = made ? made->name : pick().name;
    for (const Value& w : env_)
      if (w.name == self_name) ctx.self = &w;
    return Name{name};
  }
  // The class a binary op's other operand of a float16/bfloat16 self is
  // drawn from 1 time in 5: "0-d of another dtype" (the opmath scalar).
  void reduced_float_operand_class(std::string_view op, const StepContext& ctx, Domain pd, std::string_view& cls) {
    if (pd != Domain::ScalarOrTensor || !ctx.self || op == "fill_") return;
    const engine::DType s = ctx.self->tensor.dtype;
    if ((s == engine::DType::Float16 || s == engine::DType::BFloat16) && c_.percent(20)) cls = "0-d of another dtype";
  }
  Number reduced_float_arange_end(StepContext& ctx) {
    const bool bf16 = c_.percent(50);
    const int64_t width = one_of<int64_t>({8, 16, 32, 64});
    const int64_t end = (bf16 ? 256 : 2048) + width * c_.between(1, 32) + c_.between(-1, 1);
    if (c_.percent(80)) {
      ctx.extra_kwargs.push_back({"dtype", Ident{bf16 ? "bfloat16" : "float16"}, {}});
      ctx.drawn.push_back({"dtype", "set by the end"});
    }
    return I(end);
  }

  // empty_like's contents are undefined until written (DESIGN.md): most of
  // the time the next step writes them, so later reads are compared.
  std::optional<Drafted> write_after_empty_like(const std::string& result, const std::string& source) {
    if (!c_.percent(p_.write_empty_like_percent)) return std::nullopt;
    Drafted d;
    d.step.args.push_back(Name{result});
    d.drawn.push_back({"self", "empty_like result"});
    switch (c_.below(5)) {
      case 0:
      case 1:
        d.step.op = "copy_";
        d.step.args.push_back(Name{source});
        d.drawn.push_back({"src", "empty_like source"});
        break;
      case 2:
      case 3: d.step.op = "zero_"; break;
      default: {
        d.step.op = "fill_";
        std::string_view cls = c_.percent(70) ? "small int" : "small float";
        d.step.args.push_back(scalar_value(cls));
        d.drawn.push_back({"value", cls});
      }
    }
    return d;
  }

  // The header and storage extent of a bound value (empty when unbound), for
  // the budget and storage-bounds checks.
  InputHeader header_of(const std::string& n) const {
    for (const Value& v : env_)
      if (v.name == n)
        return InputHeader{v.tensor.sizes,          v.tensor.strides,          engine::itemsize(v.tensor.dtype),
                           v.tensor.dtype,          v.tensor.storage_offset,   v.tensor.storage->nbytes(),
                           engine::is_non_overlapping_and_dense(v.tensor)};
    return InputHeader{};
  }
  StorageExtent extent_of(const std::string& n) const {
    for (const Value& v : env_)
      if (v.name == n)
        return StorageExtent{v.tensor.sizes, v.tensor.strides, v.tensor.storage_offset,
                             engine::itemsize(v.tensor.dtype), v.tensor.storage->nbytes()};
    return StorageExtent{};
  }

  // Runs `s` on the engine with the values bound so far; false when it
  // raised, was refused, or reads a value whose step raised (a step skipped
  // on both sides).
  bool run_on_engine(const Step& s, std::vector<Tensor>& results) {
    auto bound = [&](const std::string& n) {
      return std::any_of(env_.begin(), env_.end(), [&](const Value& v) { return v.name == n; });
    };
    for (const Arg& a : s.args)
      if (const auto* n = std::get_if<Name>(&a); n && !bound(n->id)) return false;
    for (const KwArg& k : s.kwargs)
      if (const auto* n = std::get_if<Name>(&k.value); n && !bound(n->id)) return false;
    try {
      EngineStepContext ctx;
      Lookup<Tensor> lookup = [&](const std::string& n) -> const Tensor& {
        for (const Value& v : env_)
          if (v.name == n) return v.tensor;
        throw std::logic_error("generator: unbound " + n);
      };
      auto it = engine_op_table().find(s.op);
      if (it == engine_op_table().end()) return false;
      results = it->second(ArgReader(s), lookup, ctx);
      return !ctx.error;  // raised, returned rather than thrown (Note [errors returned, not thrown])
    } catch (const engine::TorchError&) {
      return false;
    } catch (const engine::StepRefused&) {
      return false;
    }
  }

  // Runs `s` on the engine to learn its results' headers, names them, and
  // appends it to the program.
  void emit(Program& prog, Drafted d) {
    Step& s = d.step;
    const OpSpec* spec = find_op(s.op);
    if (!spec || check_signature(s)) return;
    auto lookup_header = [&](const std::string& n) { return header_of(n); };
    // Steps that allocate more than the policy allows are left out, except
    // those certainly over every run's budget: kept (not run here) so the
    // budget rule is exercised on both sides.
    bool run_it = true;
    auto est = allocation_estimate(s, lookup_header, /*describe=*/false);  // the bytes only
    if (est && est->bytes > p_.max_bytes) {
      if (est->bytes <= (int64_t{1} << 31) || !c_.percent(50)) return;
      run_it = false;
    }
    if (auto n = inplace_elements(s, lookup_header); n && *n > p_.max_step_elements) return;
    // Note [elements outside their storage]: emitted, not run here.
    if (refuse_out_of_storage(s, [&](const std::string& n) { return extent_of(n); })) run_it = false;
    std::vector<Tensor> results;
    if (run_it && crash_trail::enabled()) {  // Note [The crash trail]
      Program shown = prog;
      shown.steps.push_back(s);
      crash_trail::set(print_program(shown, /*with_comments=*/false));
    }
    const bool ok = run_it && run_on_engine(s, results);
    size_t names = spec->results == Results::Many ? (ok ? results.size() : 2)
                   : spec->results == Results::Self ? (c_.percent(20) ? 1 : 0)
                                                    : 1;
    names = std::min<size_t>(names, 4);
    for (size_t i = 0; i < names; ++i) {
      std::string n = "v" + std::to_string(next_name_++);
      s.outputs.push_back(n);
      if (ok && i < results.size()) env_.push_back({n, results[i]});
    }
    const bool empty_like = ok && s.op == "empty_like";
    const std::string source = empty_like ? std::get<Name>(s.args[0]).id : "";
    const std::string result = empty_like ? s.outputs[0] : "";
    prog.steps.push_back(std::move(s));
    if (log_) log_->steps.push_back(std::move(d.drawn));
    if (empty_like)
      if (auto w = write_after_empty_like(result, source)) emit(prog, std::move(*w));
    if (!empty_like)
      if (auto v = view_bits_after(prog.steps.back(), *spec, ok)) emit(prog, std::move(*v));
  }

 public:
  // ---- redrawing one parameter of a given program (redraw_parameter) -------
  // Runs a step of a given program on the engine and binds its results under
  // the program's own names (a step over the policy's budget, or one that
  // raises, binds nothing: its readers are not redrawn).
  void adopt(const Step& s) {
    const OpSpec* spec = find_op(s.op);
    if (!spec || check_signature(s)) return;
    auto lookup_header = [&](const std::string& n) { return header_of(n); };
    if (auto est = allocation_estimate(s, lookup_header, /*describe=*/false); est && est->bytes > p_.max_bytes) return;
    if (auto n = inplace_elements(s, lookup_header); n && *n > p_.max_step_elements) return;
    if (refuse_out_of_storage(s, [&](const std::string& n) { return extent_of(n); })) return;
    std::vector<Tensor> results;
    if (!run_on_engine(s, results)) return;
    for (size_t i = 0; i < s.outputs.size() && i < results.size(); ++i) env_.push_back({s.outputs[i], results[i]});
  }

  std::optional<Program> redraw(const Program& in, const Redraw& r) {
    if (r.step >= in.steps.size()) return std::nullopt;
    const Step& original = in.steps[r.step];
    const OpSpec* spec = find_op(original.op);
    const OpDomain* dom = find_domain(original.op);
    if (!spec || !dom) return std::nullopt;
    const std::vector<ParamDomain>& pds = r.kwarg ? dom->kwargs : dom->params;
    if (r.param >= pds.size() || pds[r.param].domain == Domain::SetByShape) return std::nullopt;
    const Domain domain = pds[r.param].domain;
    // Names the preparation steps take: past every vN the program binds.
    for (const Step& s : in.steps)
      for (const std::string& o : s.outputs)
        if (o.size() > 1 && o[0] == 'v' && o.find_first_not_of("0123456789", 1) == std::string::npos && o.size() < 10)
          next_name_ = std::max(next_name_, std::stoi(o.substr(1)) + 1);
    for (size_t i = 0; i < r.step; ++i) adopt(in.steps[i]);
    Program prepared;
    prog_ = &prepared;
    Step step = original;
    step.arg_pos.clear();
    // An optional parameter the step leaves out: written with its default, as
    // are the ones before it.
    if (!r.kwarg)
      while (step.args.size() <= r.param) {
        const auto& def = spec->params[step.args.size()].default_value;
        if (!def) return std::nullopt;
        step.args.push_back(*def);
      }
    auto bound_value = [&](const Arg& a) -> const Value* {
      const auto* n = std::get_if<Name>(&a);
      if (!n) return nullptr;
      for (const Value& v : env_)
        if (v.name == n->id) return &v;
      return nullptr;
    };
    StepContext ctx;
    const bool has_self = !spec->params.empty() && spec->params[0].kind == ParamKind::Tensor;
    const bool redraw_self = has_self && !r.kwarg && r.param == 0;
    if (has_self) {
      if (step.args.empty()) return std::nullopt;
      if (redraw_self) {
        if (env_.empty()) return std::nullopt;
        ctx.self = r.klass == "recent value" ? &pick_recent() : r.klass == "any value" ? &pick() : &pick_layout(r.klass);
      } else {
        ctx.self = bound_value(step.args[0]);
        if (!ctx.self) return std::nullopt;  // its step raised or was not run: nothing to draw against
      }
      ctx.rank = ctx.self->tensor.dim();
      ctx.dim_size = size_at(ctx.self->tensor, 0);
    } else if (domain == Domain::Other || domain == Domain::ScalarOrTensor || domain == Domain::OptOut) {
      return std::nullopt;
    }
    if ((domain == Domain::Other || domain == Domain::ScalarOrTensor || domain == Domain::OptOut) && !ctx.self)
      return std::nullopt;
    // What the other parameters of the step say, as draft() knows it when it
    // draws this one: the first dim's size, narrow's start, as_strided's
    // shape, movedim's source length.
    bool first_dim_seen = false;
    for (size_t i = 0; i < dom->params.size() && i < step.args.size(); ++i) {
      const Domain d = dom->params[i].domain;
      const auto* n = std::get_if<Number>(&step.args[i]);
      const auto* l = std::get_if<List>(&step.args[i]);
      if (d == Domain::Dim && !first_dim_seen) {
        first_dim_seen = true;
        if (n && ctx.self) ctx.dim_size = size_at(ctx.self->tensor, n->i);
      }
      if (d == Domain::Start && n) ctx.start = n->i;
      if (d == Domain::Shape && l)
        for (const Number& x : l->items) ctx.shape.push_back(x.i);
      if (d == Domain::Strides && l)
        for (const Number& x : l->items) ctx.strides.push_back(x.i);
      if (d == Domain::MoveDims && i + 1 < dom->params.size() && !r.kwarg && r.param == i + 1)
        ctx.move_len = n ? 0 : l ? static_cast<int64_t>(l->items.size()) : -1;
    }
    find_domain_param_is_view_ = original.op == "view" || original.op == "reshape";
    std::optional<Arg> v = redraw_self ? std::optional<Arg>(Name{ctx.self->name}) : value(domain, r.klass, ctx);
    if (r.kwarg) {
      const std::string key(pds[r.param].param);
      auto it = std::find_if(step.kwargs.begin(), step.kwargs.end(), [&](const KwArg& k) { return k.key == key; });
      if (it != step.kwargs.end()) step.kwargs.erase(it);
      if (v) step.kwargs.push_back({key, std::move(*v), {}});
    } else {
      if (v) step.args[r.param] = std::move(*v);
      else step.args.resize(r.param);  // a class that omits the parameter (and so the ones after it)
      // view: a shape, or no shape and dtype= (Domain::SetByShape follows the shape's class)
      if (domain == Domain::ViewShapeOrDType)
        step.kwargs.erase(std::remove_if(step.kwargs.begin(), step.kwargs.end(),
                                         [](const KwArg& k) { return k.key == "dtype"; }),
                          step.kwargs.end());
      for (KwArg& k : ctx.extra_kwargs) step.kwargs.push_back(std::move(k));
      // A preparation step may have grown env_: the self name is what the step reads.
      if (has_self && ctx.self) step.args[0] = Name{ctx.self->name};
    }
    if (check_signature(step)) return std::nullopt;
    Program out = in;
    out.steps.clear();
    out.steps.insert(out.steps.end(), in.steps.begin(), in.steps.begin() + static_cast<long>(r.step));
    for (Step& s : prepared.steps) out.steps.push_back(std::move(s));
    out.steps.push_back(std::move(step));
    out.steps.insert(out.steps.end(), in.steps.begin() + static_cast<long>(r.step) + 1, in.steps.end());
    return out;
  }

 private:
  Choices& c_;
  Program* prog_ = nullptr;  // the program being generated (layout preparation steps go there too)
  const GeneratorPolicy& p_;
  GenerationLog* log_;
  std::vector<const OpSpec*> by_category_[5];
  std::vector<const OpSpec*> creation_ops_;
  uint64_t swarm_ = 0;  // Note [Swarm programs]: 0 when the program draws from everything
  int max_steps_ = p_.max_steps;
  std::vector<Value> env_;
  int next_name_ = 0;
  bool find_domain_param_is_view_ = false;
  bool have_dim_ = false;
  std::string_view self_class_;
  std::string_view drafting_op_;  // the op whose self is being drawn (draft)
  std::string forced_self_;       // draft's self when set (Note [Stale headers])
  std::vector<std::string> special_runs_;  // values made by make_special_run
};

}  // namespace

Program generate_program(Choices& choices, const GeneratorPolicy& policy, GenerationLog* log) {
  return Generator(choices, policy, log).run();
}

std::optional<Program> redraw_parameter(const Program& program, const Redraw& r, Choices& choices,
                                        const GeneratorPolicy& policy) {
  return Generator(choices, policy, nullptr).redraw(program, r);
}

}  // namespace sc
