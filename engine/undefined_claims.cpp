#include "engine/undefined_claims.h"

#include <algorithm>

#include "engine/error.h"

namespace sc::engine {

namespace {
thread_local ClaimLog* active_log = nullptr;
}  // namespace

ClaimLog::ClaimLog() {
  SC_ASSERT(active_log == nullptr, "one ClaimLog per thread at a time");
  active_log = this;
}

ClaimLog::~ClaimLog() { active_log = nullptr; }

bool claims_recorded() { return active_log != nullptr; }

void record_claim(UndefinedClaim c) {
  if (active_log) active_log->claims_.push_back(std::move(c));
}

ClaimGeometry geometry_of(const Tensor& t) { return {t.sizes, t.strides, t.storage_offset, itemsize(t.dtype)}; }

void record_reads_undefined(const Tensor& written, const Tensor& read, const std::vector<int64_t>& marked) {
  if (!active_log) return;
  UndefinedClaim c;
  c.kind = UndefinedClaim::Kind::ReadsUndefined;
  c.written = geometry_of(written);
  c.input = geometry_of(read);
  c.marked = marked;
  c.input_is_bool = read.dtype == DType::Bool;
  // The input's byte extent: what a check reads of its storage.
  const int64_t item = itemsize(read.dtype);
  // In 128 bits: huge sizes and strides must not overflow the extent.
  __int128 lo = static_cast<__int128>(read.storage_offset) * item, hi = lo + item;
  bool empty = false;
  for (size_t d = 0; d < read.sizes.size(); ++d) {
    if (read.sizes[d] == 0) empty = true;
    const __int128 span = (static_cast<__int128>(read.sizes[d]) - 1) * read.strides[d] * item;
    if (span < 0) lo += span; else hi += span;
  }
  const Storage& s = *read.storage;
  c.checkable = written.numel() <= kBruteForceElements && read.numel() <= kBruteForceElements && !empty &&
                lo >= 0 && hi <= s.nbytes() && hi - lo <= (int64_t{1} << 20) &&
                (!c.input_is_bool || s.device() == Device::CPU);
  if (c.checkable) {
    const int64_t lo64 = static_cast<int64_t>(lo), hi64 = static_cast<int64_t>(hi);
    c.window_begin = lo64;
    const auto& mask = s.undefined_mask();
    if (!mask.empty()) c.window_mask.assign(mask.begin() + lo64, mask.begin() + hi64);
    if (c.input_is_bool) {
      const auto* p = reinterpret_cast<const uint8_t*>(s.data());
      c.window_bytes.assign(p + lo64, p + hi64);
    }
  }
  record_claim(std::move(c));
}

}  // namespace sc::engine
