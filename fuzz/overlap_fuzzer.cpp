// libFuzzer target: the overlap answers of engine/overlap.h against brute
// force (engine/overlap_brute_force.h). Bytes decode into one or two strided
// headers (sizes, strides, storage offset, element size; a second header on
// the same storage, another storage, or the very same tensor). Checked, where
// the element count allows enumeration:
//   exact_internal_overlap, exact_overlap: Yes/No equal to brute force
//   has_internal_overlap (LibTorch's tri-state): No -> none, Yes -> some
//   get_overlap_status: Full -> same bytes, Partial -> shared bytes, No -> none
// and, for any size, that the cheap answers never contradict the exact ones.
// A wrong answer prints the layouts and aborts.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/creation.h"
#include "engine/dtype.h"
#include "engine/overlap.h"
#include "engine/overlap_brute_force.h"

namespace {

using namespace sc::engine;

// Sizes and strides mostly small (where overlaps happen), sometimes at
// boundaries and huge (where arithmetic overflows).
int64_t draw_size(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return in.ConsumeIntegralInRange<int64_t>(2, int64_t{1} << 17);
    case 3: return in.ConsumeIntegralInRange<int64_t>(0, INT64_MAX);
    default: return in.ConsumeIntegralInRange<int64_t>(1, 6);
  }
}

int64_t draw_stride(FuzzedDataProvider& in, bool signed_strides) {
  int64_t s;
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: s = 0; break;
    case 1: s = in.ConsumeIntegralInRange<int64_t>(0, int64_t{1} << 20); break;
    case 2: s = in.ConsumeIntegralInRange<int64_t>(0, INT64_MAX); break;
    default: s = in.ConsumeIntegralInRange<int64_t>(0, 12); break;
  }
  return signed_strides && in.ConsumeBool() ? -s : s;
}

struct Layout {
  Shape sizes, strides;
  int64_t offset = 0;
  DType dtype = DType::Int8;
};

Layout draw_layout(FuzzedDataProvider& in, bool signed_strides) {
  static constexpr DType kTypes[] = {DType::Int8, DType::Int16, DType::Float32, DType::Float64};
  Layout l;
  l.dtype = kTypes[in.ConsumeIntegralInRange<int>(0, 3)];
  const int rank = in.ConsumeIntegralInRange<int>(0, 6);
  for (int d = 0; d < rank; ++d) {
    l.sizes.push_back(draw_size(in));
    l.strides.push_back(draw_stride(in, signed_strides));
  }
  l.offset = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(0, 64)
                              : in.ConsumeIntegralInRange<int64_t>(0, INT64_MAX);
  return l;
}

// What LibTorch can hold: the product of the sizes never overflows (its
// safe_compute_numel raises "numel: integer multiplication overflow" even when
// a later size is 0), and every byte address (offset and span) fits in int64.
bool representable(const Layout& l) {
  __int128 numel = 1, lo = static_cast<__int128>(l.offset), hi = lo;
  for (size_t d = 0; d < l.sizes.size(); ++d) {
    numel *= l.sizes[d];
    if (numel > INT64_MAX) return false;
    const __int128 span = static_cast<__int128>(l.sizes[d] - 1) * l.strides[d];
    (span < 0 ? lo : hi) += span;
    if (hi > INT64_MAX || lo < -static_cast<__int128>(INT64_MAX)) return false;
  }
  const int64_t item = itemsize(l.dtype);
  return (hi + 1) * item <= INT64_MAX && lo * item >= -static_cast<__int128>(INT64_MAX);
}

std::string show(const Tensor& t) {
  std::string s = std::string(dtype_name(t.dtype)) + " sizes [";
  for (size_t d = 0; d < t.sizes.size(); ++d) s += (d ? "," : "") + std::to_string(t.sizes[d]);
  s += "] strides [";
  for (size_t d = 0; d < t.strides.size(); ++d) s += (d ? "," : "") + std::to_string(t.strides[d]);
  return s + "] offset " + std::to_string(t.storage_offset);
}

