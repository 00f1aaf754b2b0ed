#include "program/chosen_nans.h"

#include <cmath>
#include <cstring>

#include "engine/dtype.h"
#include "engine/scalar.h"

namespace sc {

int64_t first_flagged_number(const uint8_t* bytes, int64_t nbytes, const std::vector<uint8_t>& flags,
                             const std::vector<uint8_t>& undefined) {
  const size_t n = std::min(flags.size(), static_cast<size_t>(nbytes < 0 ? 0 : nbytes));
  for (size_t k = 0; k < n; ++k) {
    // Most flags are 0 (a few chosen NaNs in a storage): skip them a word at a time.
    for (uint64_t w; k + 8 <= n && (std::memcpy(&w, flags.data() + k, 8), w == 0);) k += 8;
    if (k >= n) break;
    if (flags[k] == 0 || flags[k] > engine::kNumDTypes) continue;
    const auto d = static_cast<engine::DType>(flags[k] - 1);
    const size_t isz = static_cast<size_t>(engine::itemsize(d));
    if (!engine::is_floating(d) || k % isz != 0 || k + isz > n) continue;
    bool whole = true, marked = false;
    for (size_t b = k; b < k + isz; ++b) {
      whole &= flags[b] == flags[k];
      marked |= b < undefined.size() && undefined[b] != 0;
    }
    if (!whole || marked) continue;
    if (!std::isnan(engine::load_double(d, reinterpret_cast<const std::byte*>(bytes + k)))) return static_cast<int64_t>(k);
    k += isz - 1;
  }
  return -1;
}

}  // namespace sc
