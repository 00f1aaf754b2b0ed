#include "engine/overlap.h"

#include <algorithm>
#include <unordered_set>

#include "engine/layout.h"

namespace sc::engine {

// at::has_internal_overlap (MemoryOverlap.cpp):
//   non-overlapping-and-dense -> No; a stride-0 dim of size > 1 -> Yes; else TooHard.
MemOverlap has_internal_overlap(const Tensor& t) {
  if (is_non_overlapping_and_dense(t)) return MemOverlap::No;
  for (size_t i = 0; i < t.sizes.size(); ++i)
    if (t.strides[i] == 0 && t.sizes[i] > 1) return MemOverlap::Yes;
  return MemOverlap::TooHard;
}

// at::get_overlap_status (MemoryOverlap.cpp).
MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b) {
  if (a.id == b.id) return MemOverlapStatus::Full;
  if (a.numel() == 0 || b.numel() == 0) return MemOverlapStatus::No;
  if (!is_non_overlapping_and_dense(a) || !is_non_overlapping_and_dense(b)) return MemOverlapStatus::TooHard;
  if (a.storage == b.storage) {
    const int64_t a_begin = a.storage_offset * itemsize(a.dtype);
    const int64_t a_end = a_begin + a.numel() * itemsize(a.dtype);
    const int64_t b_begin = b.storage_offset * itemsize(b.dtype);
    const int64_t b_end = b_begin + b.numel() * itemsize(b.dtype);
    if (a_begin == b_begin && a_end == b_end)
      return a.strides == b.strides ? MemOverlapStatus::Full : MemOverlapStatus::Partial;
    if (a_begin < b_end && b_begin < a_end) return MemOverlapStatus::Partial;
  }
  return MemOverlapStatus::No;
}

// Exact answer by enumeration of element offsets, bounded by max_work.
// (A smarter bounded solver replaces this; the contract stays.)
MemOverlap exact_internal_overlap(const Shape& sizes, const Shape& strides, int64_t max_work) {
  int64_t numel = 1;
  for (int64_t s : sizes) {
    if (s == 0) return MemOverlap::No;
    numel *= s;
    if (numel > max_work) return MemOverlap::TooHard;
  }
  std::unordered_set<int64_t> seen;
  std::vector<int64_t> idx(sizes.size(), 0);
  int64_t off = 0;
  for (int64_t k = 0; k < numel; ++k) {
    if (!seen.insert(off).second) return MemOverlap::Yes;
    for (size_t d = sizes.size(); d-- > 0;) {
      if (++idx[d] < sizes[d]) { off += strides[d]; break; }
      off -= strides[d] * (sizes[d] - 1);
      idx[d] = 0;
    }
  }
  return MemOverlap::No;
}

MemOverlap exact_overlap(const Tensor& a, const Tensor& b, int64_t max_work) {
  if (a.storage != b.storage || a.numel() == 0 || b.numel() == 0) return MemOverlap::No;
  // byte ranges of each element
  auto offsets = [&](const Tensor& t, std::vector<int64_t>& out) {
    int64_t n = t.numel();
    if (n > max_work) return false;
    std::vector<int64_t> idx(t.sizes.size(), 0);
    int64_t off = t.storage_offset;
    for (int64_t k = 0; k < n; ++k) {
      out.push_back(off * itemsize(t.dtype));
      for (size_t d = t.sizes.size(); d-- > 0;) {
        if (++idx[d] < t.sizes[d]) { off += t.strides[d]; break; }
        off -= t.strides[d] * (t.sizes[d] - 1);
        idx[d] = 0;
      }
    }
    return true;
  };
  std::vector<int64_t> oa, ob;
  if (!offsets(a, oa) || !offsets(b, ob)) return MemOverlap::TooHard;
  std::vector<uint8_t> touched;
  int64_t lo = std::min(*std::min_element(oa.begin(), oa.end()), *std::min_element(ob.begin(), ob.end()));
  int64_t hi = std::max(*std::max_element(oa.begin(), oa.end()) + itemsize(a.dtype),
                        *std::max_element(ob.begin(), ob.end()) + itemsize(b.dtype));
  touched.assign(static_cast<size_t>(hi - lo), 0);
  for (int64_t o : oa) std::fill_n(touched.begin() + (o - lo), itemsize(a.dtype), uint8_t{1});
  for (int64_t o : ob)
    for (int64_t i = 0; i < itemsize(b.dtype); ++i)
      if (touched[o - lo + i]) return MemOverlap::Yes;
  return MemOverlap::No;
}

}  // namespace sc::engine
