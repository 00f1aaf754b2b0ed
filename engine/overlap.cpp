#include "engine/overlap.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>
#include <span>

#include "engine/error.h"
#include "engine/layout.h"

namespace sc::engine {

// at::has_internal_overlap (MemoryOverlap.cpp, 1.13):
//   non-overlapping-and-dense -> No; a stride-0 dim of size > 1 -> Yes; else TooHard.
MemOverlap has_internal_overlap(const Tensor& t) { return has_internal_overlap(t, is_non_overlapping_and_dense(t)); }

MemOverlap has_internal_overlap(const Tensor& t, bool non_overlapping_and_dense) {
  if (non_overlapping_and_dense) return MemOverlap::No;
  for (size_t i = 0; i < t.sizes.size(); ++i)
    if (t.strides[i] == 0 && t.sizes[i] > 1) return MemOverlap::Yes;
  return MemOverlap::TooHard;
}

// at::get_overlap_status (MemoryOverlap.cpp, 1.13):
//   same TensorImpl -> Full; an empty operand -> No; either not
//   non-overlapping-and-dense -> TooHard; same storage and byte ranges
//   [data, data + numel*itemsize) equal -> Full if strides are equal else
//   Partial (measured: x.add_(x.t()) raises); ranges intersect -> Partial; else No.
MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b) {
  if (a.id == b.id) return MemOverlapStatus::Full;
  // numel and the dense flag are TensorImpl's cached ones (Note [stale layout flags]).
  const int64_t a_numel = cached_numel(a), b_numel = cached_numel(b);
  if (a_numel == 0 || b_numel == 0) return MemOverlapStatus::No;
  if (!is_non_overlapping_and_dense(a) || !is_non_overlapping_and_dense(b)) return MemOverlapStatus::TooHard;
  if (a.storage == b.storage) {
    const int64_t a_begin = a.storage_offset * itemsize(a.dtype);
    const int64_t a_end = a_begin + a_numel * itemsize(a.dtype);
    const int64_t b_begin = b.storage_offset * itemsize(b.dtype);
    const int64_t b_end = b_begin + b_numel * itemsize(b.dtype);
    if (a_begin == b_begin && a_end == b_end)
      return a.strides == b.strides ? MemOverlapStatus::Full : MemOverlapStatus::Partial;
    if (a_begin < b_end && b_begin < a_end) return MemOverlapStatus::Partial;
  }
  return MemOverlapStatus::No;
}

MaybeFailure internal_overlap_failure(const Tensor& t) {
  SC_CHECK_OR_RETURN(has_internal_overlap(t) != MemOverlap::Yes,
                     "unsupported operation: more than one element of the written-to tensor refers to a single "
                     "memory location. Please clone() the tensor before performing the operation.");
  return std::nullopt;
}

