// Layout rules against LibTorch on drawn layouts, without a program around
// them: is_contiguous in each memory format, is_non_overlapping_and_dense,
// suggest_memory_format, has_internal_overlap, and the strides LibTorch picks
// for empty_like / clone / contiguous and an elementwise result. The
// differential property reaches these through view chains, where the corner
// layouts (size-1 dims with any stride, stride-0 channels, ties between
// strides, 4-d and 5-d channels-last orders) come up rarely; here most draws
// are such corners. Mutation testing (scripts/mutation.sh) measured the gap.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>
#include <sstream>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/layout.h"
#include "engine/memory_format.h"
#include "engine/overlap.h"
#include "engine/scalar.h"
#include "engine/version_profile.h"

#ifdef STRIDECHECK_HAVE_TORCH
#include <ATen/ATen.h>
#include <ATen/MemoryOverlap.h>
#include <torch/version.h>

#include <cmath>
#include <cstring>

#include "oracle/torch_ops.h"

namespace sc::properties {
namespace {

using engine::MemoryFormat;
using engine::Shape;

struct Layout {
  Shape sizes, strides;
};

std::string text(const Shape& v) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  return os.str() + "]";
}

std::string text(const Layout& l) { return "sizes " + text(l.sizes) + " strides " + text(l.strides); }

// Ranks 4 and 5 (the channels-last formats) most often; sizes 1 often.
Shape gen_sizes() {
  const int rank = *rc::gen::weightedElement<int>({{1, 0}, {2, 1}, {2, 2}, {3, 3}, {8, 4}, {6, 5}, {2, 6}});
  Shape s(static_cast<size_t>(rank));
  for (auto& x : s) x = *rc::gen::weightedElement<int64_t>({{2, 0}, {9, 1}, {5, 2}, {4, 3}, {2, 4}});
  return s;
}

// Dense strides in a random dim order (contiguous, channels-last and every
// other permutation), then a few dims disturbed: a size-1 dim's stride is any
// value, a stride set to 0, to a neighbour's (ties), doubled (gaps), or drawn.
Layout gen_layout(const Shape& sizes) {
  const size_t n = sizes.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  const int kind = *rc::gen::inRange(0, 4);
  if (kind == 1 && n >= 2) std::reverse(order.begin() + 1, order.end());  // channels-last-like: C innermost
  if (kind == 2)
    for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[*rc::gen::inRange<size_t>(0, i)]);
  Shape st(n, 0);
  int64_t acc = 1;
  for (size_t k = n; k-- > 0;) {
    st[order[k]] = acc;
    acc *= std::max<int64_t>(sizes[order[k]], 1);
  }
  if (kind == 3)
    for (auto& x : st) x = *rc::gen::inRange<int64_t>(0, 9);
  const int disturb = n == 0 ? 0 : *rc::gen::inRange(0, 3);
  for (int k = 0; k < disturb; ++k) {
    const size_t d = *rc::gen::inRange<size_t>(0, n);
    switch (*rc::gen::inRange(0, 5)) {
      case 0: st[d] = 0; break;
      case 1: st[d] = st[*rc::gen::inRange<size_t>(0, n)]; break;
      case 2: st[d] *= 2; break;
      case 3: st[d] = *rc::gen::inRange<int64_t>(0, 13); break;
      default:
        if (sizes[d] == 1) st[d] = *rc::gen::inRange<int64_t>(0, 100);
        break;
    }
  }
  return {sizes, st};
}

// A second operand for an elementwise op: the same sizes, or some dims (or
// leading dims) broadcast from size 1, or 0-d (a 0-d operand first makes
// TensorIterator's shape start empty: all_ops_same_shape_ turns false only
// through its has_scalars/has_tensors test).
Layout gen_operand(const Shape& sizes) {
  Shape s = sizes;
  if (*rc::gen::inRange(0, 6) == 0) return {{}, {}};
  if (*rc::gen::inRange(0, 2) == 1) {
    for (auto& x : s)
      if (*rc::gen::inRange(0, 3) == 0) x = 1;
    const size_t drop = *rc::gen::inRange<size_t>(0, s.size() + 1);
    s.erase(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(std::min(drop, s.size()) / 2));
  }
  return gen_layout(s);
}

at::Tensor torch_tensor(const Layout& l) { return at::empty_strided(l.sizes, l.strides, at::kFloat); }
engine::Tensor engine_tensor(const Layout& l) { return engine::empty_strided(l.sizes, l.strides, engine::DType::Float32); }

