#include "engine/overlap_brute_force.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "engine/dtype.h"

namespace sc::engine {
namespace {

using Offset = __int128;

// numel, or nullopt past `max_elements` (a size 0 anywhere gives 0).
std::optional<int64_t> bounded_numel(const Shape& sizes, int64_t max_elements) {
  for (int64_t s : sizes)
    if (s <= 0) return 0;
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s > max_elements / n) return std::nullopt;
    n *= s;
  }
  return n <= max_elements ? std::optional<int64_t>(n) : std::nullopt;
}

// Every element's offset (in units of `scale`, plus `base`), in index order.
std::vector<Offset> element_offsets(const Shape& sizes, const Shape& strides, int64_t n, Offset base, int64_t scale) {
  std::vector<Offset> out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k;
    Offset off = base;
    for (size_t d = sizes.size(); d-- > 0;) {
      off += static_cast<Offset>(rem % sizes[d]) * strides[d] * scale;
      rem /= sizes[d];
    }
    out.push_back(off);
  }
  return out;
}

// The bytes a tensor covers, as sorted, disjoint, non-adjacent [begin, end) intervals.
std::optional<std::vector<std::pair<Offset, Offset>>> byte_intervals(const Tensor& t, int64_t max_elements) {
  auto n = bounded_numel(t.sizes, max_elements);
  if (!n) return std::nullopt;
  const int64_t item = itemsize(t.dtype);
  std::vector<Offset> starts =
      element_offsets(t.sizes, t.strides, *n, static_cast<Offset>(t.storage_offset) * item, item);
  std::sort(starts.begin(), starts.end());
  std::vector<std::pair<Offset, Offset>> out;
  for (Offset s : starts) {
    if (!out.empty() && s <= out.back().second)
      out.back().second = std::max(out.back().second, s + item);
    else
      out.emplace_back(s, s + item);
  }
  return out;
}

}  // namespace

std::optional<bool> brute_force_internal_overlap(const Shape& sizes, const Shape& strides, int64_t max_elements) {
  auto n = bounded_numel(sizes, max_elements);
  if (!n) return std::nullopt;
  std::vector<Offset> offsets = element_offsets(sizes, strides, *n, 0, 1);
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end();
}

std::optional<bool> brute_force_overlap(const Tensor& a, const Tensor& b, int64_t max_elements) {
  auto ia = byte_intervals(a, max_elements);
  auto ib = byte_intervals(b, max_elements);
  if (!ia || !ib) return std::nullopt;
  if (a.storage != b.storage) return false;
  // Two sorted interval lists intersect iff some pair does: merge-walk them.
  size_t i = 0, j = 0;
  while (i < ia->size() && j < ib->size()) {
    const auto& x = (*ia)[i];
    const auto& y = (*ib)[j];
    if (x.first < y.second && y.first < x.second) return true;
    if (x.second <= y.second) ++i; else ++j;
  }
  return false;
}

std::optional<bool> brute_force_same_bytes(const Tensor& a, const Tensor& b, int64_t max_elements) {
  auto ia = byte_intervals(a, max_elements);
  auto ib = byte_intervals(b, max_elements);
  if (!ia || !ib) return std::nullopt;
  if (ia->empty() && ib->empty()) return true;
  return a.storage == b.storage && *ia == *ib;
}

}  // namespace sc::engine
