// Reading a PyTorch version string and choosing the engine's profile for it
// (engine/version_profile.h), drawn directly: a run only ever reads its own
// oracle's version, which is always a profile of its own, so the
// differential property cannot see a misread version or a wrong "nearest"
// choice. Law: "M.m" followed by nothing, ".patch", "+local", "a0..." or " ..."
// reads as {M, m}; anything else after m, a negative or missing part reads as
// nothing; the profile chosen is a known one, exact when the version is one,
// else the nearest by major*100+minor with ties going to the newer.
// (Found by scripts/mutation.sh: parse and choice mutants survived.)
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "engine/version_profile.h"

namespace sc::properties {
namespace {

using engine::PyTorchVersion;

int distance(PyTorchVersion a, PyTorchVersion b) {
  return std::abs((a.major - b.major) * 100 + (a.minor - b.minor));
}

RC_GTEST_PROP(VersionStrings, ReadAndChooseTheNearestProfile, ()) {
  const auto profiles = engine::known_profiles();
  PyTorchVersion v;
  const int how = *rc::gen::inRange(0, 4);
  if (how == 0) {
    v = *rc::gen::elementOf(std::vector<PyTorchVersion>(profiles.begin(), profiles.end()));
  } else if (how == 1 && profiles.size() > 1) {
    // Around the midpoint between two neighbouring profiles, where the choice
    // flips (1.64 is as near to 1.13 as to 2.15: the newer wins the tie).
    const size_t k = *rc::gen::inRange<size_t>(0, profiles.size() - 1);
    const int mid = (profiles[k].major * 100 + profiles[k].minor + profiles[k + 1].major * 100 + profiles[k + 1].minor) / 2;
    const int key = mid + *rc::gen::inRange(-2, 3);
    v = {key / 100, key % 100};
  } else {
    // Minors up to 99 (one key per version): between two profiles the
    // midpoint (1.64 between 1.13 and 2.15) decides the nearest.
    v.major = *rc::gen::inRange(-1, 4);
    v.minor = *rc::gen::inRange(-1, 100);
  }
  static const char* kGood[] = {"", ".0", ".1", ".12", "+cu132", ".0+cpu", "a0+gitabc", " (built here)"};
  static const char* kBad[] = {"x", "-rc1", ",1", "b", "_0", "rc"};
  const bool good_suffix = *rc::gen::arbitrary<bool>();
  const std::string suffix = good_suffix ? *rc::gen::elementOf(std::vector<std::string>(std::begin(kGood), std::end(kGood)))
                                         : *rc::gen::elementOf(std::vector<std::string>(std::begin(kBad), std::end(kBad)));
  const int form = *rc::gen::inRange(0, 4);  // 0-1: M.m<suffix>; 2: "M"; 3: "M."
  std::string s = std::to_string(v.major);
  if (form <= 1) s += "." + std::to_string(v.minor) + suffix;
  else if (form == 3) s += ".";
  RC_TAG(form <= 1 && good_suffix);

  const auto read = engine::parse_pytorch_version(s);
  const bool readable = form <= 1 && good_suffix && v.major >= 0 && v.minor >= 0;
  RC_ASSERT(read.has_value() == readable);
  const auto choice = engine::choose_profile(s);
  RC_ASSERT(choice.has_value() == readable);
  if (!readable) return;
  RC_ASSERT(*read == v);
  RC_ASSERT(engine::to_string(*read) == std::to_string(v.major) + "." + std::to_string(v.minor));
  const PyTorchVersion p = choice->profile;
  RC_ASSERT(std::find(profiles.begin(), profiles.end(), p) != profiles.end());
  RC_ASSERT(choice->asked == s);
  RC_ASSERT(choice->exact == (p == v));
  RC_ASSERT(choice->note().empty() == choice->exact);
  for (PyTorchVersion q : profiles) {
    RC_ASSERT(distance(v, p) <= distance(v, q));
    if (q != p && distance(v, p) == distance(v, q)) RC_ASSERT(p > q);
  }
}

}  // namespace
}  // namespace sc::properties