// RC_FAIL with the message when !ok.
void check(bool ok, const std::string& what) {
  if (!ok) RC_FAIL(what);
}

Shape strides_of(const at::Tensor& t) { return Shape(t.strides().begin(), t.strides().end()); }

MemoryFormat from_torch(at::MemoryFormat f) {
  switch (f) {
    case at::MemoryFormat::ChannelsLast: return MemoryFormat::ChannelsLast;
    case at::MemoryFormat::ChannelsLast3d: return MemoryFormat::ChannelsLast3d;
    case at::MemoryFormat::Preserve: return MemoryFormat::Preserve;
    default: return MemoryFormat::Contiguous;
  }
}

engine::MemOverlap from_torch(at::MemOverlap o) {
  switch (o) {
    case at::MemOverlap::No: return engine::MemOverlap::No;
    case at::MemOverlap::Yes: return engine::MemOverlap::Yes;
    default: return engine::MemOverlap::TooHard;
  }
}

void use_oracle_profile() {
  static const bool once = [] {
    if (auto choice = engine::choose_profile(TORCH_VERSION)) engine::set_profile(*choice);
    return true;
  }();
  (void)once;
}

// Sometimes a layout's sizes and strides trade places: a predicate called
// with its arguments swapped (is_channels_last_contiguous(strides, sizes))
// answers the question about this layout, so swapped calls are caught
// (scripts/mutation.sh, round 6: such a swap in is_non_overlapping_and_dense
// survived, since no drawn layout made the swapped question true).
Layout gen_predicate_layout() {
  Layout l = gen_layout(gen_sizes());
  if (*rc::gen::inRange(0, 4) == 0) std::swap(l.sizes, l.strides);
  return l;
}

void predicates_and_chosen_strides() {
  const Layout l = gen_predicate_layout();
  RC_TAG(l.sizes.size());
  const at::Tensor t = torch_tensor(l);
  const engine::Tensor e = engine_tensor(l);
  const std::string at_layout = " at " + text(l);
  check(engine::is_contiguous(l.sizes, l.strides) == t.is_contiguous(), "is_contiguous" + at_layout);
  check(engine::is_channels_last_contiguous(l.sizes, l.strides) ==
                    t.is_contiguous(at::MemoryFormat::ChannelsLast),
                "is_contiguous(channels_last)" + at_layout);
  check(engine::is_channels_last_3d_contiguous(l.sizes, l.strides) ==
                    t.is_contiguous(at::MemoryFormat::ChannelsLast3d),
                "is_contiguous(channels_last_3d)" + at_layout);
  check(engine::is_non_overlapping_and_dense(l.sizes, l.strides) == t.is_non_overlapping_and_dense(),
                "is_non_overlapping_and_dense" + at_layout);
  check(engine::suggest_memory_format(l.sizes, l.strides) == from_torch(t.suggest_memory_format()),
                "suggest_memory_format" + at_layout);
  check(engine::has_internal_overlap(e) == from_torch(at::has_internal_overlap(t)),
                "has_internal_overlap" + at_layout);
  check(engine::empty_like(e).strides == strides_of(at::empty_like(t)), "empty_like strides" + at_layout);
  check(engine::clone(e).strides == strides_of(t.clone()), "clone strides" + at_layout);
  const MemoryFormat formats[] = {MemoryFormat::Contiguous, MemoryFormat::ChannelsLast, MemoryFormat::ChannelsLast3d};
  const at::MemoryFormat torch_formats[] = {at::MemoryFormat::Contiguous, at::MemoryFormat::ChannelsLast,
                                            at::MemoryFormat::ChannelsLast3d};
  const size_t f = l.sizes.size() == 4 ? 1 : l.sizes.size() == 5 ? 2 : 0;
  check(engine::contiguous(e, formats[f]).strides == strides_of(t.contiguous(torch_formats[f])),
                "contiguous strides" + at_layout);
  check(engine::empty_like(e, std::nullopt, formats[f]).strides ==
                    strides_of(at::empty_like(t, at::TensorOptions{}, torch_formats[f])),
                "empty_like(memory_format) strides" + at_layout);
}

