// Storage's undefined-byte flags (engine/storage.h) against a plain bitset:
// after any sequence of mark_undefined / mark_defined ranges, exactly the
// bytes whose last mark was "undefined" are flagged, has_undefined_bytes()
// says whether any is, and resize_bytes keeps the flags and adds defined
// bytes. Every UNDEFINED answer of the harness rests on these flags; a flag
// lost hides a comparison that should fail, a flag kept compares garbage.
// (Found by scripts/mutation.sh: mark_defined's "clear the mask when the last
// flag goes" test could be negated unnoticed.)
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "engine/storage.h"

namespace sc::properties {
namespace {

RC_GTEST_PROP(StorageFlags, FollowTheLastMarkOfEveryByte, ()) {
  int64_t nbytes = *rc::gen::inRange<int64_t>(0, 65);
  auto s = engine::Storage::allocate(nbytes);
  std::vector<uint8_t> model(static_cast<size_t>(nbytes), 0);
  const int steps = *rc::gen::inRange(0, 12);
  for (int k = 0; k < steps; ++k) {
    const int what = *rc::gen::inRange(0, 5);
    if (what == 4) {  // grow: the new bytes are defined
      const int64_t grown = nbytes + *rc::gen::inRange<int64_t>(0, 9);
      s->resize_bytes(grown);
      model.resize(static_cast<size_t>(grown), 0);
      nbytes = grown;
      continue;
    }
    const int64_t off = *rc::gen::inRange<int64_t>(0, nbytes + 1);
    const int64_t n = *rc::gen::inRange<int64_t>(0, nbytes - off + 1);
    const bool undefined = what < 2;
    if (undefined) s->mark_undefined(off, n);
    else s->mark_defined(off, n);
    for (int64_t b = off; b < off + n; ++b) model[static_cast<size_t>(b)] = undefined;
    const auto& mask = s->undefined_mask();
    bool any = false;
    for (int64_t b = 0; b < nbytes; ++b) {
      const bool flagged = !mask.empty() && mask[static_cast<size_t>(b)] != 0;
      RC_ASSERT(flagged == (model[static_cast<size_t>(b)] != 0));
      any |= flagged;
    }
    RC_ASSERT(s->has_undefined_bytes() == any);
  }
}

}  // namespace
}  // namespace sc::properties
