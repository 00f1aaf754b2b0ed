// The exact overlap solver (engine/overlap.h) against brute force
// (engine/overlap_brute_force.h) on small strided layouts, where enumeration
// is cheap: both questions answer exactly (never TooHard) and agree with
// enumeration, whatever the signs of the strides, the element sizes and the
// storage offsets. The differential property only reaches the solver through
// the programs' writes; here every corner of its search is drawn directly
// (found by scripts/mutation.sh: mutants of the two-tensor search survived
// the differential property).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/creation.h"
#include "engine/overlap.h"
#include "engine/overlap_brute_force.h"

namespace sc::properties {
namespace {

using engine::DType;
using engine::MemOverlap;
using engine::Shape;
using engine::Tensor;

struct Layout {
  Shape sizes, strides;
  int64_t offset = 0;
  DType dtype = DType::Int8;
};

// Ranks 0-4, sizes 0-4 (mostly 1-4), strides -9..9 (mostly -3..3), offsets
// 0-40, element sizes 1, 2, 4 and 8: every answer is a few hundred elements
// away. Strides and offset are multiplied by `scale`: a large one keeps the
// structure and makes every coefficient and bound of the search large (its
// prunes and range arithmetic, not only small numbers); brute force sorts the
// offsets, so its cost does not grow with the strides.
rc::Gen<Layout> gen_layout(int64_t scale = 1) {
  return rc::gen::exec([scale] {
    Layout l;
    const int rank = *rc::gen::inRange(0, 5);
    for (int d = 0; d < rank; ++d) {
      l.sizes.push_back(
          *rc::gen::weightedOneOf<int64_t>({{1, rc::gen::just<int64_t>(0)}, {8, rc::gen::inRange<int64_t>(1, 5)}}));
      l.strides.push_back(*rc::gen::weightedOneOf<int64_t>(
          {{3, rc::gen::inRange<int64_t>(-3, 4)}, {1, rc::gen::inRange<int64_t>(-9, 10)}}));
    }
    l.offset = *rc::gen::inRange<int64_t>(0, 41);
    for (int64_t& st : l.strides) st *= scale;
    l.offset *= scale;
    l.dtype = *rc::gen::element(DType::Bool, DType::Int16, DType::Float32, DType::Float64);
    return l;
  });
}

Tensor on_storage(const Tensor& storage, const Layout& l) {
  return engine::make_view(storage, l.sizes, l.strides, l.offset, l.dtype);
}

std::string show(const Layout& l) {
  std::string s = std::string(engine::dtype_name(l.dtype)) + " sizes [";
  for (size_t d = 0; d < l.sizes.size(); ++d) s += (d ? "," : "") + std::to_string(l.sizes[d]);
  s += "] strides [";
  for (size_t d = 0; d < l.strides.size(); ++d) s += (d ? "," : "") + std::to_string(l.strides[d]);
  return s + "] offset " + std::to_string(l.offset);
}

const Tensor& storage() {
  static const Tensor s = engine::empty({1}, DType::Int8);  // headers only: no byte is read
  return s;
}

// 1 most of the time, else 10..5000.
int64_t gen_scale() {
  return *rc::gen::weightedOneOf<int64_t>({{3, rc::gen::just<int64_t>(1)}, {1, rc::gen::inRange<int64_t>(10, 5001)}});
}

// A work budget of 1..64 steps: the search stops part-way through (the prunes,
// the loops over a term's values, the recursion's last term) and must then say
// TooHard, never a definite answer it did not reach (scripts/mutation.sh,
// round 5: `if (too_hard) return true` in a loop survived; the default budget
// is never exhausted on these layouts).
int64_t gen_small_work() { return *rc::gen::inRange<int64_t>(1, 65); }

bool agrees_or_too_hard(MemOverlap answer, bool truth) {
  return answer == MemOverlap::TooHard || (answer == MemOverlap::Yes) == truth;
}

// Each case checks this many layouts: one answer costs microseconds, so the
// fixed budget of cases (ctest, scripts/mutation.sh) reaches the rare corners.
constexpr int kLayoutsPerCase = 16;

RC_GTEST_PROP(OverlapSolver, InternalOverlapIsExactOnSmallLayouts, ()) {
  for (int k = 0; k < kLayoutsPerCase; ++k) {
    const Layout l = *gen_layout(gen_scale());
    const std::optional<bool> truth = engine::brute_force_internal_overlap(l.sizes, l.strides);
    RC_ASSERT(truth.has_value());
    const MemOverlap exact = engine::exact_internal_overlap(l.sizes, l.strides);
    RC_ASSERT(exact != MemOverlap::TooHard);
    if ((exact == MemOverlap::Yes) != *truth)
      RC_FAIL(show(l) + ": exact_internal_overlap says " + (exact == MemOverlap::Yes ? "Yes" : "No"));
    const int64_t work = gen_small_work();
    if (!agrees_or_too_hard(engine::exact_internal_overlap(l.sizes, l.strides, work), *truth))
      RC_FAIL(show(l) + ": exact_internal_overlap with a budget of " + std::to_string(work) +
              " steps gives a wrong answer instead of TooHard");
  }
}

RC_GTEST_PROP(OverlapSolver, TwoHeadersShareAByteExactlyWhenBruteForceSaysSo, ()) {
  for (int k = 0; k < kLayoutsPerCase; ++k) {
    const int64_t scale = gen_scale();  // one scale for both: they still meet
    const Layout la = *gen_layout(scale);
    // Same element size a third of the time (bool pairs reach the solver's last
    // term with a stride > 1).
    Layout lb = *gen_layout(scale);
    if (*rc::gen::inRange(0, 3) == 0) lb.dtype = la.dtype;
    const Tensor a = on_storage(storage(), la);
    const Tensor b = on_storage(storage(), lb);
    const std::optional<bool> truth = engine::brute_force_overlap(a, b);
    RC_ASSERT(truth.has_value());
    for (const auto& [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
      const MemOverlap exact = engine::exact_overlap(*x, *y);
      RC_ASSERT(exact != MemOverlap::TooHard);
      if ((exact == MemOverlap::Yes) != *truth)
        RC_FAIL(show(x == &a ? la : lb) + " and " + show(x == &a ? lb : la) + ": exact_overlap says " +
                (exact == MemOverlap::Yes ? "Yes" : "No"));
      const int64_t work = gen_small_work();
      if (!agrees_or_too_hard(engine::exact_overlap(*x, *y, work), *truth))
        RC_FAIL(show(x == &a ? la : lb) + " and " + show(x == &a ? lb : la) + ": exact_overlap with a budget of " +
                std::to_string(work) + " steps gives a wrong answer instead of TooHard");
    }
  }
}

}  // namespace
}  // namespace sc::properties