// Values at the conversions' edges (every dtype's limits, float16's exact
// integers, NaN, infinities, -0.0): what the value laws below store.
double edge_value(engine::DType d) {
  static const double kValues[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.5, 100.0, -128.0, 255.0, 65504.0, 65520.0,
                                   1e-8, 6e-8, 3.0e38, INFINITY, -INFINITY, NAN, 16777217.0, 1e10, 2049.0, 257.0};
  double v = *rc::gen::inRange(0, 3) == 0 ? kValues[*rc::gen::inRange<size_t>(0, std::size(kValues))]
                                          : static_cast<double>(*rc::gen::inRange(-300, 300)) / 4;
  if (!engine::is_floating(d)) v = std::isfinite(v) ? std::trunc(std::fmod(v, 100.0)) : 1.0;
  // integers past float16's (2049), bfloat16's (257) and float32's (16777217) exact range
  if (!engine::is_floating(d) && engine::itemsize(d) >= 2 && *rc::gen::inRange(0, 4) == 0)
    v = engine::itemsize(d) == 2 ? *rc::gen::element(2049.0, 257.0) : *rc::gen::element(2049.0, 257.0, 16777217.0);
  if (d == engine::DType::Bool) v = v != 0;
  if (d == engine::DType::UInt8) v = std::fabs(v);
  return v;
}

// An engine tensor of layout `l` and dtype `d` whose whole storage holds edge
// values, and LibTorch's tensor over a copy of the same bytes.
std::pair<engine::Tensor, at::Tensor> filled_twins(const Layout& l, engine::DType d) {
  engine::Tensor e = engine::empty_strided(l.sizes, l.strides, d);
  const int64_t item = engine::itemsize(d);
  const int64_t n = e.storage->nbytes() / item;
  for (int64_t k = 0; k < n; ++k) engine::store_double(d, e.storage->data() + k * item, edge_value(d));
  e.storage->mark_defined(0, e.storage->nbytes());
  at::Tensor bytes = at::empty({e.storage->nbytes()}, at::kByte);
  if (e.storage->nbytes() > 0)  // an empty tensor's data_ptr is null
    std::memcpy(bytes.data_ptr(), e.storage->data(), static_cast<size_t>(e.storage->nbytes()));
  return {e, bytes.view(oracle::to_scalar_type(d)).as_strided(l.sizes, l.strides, 0)};
}

// Every element of `er` (engine) and `tr` (LibTorch), in row-major order:
// RC_FAIL at the first that differs (any two NaNs are equal).
void check_same_values(const engine::Tensor& er, const at::Tensor& tr, const std::string& what) {
  const engine::Tensor ec = engine::contiguous(er);
  const at::Tensor tc = tr.contiguous();
  const engine::DType rd = er.dtype;
  const int64_t ri = engine::itemsize(rd);
  const auto* tp = static_cast<const std::byte*>(tc.data_ptr());
  for (int64_t k = 0; k < ec.numel(); ++k) {
    const std::byte* a = ec.storage->data() + (ec.storage_offset + k) * ri;
    const std::byte* b = tp + k * ri;
    if (std::memcmp(a, b, static_cast<size_t>(ri)) == 0) continue;
    const double x = engine::load_double(rd, a), y = engine::load_double(rd, b);
    if (std::isnan(x) && std::isnan(y)) continue;
    RC_FAIL(what + ": element " + std::to_string(k) + " is " + std::to_string(x) + " on the engine, " +
            std::to_string(y) + " in LibTorch");
  }
}

// Mostly float32; a quarter of the draws any dtype (type promotion, the
// reduced floats' opmath, integer wrap-around).
engine::DType gen_dtype() {
  if (*rc::gen::inRange(0, 4) != 0) return engine::DType::Float32;
  return static_cast<engine::DType>(*rc::gen::inRange(0, engine::kNumDTypes));
}

