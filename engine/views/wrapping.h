#pragma once
// Two's-complement int64 arithmetic that wraps instead of being undefined.
// LibTorch computes view geometry with plain int64 arithmetic, which wraps in
// practice on its builds; huge arguments (slice step INT64_MAX, unfold size
// INT64_MIN) then reach the as_strided checks with the wrapped values, so the
// engine wraps the same way to raise the same errors with the same numbers.
#include <cstdint>

namespace sc::engine::wrapping {

inline int64_t add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
// a / b truncating toward zero; INT64_MIN / -1 wraps to INT64_MIN (b != 0).
inline int64_t div(int64_t a, int64_t b) {
  if (b == -1) return sub(0, a);
  return a / b;
}

}  // namespace sc::engine::wrapping