[[noreturn]] void fail(const char* what, const Tensor& a, const Tensor* b) {
  std::fprintf(stderr, "\n=== overlap answer contradicts brute force: %s ===\n  a: %s\n", what, show(a).c_str());
  if (b) std::fprintf(stderr, "  b: %s%s\n", show(*b).c_str(), a.storage == b->storage ? " (same storage)" : "");
  std::abort();
}

bool all_non_negative(const Shape& strides) {
  for (int64_t s : strides)
    if (s < 0) return false;
  return true;
}

void check_internal(const Tensor& a) {
  const MemOverlap exact = exact_internal_overlap(a.sizes, a.strides);
  const std::optional<bool> truth = brute_force_internal_overlap(a.sizes, a.strides);
  if (truth && exact != MemOverlap::TooHard && (exact == MemOverlap::Yes) != *truth)
    fail("exact_internal_overlap", a, nullptr);
  if (!all_non_negative(a.strides)) return;  // LibTorch's answers are for LibTorch's layouts
  const MemOverlap cheap = has_internal_overlap(a);
  if (truth && cheap != MemOverlap::TooHard && (cheap == MemOverlap::Yes) != *truth)
    fail("has_internal_overlap", a, nullptr);
  if (cheap != MemOverlap::TooHard && exact != MemOverlap::TooHard && cheap != exact)
    fail("has_internal_overlap vs exact_internal_overlap", a, nullptr);
}

void check_pair(const Tensor& a, const Tensor& b) {
  const MemOverlap exact = exact_overlap(a, b);
  const MemOverlap swapped = exact_overlap(b, a);
  if (exact != MemOverlap::TooHard && swapped != MemOverlap::TooHard && exact != swapped)
    fail("exact_overlap(a, b) != exact_overlap(b, a)", a, &b);
  const std::optional<bool> shared = brute_force_overlap(a, b);
  if (shared && exact != MemOverlap::TooHard && (exact == MemOverlap::Yes) != *shared)
    fail("exact_overlap", a, &b);
  if (!all_non_negative(a.strides) || !all_non_negative(b.strides)) return;
  const MemOverlapStatus status = get_overlap_status(a, b);
  if (status == MemOverlapStatus::Full) {
    const std::optional<bool> same = brute_force_same_bytes(a, b);
    if (same && !*same) fail("get_overlap_status Full, but the bytes differ", a, &b);
  }
  const bool nonempty = a.numel() != 0 && b.numel() != 0;
  if (status == MemOverlapStatus::Partial || (status == MemOverlapStatus::Full && nonempty)) {
    if (shared && !*shared) fail("get_overlap_status Full/Partial, but no byte is shared", a, &b);
    if (exact == MemOverlap::No) fail("get_overlap_status Full/Partial vs exact_overlap No", a, &b);
  }
  if (status == MemOverlapStatus::No) {
    if (shared && *shared) fail("get_overlap_status No, but a byte is shared", a, &b);
    if (exact == MemOverlap::Yes) fail("get_overlap_status No vs exact_overlap Yes", a, &b);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Headers only: no element is read, so one-byte storages serve any layout.
  static const Tensor storage_a = empty({1}, DType::Int8);
  static const Tensor storage_b = empty({1}, DType::Int8);
  FuzzedDataProvider in(data, size);
  const bool signed_strides = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  const Layout la = draw_layout(in, signed_strides);
  if (!representable(la)) return 0;
  const Tensor a = make_view(storage_a, la.sizes, la.strides, la.offset, la.dtype);
  check_internal(a);
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return 0;                       // one tensor
    case 1: check_pair(a, a); return 0;     // the same tensor object
    default: break;
  }
  const bool other_storage = in.ConsumeIntegralInRange<int>(0, 7) == 0;
  const Layout lb = draw_layout(in, signed_strides);
  if (!representable(lb)) return 0;
  const Tensor b = make_view(other_storage ? storage_b : storage_a, lb.sizes, lb.strides, lb.offset, lb.dtype);
  check_internal(b);
  check_pair(a, b);
  return 0;
}
