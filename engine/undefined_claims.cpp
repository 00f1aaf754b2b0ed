#include "engine/undefined_claims.h"

#include <algorithm>

#include "engine/error.h"
#include "engine/nan_choice.h"
#include "engine/undefined.h"

namespace sc::engine {

namespace {
thread_local ClaimLog* active_log = nullptr;
thread_local int write_depth = 0;

// Snapshots s's undefined flags over t's byte extent into c (window_begin,
// window_mask) and sets *end to the extent's end; false when t is too big to
// check or its extent leaves s.
bool snapshot_extent(const Tensor& t, UndefinedClaim& c, int64_t* end = nullptr, bool with_nan_choice = false) {
  const int64_t item = itemsize(t.dtype);
  // In 128 bits: huge sizes and strides must not overflow the extent. Each
  // dim adds |span| to hi - lo, so a dim spanning over kWindowLimit bytes
  // already makes t too big to check; leaving then keeps every product and
  // sum small ((size - 1) * stride alone reaches 2^126, and times an itemsize
  // of 4 it overflowed: generated seed 764511184165 under UBSan, an
  // as_strided [0,5,INT64_MAX,0] view).
  constexpr int64_t kWindowLimit = int64_t{1} << 20;
  __int128 lo = static_cast<__int128>(t.storage_offset) * item, hi = lo + item;
  bool empty = false;
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    if (t.sizes[d] == 0) empty = true;
    const __int128 elements = (static_cast<__int128>(t.sizes[d]) - 1) * t.strides[d];
    if (elements > kWindowLimit || elements < -kWindowLimit) return false;
    const __int128 span = elements * item;
    if (span < 0) lo += span; else hi += span;
  }
  const Storage& s = *t.storage;
  if (t.numel() > kBruteForceElements || empty || lo < 0 || hi > s.nbytes() || hi - lo > kWindowLimit)
    return false;
  const int64_t lo64 = static_cast<int64_t>(lo), hi64 = static_cast<int64_t>(hi);
  c.window_begin = lo64;
  if (end) *end = hi64;
  const auto& mask = s.undefined_mask();
  if (!mask.empty()) c.window_mask.assign(mask.begin() + lo64, mask.begin() + hi64);
  if (with_nan_choice) {  // Note [NaN choices read as integers] (engine/undefined.cpp)
    // Per element of t's dtype (lo64 is on t's element grid): all its bytes
    // count as undefined where it reads the chosen bits as other data.
    const auto& chosen = s.nan_choice_mask();
    c.window_mask.resize(static_cast<size_t>(hi64 - lo64), 0);
    for (int64_t e = lo64; e + item <= hi64; e += item)
      if (reads_chosen_bits_as_other_data(chosen.data() + e, item, t.dtype))
        for (int64_t b = e; b < e + item; ++b) c.window_mask[static_cast<size_t>(b - lo64)] = 1;
  }
  return true;
}
}  // namespace

WriteScope::WriteScope() {
  if (!active_log) return;
  active_ = true;
  if (write_depth++ == 0) {
    UndefinedClaim c;
    c.kind = UndefinedClaim::Kind::WriteBegin;
    record_claim(std::move(c));
  }
}

WriteScope::~WriteScope() {
  if (active_) --write_depth;
}

void WriteScope::done(const Tensor& written) {
  if (!active_ || write_depth != 1 || !active_log) return;
  UndefinedClaim c;
  c.kind = UndefinedClaim::Kind::WriteDone;
  c.written = geometry_of(written);
  c.checkable = snapshot_extent(written, c);
  record_claim(std::move(c));
}

ClaimLog::ClaimLog() {
  SC_ASSERT(active_log == nullptr, "one ClaimLog per thread at a time");
  active_log = this;
}

ClaimLog::~ClaimLog() {
  active_log = nullptr;
  write_depth = 0;
}

bool claims_recorded() { return active_log != nullptr; }

void record_claim(UndefinedClaim c) {
  if (active_log) active_log->claims_.push_back(std::move(c));
}

ClaimGeometry geometry_of(const Tensor& t) {
  return {t.sizes, t.strides, t.storage_offset, itemsize(t.dtype), t.storage.get()};
}

void record_reads_undefined(const Tensor& written, const Tensor& read, const std::vector<int64_t>& marked) {
  if (!active_log) return;
  UndefinedClaim c;
  c.kind = UndefinedClaim::Kind::ReadsUndefined;
  c.written = geometry_of(written);
  c.input = geometry_of(read);
  c.marked = marked;
  c.input_is_bool = read.dtype == DType::Bool;
  // The input's byte extent: what a check reads of its storage (a bool input's bytes too).
  const Storage& s = *read.storage;
  int64_t end = 0;
  c.checkable = written.numel() <= kBruteForceElements && (!c.input_is_bool || s.device() == Device::CPU) &&
                snapshot_extent(read, c, &end, reads_nan_choice_bits(read));
  if (c.checkable && c.input_is_bool) {
    const auto* p = reinterpret_cast<const uint8_t*>(s.data());
    c.window_bytes.assign(p + c.window_begin, p + end);
  }
  record_claim(std::move(c));
}

}  // namespace sc::engine
