// copy_bytes (Note [Short contiguous copies]) is memmove: every length around
// the 64-byte step and the short/long threshold, at source and destination
// offsets 0..3, disjoint and overlapping either way; nothing outside the
// destination range is written.
#include "engine/kernels/cpu/byte_copy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace sc::engine {
namespace {

std::vector<std::byte> pattern(size_t n, unsigned seed) {
  std::vector<std::byte> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((i * 131 + seed * 17 + (i >> 8)) & 0xff);
  return v;
}

std::vector<size_t> lengths() {
  std::vector<size_t> ns;
  for (size_t n = 0; n <= 200; ++n) ns.push_back(n);
  for (size_t n : {4095ul, 4096ul, 4097ul, cpu::kShortCopyBytes - 1, cpu::kShortCopyBytes, cpu::kShortCopyBytes + 65})
    ns.push_back(n);
  return ns;
}

TEST(ByteCopy, DisjointRangesGetMemmovesBytes) {
  for (size_t n : lengths())
    for (size_t so = 0; so < 4; ++so)
      for (size_t dof = 0; dof < 4; ++dof) {
        const std::vector<std::byte> src = pattern(n + 8, 1);
        std::vector<std::byte> got = pattern(n + 8, 2), want = got;
        cpu::copy_bytes(got.data() + dof, src.data() + so, n);
        std::memmove(want.data() + dof, src.data() + so, n);
        ASSERT_EQ(got, want) << "n " << n << " src offset " << so << " dst offset " << dof;
      }
}

TEST(ByteCopy, OverlappingRangesGetMemmovesBytes) {
  for (size_t n : lengths())
    for (size_t shift : {1ul, 3ul, 32ul, 64ul, 100ul}) {
      for (bool forward : {false, true}) {
        std::vector<std::byte> got = pattern(n + 200, 3), want = got;
        const size_t d = forward ? shift : 0, s = forward ? 0 : shift;
        cpu::copy_bytes(got.data() + d, got.data() + s, n);
        std::memmove(want.data() + d, want.data() + s, n);
        ASSERT_EQ(got, want) << "n " << n << " shift " << shift << (forward ? " dst after src" : " dst before src");
      }
    }
}

}  // namespace
}  // namespace sc::engine
