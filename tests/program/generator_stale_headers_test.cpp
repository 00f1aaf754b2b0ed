// Note [Stale headers] (program/generator.cpp): a stale header step makes an
// out= resize raise on purpose, each way LibTorch's resize_output can raise
// after it changed the header, and hands the out to readers of every op
// family, as self, as the other operand and as out= again.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>

#include "engine/version_profile.h"
#include "program/backend.h"
#include "program/generator.h"
#include "program/ops.h"
#include "tests/program/generation_log_util.h"

namespace sc {
namespace {

using testing::for_each_generated;

struct Reached {
  std::map<std::string, int> failures;       // made out= steps that raised, by the start of their message
  std::map<OpCategory, int> self_readers;    // steps reading the header as self, by family
  std::set<std::string> roles;               // "self", "other" or "out"
  int stale_steps = 0;
};

// resize_output's checks after it changed the header, in its order
constexpr const char* kResizeErrors[] = {"numel: integer multiplication overflow", "Stride calculation overflowed",
                                         "Storage size calculation overflowed"};

int count(const std::map<std::string, int>& m, const std::string& k) {
  auto it = m.find(k);
  return it == m.end() ? 0 : it->second;
}

Reached reach(const std::string& version, int stale_header_percent) {
  engine::ProfileScope profile(version);
  auto engine = make_backend("engine:cpu");
  GeneratorPolicy policy;
  policy.stale_header_percent = stale_header_percent;
  RunOptions o;
  o.record_contents = false;
  Reached r;
  for_each_generated(policy, 2000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    std::vector<size_t> made;
    for (size_t i = 0; i < p.steps.size(); ++i) {
      for (const DrawnClass& d : log.steps[i]) {
        if (d.klass == "made stale header" && !p.steps[i].kwargs.empty()) made.push_back(i);
        if (d.klass != "stale header") continue;
        ++r.stale_steps;
        r.roles.insert(std::string(d.param == "out" ? "out" : d.param == "self" ? "self" : "other"));
        if (d.param == "self") ++r.self_readers[find_op(p.steps[i].op)->category];
      }
    }
    if (made.empty()) return;
    Trace t = engine->run(p, o);
    for (size_t i : made)
      if (i < t.steps.size() && t.steps[i].outcome == Outcome::Error)
        for (const char* m : kResizeErrors)
          if (t.steps[i].error_message.rfind(m, 0) == 0) ++r.failures[m];
  });
  return r;
}

TEST(GeneratorStaleHeaders, EachResizeFailureIsMadeAndReadByEveryFamily) {
  const Reached r = reach("2.15", GeneratorPolicy{}.stale_header_percent);
  for (const char* m : kResizeErrors) EXPECT_GT(count(r.failures, m), 10) << m;
  for (OpCategory f : {OpCategory::View, OpCategory::Copy, OpCategory::InPlace, OpCategory::Elementwise}) {
    auto it = r.self_readers.find(f);
    EXPECT_GT(it == r.self_readers.end() ? 0 : it->second, 50) << "family " << static_cast<int>(f);
  }
  EXPECT_EQ(r.roles, (std::set<std::string>{"other", "out", "self"}));
}

TEST(GeneratorStaleHeaders, Version113HasNoStrideOverflowToRaise) {
  // 1.13's empty_tensor_restride keeps the wrapped strides: the resize passes
  const Reached r = reach("1.13", GeneratorPolicy{}.stale_header_percent);
  EXPECT_EQ(count(r.failures, "Stride calculation overflowed"), 0);
  EXPECT_GT(count(r.failures, "numel: integer multiplication overflow"), 50);
  EXPECT_GT(count(r.failures, "Storage size calculation overflowed"), 10);
}

TEST(GeneratorStaleHeaders, ZeroPercentDrawsNone) {
  const Reached r = reach("2.15", 0);
  EXPECT_EQ(r.stale_steps, 0);
  EXPECT_TRUE(r.failures.empty());
}

}  // namespace
}  // namespace sc
