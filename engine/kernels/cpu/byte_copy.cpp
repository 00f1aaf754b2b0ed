#include "engine/kernels/cpu/byte_copy.h"

#include <cstring>

namespace sc::engine::cpu {
namespace {

#if defined(__x86_64__) && defined(__GNUC__)
#define SC_BYTE_COPY_AVX2 1
// 64 bytes per iteration through two 32-byte registers, then the tail.
__attribute__((target("avx2"))) void copy_avx2(std::byte* d, const std::byte* s, size_t n) {
  typedef char v32 __attribute__((vector_size(32), aligned(1), may_alias));
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const v32 a = *reinterpret_cast<const v32*>(s + i);
    const v32 b = *reinterpret_cast<const v32*>(s + i + 32);
    *reinterpret_cast<v32*>(d + i) = a;
    *reinterpret_cast<v32*>(d + i + 32) = b;
  }
  if (i < n) std::memcpy(d + i, s + i, n - i);
}
#endif

bool has_avx2() {
#if SC_BYTE_COPY_AVX2
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

}  // namespace

bool copy_bytes_uses_avx2() { return has_avx2(); }

void copy_bytes(std::byte* d, const std::byte* s, size_t n) {
#if SC_BYTE_COPY_AVX2
  const bool disjoint = d + n <= s || s + n <= d;
  if (n < kShortCopyBytes && disjoint && has_avx2()) {
    copy_avx2(d, s, n);
    return;
  }
#endif
  if (n > 0) std::memmove(d, s, n);
}

}  // namespace sc::engine::cpu
