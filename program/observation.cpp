#include "program/observation.h"

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

uint64_t fnv1a(const uint8_t* data, size_t n, const uint8_t* undefined_mask) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) {
    uint8_t b = (undefined_mask && undefined_mask[i]) ? 0 : data[i];
    h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

}  // namespace sc
