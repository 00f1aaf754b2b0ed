#pragma once
// Hashes whose values are the same on every build and platform, for the
// draws that must repeat from a seed: the generator's swarm choices and the
// enumeration's per-case seeds and samples. Never std::hash (its values are
// the library's to choose).

#include <cstdint>
#include <string_view>

namespace sc {

// splitmix64's finaliser: a bijection of 64-bit words that mixes every bit.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// FNV-1a of the bytes of s.
inline uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

}  // namespace sc
