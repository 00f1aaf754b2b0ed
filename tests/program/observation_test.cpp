#include "program/observation.h"

#include <gtest/gtest.h>

#include <vector>

namespace sc {
namespace {

TEST(ContentsHash, UndefinedBytesReadAsZero) {
  for (size_t n : {1u, 7u, 8u, 13u, 64u}) {
    std::vector<uint8_t> bytes(n), zeroed(n), mask(n, 0);
    for (size_t i = 0; i < n; ++i) bytes[i] = zeroed[i] = static_cast<uint8_t>(i * 37 + 1);
    mask[n / 2] = 1;
    zeroed[n / 2] = 0;
    EXPECT_EQ(contents_hash(bytes.data(), n, mask.data()), contents_hash(zeroed.data(), n, nullptr)) << n;
  }
}

TEST(ContentsHash, EveryByteCounts) {
  std::vector<uint8_t> bytes(21, 0);
  const uint64_t base = contents_hash(bytes.data(), bytes.size(), nullptr);
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> changed = bytes;
    changed[i] = 1;
    EXPECT_NE(contents_hash(changed.data(), changed.size(), nullptr), base) << "byte " << i;
  }
  // The length counts too: 8 zero bytes and 9 zero bytes differ.
  EXPECT_NE(contents_hash(bytes.data(), 8, nullptr), contents_hash(bytes.data(), 9, nullptr));
}

}  // namespace
}  // namespace sc