MaybeFailure partial_overlap_failure(const Tensor& written, const Tensor& input) {
  SC_CHECK_OR_RETURN(get_overlap_status(written, input) != MemOverlapStatus::Partial,
                     "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                     "single memory location. Please clone() the tensor before performing the operation.");
  return std::nullopt;
}

void assert_no_internal_overlap(const Tensor& t) { throw_if(internal_overlap_failure(t)); }

void assert_no_partial_overlap(const Tensor& written, const Tensor& input) {
  throw_if(partial_overlap_failure(written, input));
}

// Note [Exact overlap as a bounded diophantine search]
// As NumPy's mem_overlap.c (solve_may_share_memory /
// solve_may_have_internal_overlap), both questions become: does
//     sum_i a_i * x_i == rhs,   0 <= x_i <= ub_i   (a_i > 0)
// have a solution (internal overlap: a nonzero z with sum a_i z_i == 0 and
// |z_i| <= ub_i)? Terms are searched depth first, largest coefficient first;
// a branch is cut when the remaining terms cannot reach the remainder
// (sum a_j ub_j bounds) or when the remainder is not a multiple of the gcd of
// the remaining coefficients; the last term is solved directly. Every visited
// node costs one unit of work; past max_work the answer is TooHard.
namespace {

int64_t floor_div(__int128 n, int64_t d) {  // d > 0
  __int128 q = n / d;
  if (n % d != 0 && n < 0) --q;
  return q > INT64_MAX ? INT64_MAX : q < INT64_MIN ? INT64_MIN : static_cast<int64_t>(q);
}
int64_t ceil_div(__int128 n, int64_t d) {  // d > 0
  __int128 q = n / d;
  if (n % d != 0 && n > 0) ++q;
  return q > INT64_MAX ? INT64_MAX : q < INT64_MIN ? INT64_MIN : static_cast<int64_t>(q);
}

struct Term {
  int64_t a;
  int64_t ub;
};

struct Search {
  std::vector<Term> terms;        // descending a
  std::vector<int64_t> tail_max;  // sum_{j >= i} a_j * ub_j (saturating)
  std::vector<int64_t> tail_gcd;  // gcd_{j >= i} a_j
  int64_t work = 0;
  int64_t max_work = 0;
  bool too_hard = false;

  void prepare() {
    std::sort(terms.begin(), terms.end(), [](const Term& x, const Term& y) { return x.a > y.a; });
    const size_t n = terms.size();
    tail_max.assign(n + 1, 0);
    tail_gcd.assign(n + 1, 0);
    for (size_t i = n; i-- > 0;) {
      __int128 m = static_cast<__int128>(terms[i].a) * terms[i].ub + tail_max[i + 1];
      tail_max[i] = m > INT64_MAX ? INT64_MAX : static_cast<int64_t>(m);
      tail_gcd[i] = std::gcd(terms[i].a, tail_gcd[i + 1]);
    }
  }

  bool tick() {
    if (++work > max_work) too_hard = true;
    return !too_hard;
  }

  // Bounded, positive form: sum_{j >= i} a_j x_j == rhs with 0 <= x_j <= ub_j.
  bool solve_positive(size_t i, int64_t rhs) {
    if (!tick()) return false;
    if (rhs < 0 || rhs > tail_max[i]) return false;
    if (i == terms.size()) return rhs == 0;
    if (rhs % tail_gcd[i] != 0) return false;
    const Term& t = terms[i];
    if (i + 1 == terms.size()) return rhs % t.a == 0 && rhs / t.a <= t.ub;
    // x from the largest feasible value down: the remainder must fit in the tail.
    // x in [ceil((rhs - tail)/a), min(ub, rhs/a)]: the rest must fit in the tail.
    const int64_t hi = std::min(t.ub, rhs / t.a);
    const int64_t lo = std::max<int64_t>(0, ceil_div(static_cast<__int128>(rhs) - tail_max[i + 1], t.a));
    for (int64_t x = hi; x >= lo; --x) {
      const int64_t rest = rhs - x * t.a;
      if (solve_positive(i + 1, rest)) return true;
      if (too_hard) return false;
    }
    return false;
  }

  // Symmetric form: sum_{j >= i} a_j z_j == -partial with |z_j| <= ub_j, and
  // not all z zero (when `all_zero`, the first nonzero z is taken positive).
  bool solve_internal(size_t i, int64_t partial, bool all_zero) {
    if (!tick()) return false;
    const int64_t need = -partial;
    if (need > tail_max[i] || -need > tail_max[i]) return false;
    if (i == terms.size()) return need == 0 && !all_zero;
    if (need % tail_gcd[i] != 0) return false;
    const Term& t = terms[i];
    if (i + 1 == terms.size()) {
      if (need % t.a != 0) return false;
      const int64_t z = need / t.a;
      return std::llabs(z) <= t.ub && !(all_zero && z == 0);
    }
    // z in [ceil((-tail - partial)/a), floor((tail - partial)/a)] keeps |partial + z a| <= tail.
    const __int128 tail = tail_max[i + 1];
    const int64_t lo = std::max<int64_t>(all_zero ? 0 : -t.ub, ceil_div(-tail - partial, t.a));
    const int64_t hi = std::min<int64_t>(t.ub, floor_div(tail - partial, t.a));
    for (int64_t z = lo; z <= hi; ++z) {
      const __int128 p = static_cast<__int128>(partial) + static_cast<__int128>(z) * t.a;
      if (solve_internal(i + 1, static_cast<int64_t>(p), all_zero && z == 0)) return true;
      if (too_hard) return false;
    }
    return false;
  }
};

// Quick "no": sorted ascending, each stride exceeds the span of the smaller ones.
bool strides_dominate(std::span<Term> asc) {
  std::sort(asc.begin(), asc.end(), [](const Term& x, const Term& y) { return x.a < y.a; });
  __int128 span = 0;
  for (const Term& t : asc) {
    if (t.a <= span) return false;
    span += static_cast<__int128>(t.a) * t.ub;
  }
  return true;
}

}  // namespace

MemOverlap exact_internal_overlap(const Shape& sizes, const Shape& strides, int64_t max_work) {
  for (int64_t n : sizes)
    if (n == 0) return MemOverlap::No;
  // The terms in dimension order, inline up to kInlineDims (the quick answer
  // runs for every observed result: no allocation there); the search, which
  // runs for few, takes them in that order as before.
  std::array<Term, DimVector::kInlineDims> inline_terms, inline_asc;
  std::vector<Term> heap_terms, heap_asc;
  std::span<Term> terms(inline_terms), asc(inline_asc);
  if (sizes.size() > inline_terms.size()) {
    heap_terms.resize(sizes.size());
    heap_asc.resize(sizes.size());
    terms = heap_terms;
    asc = heap_asc;
  }
  size_t n = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 1) continue;
    if (strides[i] == 0) return MemOverlap::Yes;
    terms[n++] = {std::llabs(strides[i]), sizes[i] - 1};
  }
  terms = terms.first(n);
  std::copy(terms.begin(), terms.end(), asc.begin());
  if (strides_dominate(asc.first(n))) return MemOverlap::No;
  Search s;
  s.max_work = max_work;
  s.terms.assign(terms.begin(), terms.end());
  s.prepare();
  if (s.solve_internal(0, 0, true)) return MemOverlap::Yes;
  return s.too_hard ? MemOverlap::TooHard : MemOverlap::No;
}

