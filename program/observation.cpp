#include "program/observation.h"

#include <cstring>

namespace sc {

std::string_view overlap_name(Overlap o) {
  switch (o) {
    case Overlap::No: return "no";
    case Overlap::Yes: return "yes";
    case Overlap::TooHard: return "too_hard";
  }
  return "?";
}

std::string_view outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Ok: return "ok";
    case Outcome::Error: return "error";
    case Outcome::Skipped: return "skipped";
    case Outcome::OverBudget: return "over_budget";
    case Outcome::TimedOut: return "timed_out";
    case Outcome::Refused: return "refused";
  }
  return "?";
}

uint64_t contents_hash(const uint8_t* data, size_t n, const uint8_t* undefined_mask) {
  // Each 8-byte word is mixed in with a multiply and a shift (murmur3's
  // finaliser constants); mask bytes are 0 or 1, so mask * 0xff clears
  // exactly the undefined bytes of a word.
  auto mix = [](uint64_t h, uint64_t w) {
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
  };
  uint64_t h = 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(n);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, data + i, 8);
    if (undefined_mask) {
      uint64_t m;
      std::memcpy(&m, undefined_mask + i, 8);
      w &= ~(m * 0xffu);
    }
    h = mix(h, w);
  }
  uint64_t tail = 0;
  for (size_t k = 0; i + k < n; ++k) {
    uint8_t b = (undefined_mask && undefined_mask[i + k]) ? 0 : data[i + k];
    tail |= static_cast<uint64_t>(b) << (8 * k);
  }
  return mix(h, tail);
}

}  // namespace sc