// TensorIterator on two drawn operands (the operands' stride order, broadcast
// dims, ties, 0-d and empty operands): add's and mul's result dtype, strides
// and every value. A 1-element or stride-0 second operand of a float16 /
// bfloat16 op is read in float (is_scalar(2)); the values say whether it was.
//
// An eighth of the cases are that corner on purpose: a float16 / bfloat16
// tensor and a one-element integer tensor (sizes all 1, strides not 0) holding
// an integer the reduced float cannot hold (257, 2049, 4097, 16777217): the
// common dtype is the reduced float, and LibTorch reads the integer in float.
void elementwise_results() {
  const Shape sizes = gen_sizes();
  const bool opmath_corner = *rc::gen::inRange(0, 8) == 0;
  const Layout a = gen_layout(sizes);
  Layout b = gen_operand(sizes);
  if (opmath_corner) {
    Shape ones(*rc::gen::inRange<size_t>(1, sizes.size() + 1), 1);
    Shape st(ones.size());
    for (auto& x : st) x = *rc::gen::inRange<int64_t>(1, 5);
    b = {ones, st};
  }
  const bool swap = !opmath_corner && *rc::gen::arbitrary<bool>();
  const Layout& x = swap ? b : a;
  const Layout& y = swap ? a : b;
  engine::DType dx = gen_dtype(), dy = *rc::gen::inRange(0, 2) == 0 ? dx : gen_dtype();
  if (opmath_corner) {
    dx = *rc::gen::element(engine::DType::Float16, engine::DType::BFloat16);
    dy = *rc::gen::element(engine::DType::Int16, engine::DType::Int32, engine::DType::Int64);
  }
  auto [ex, tx] = filled_twins(x, dx);
  auto [ey, ty] = filled_twins(y, dy);
  if (opmath_corner) {
    const double v = *rc::gen::element(257.0, 2049.0, 4097.0, 16777217.0, -2049.0);
    const double stored = dy == engine::DType::Int16 && std::fabs(v) > 32767 ? 2049.0 : v;
    engine::store_double(dy, ey.storage->data() + ey.storage_offset * engine::itemsize(dy), stored);
    ty.fill_(stored);
  }
  const bool mul = *rc::gen::inRange(0, 3) == 0;
  const std::string what = std::string(mul ? "mul" : "add") + " of " + text(x) + " " +
                           std::string(engine::dtype_name(dx)) + " and " + text(y) + " " +
                           std::string(engine::dtype_name(dy));
  at::Tensor r;
  try {
    r = mul ? at::mul(tx, ty) : at::add(tx, ty);
  } catch (const c10::Error&) {  // bool - bool and such: the differential property compares the errors
    return;
  }
  const engine::Tensor er = mul ? engine::mul(ex, engine::Operand::of(ey)) : engine::add(ex, engine::Operand::of(ey));
  check(oracle::to_scalar_type(er.dtype) == r.scalar_type(), what + ": result dtype");
  check(er.strides == strides_of(r), what + ": result strides: engine " + text(er.strides) + ", LibTorch " +
                                         text(strides_of(r)));
  check_same_values(er, r, what);
}

// Converting copies (to, contiguous, clone) of drawn layouts with values at
// the conversions' edges, against LibTorch: the copy kernels' fast paths
// (contiguous runs, tiled 2-d transposes from 8x8 elements on, vectorised
// float16/bfloat16 conversion in blocks of 8 with NaN lanes redone) and their
// generic loops must give LibTorch's values. Any two NaNs count as equal here.
void converting_copies_keep_every_value() {
  Shape sizes;
  if (*rc::gen::inRange(0, 2) == 0) {
    sizes = {*rc::gen::inRange<int64_t>(1, 40), *rc::gen::inRange<int64_t>(1, 40)};
    if (*rc::gen::inRange(0, 3) == 0) sizes.insert(sizes.begin(), *rc::gen::inRange<int64_t>(1, 4));
  } else {
    sizes = gen_sizes();
  }
  const Layout l = gen_layout(sizes);
  const auto src = static_cast<engine::DType>(*rc::gen::inRange(0, engine::kNumDTypes));
  const auto dst = static_cast<engine::DType>(*rc::gen::inRange(0, engine::kNumDTypes));
  auto [e, t] = filled_twins(l, src);
  const int how = *rc::gen::inRange(0, 3);
  engine::Tensor er;
  at::Tensor tr;
  if (how == 0) {
    er = engine::to(e, dst, std::nullopt);
    tr = t.to(oracle::to_scalar_type(dst));
  } else if (how == 1) {
    er = engine::contiguous(engine::to(e, dst, std::nullopt));
    tr = t.to(oracle::to_scalar_type(dst)).contiguous();
  } else {
    er = engine::clone(e);
    tr = t.clone();
  }
  const std::string what = std::string(how == 2 ? "clone" : "to") + " " + std::string(engine::dtype_name(src)) + " -> " +
                           std::string(engine::dtype_name(how == 2 ? src : dst)) + " of " + text(l);
  check(er.strides == strides_of(tr), what + ": strides");
  check_same_values(er, tr, what);
}

// One property (one process in ctest: each costs LibTorch's start-up), three
// laws per case.
RC_GTEST_PROP(LayoutMatchesLibTorch, OnDrawnLayouts, ()) {
  use_oracle_profile();
  predicates_and_chosen_strides();
  elementwise_results();
  converting_copies_keep_every_value();
}

}  // namespace
}  // namespace sc::properties
#endif