// Two headers share a byte iff, with byte offsets A, B, byte strides sa, sb
// and itemsizes ia, ib, some index pair and bytes u < ia, v < ib give
//   A + sum sa_i x_i + u == B + sum sb_j y_j + v.
// Substituting y_j = ub_j - y'_j and v = ib - 1 - v' makes every coefficient
// positive: sum sa_i x_i + sum sb_j y'_j + u + v' == B - A + sum sb_j ub_j + ib - 1.
MemOverlap exact_overlap(const Tensor& a, const Tensor& b, int64_t max_work) {
  if (a.storage != b.storage || a.numel() == 0 || b.numel() == 0) return MemOverlap::No;
  const int64_t ia = itemsize(a.dtype), ib = itemsize(b.dtype);
  // Byte extents first (NumPy's get_array_memory_extents).
  auto extent = [](const Tensor& t, int64_t item) {
    int64_t lo = t.storage_offset * item, hi = lo;
    for (size_t i = 0; i < t.sizes.size(); ++i) {
      const int64_t span = (t.sizes[i] - 1) * t.strides[i] * item;
      if (span < 0) lo += span; else hi += span;
    }
    return std::pair<int64_t, int64_t>{lo, hi + item};
  };
  auto [a_lo, a_hi] = extent(a, ia);
  auto [b_lo, b_hi] = extent(b, ib);
  if (!(a_lo < b_hi && b_lo < a_hi)) return MemOverlap::No;
  Search s;
  s.max_work = max_work;
  __int128 rhs = static_cast<__int128>(b.storage_offset) * ib - static_cast<__int128>(a.storage_offset) * ia + (ib - 1);
  for (size_t i = 0; i < a.sizes.size(); ++i) {
    if (a.sizes[i] <= 1 || a.strides[i] == 0) continue;
    int64_t st = a.strides[i] * ia;
    if (st < 0) {  // negative strides: x = ub - x'
      rhs -= static_cast<__int128>(st) * (a.sizes[i] - 1);
      st = -st;
    }
    s.terms.push_back({st, a.sizes[i] - 1});
  }
  for (size_t i = 0; i < b.sizes.size(); ++i) {
    if (b.sizes[i] <= 1 || b.strides[i] == 0) continue;
    int64_t st = b.strides[i] * ib;
    if (st > 0) rhs += static_cast<__int128>(st) * (b.sizes[i] - 1);
    s.terms.push_back({std::llabs(st), b.sizes[i] - 1});
  }
  if (ia > 1) s.terms.push_back({1, ia - 1});
  if (ib > 1) s.terms.push_back({1, ib - 1});
  if (rhs < 0 || rhs > INT64_MAX) return MemOverlap::No;
  s.prepare();
  if (s.solve_positive(0, static_cast<int64_t>(rhs))) return MemOverlap::Yes;
  return s.too_hard ? MemOverlap::TooHard : MemOverlap::No;
}

}  // namespace sc::engine
