// The generator runs each step on the engine to know what it bound (program/
// generator.cpp). An op that raises hands its error back through
// EngineStepContext::error (Note [errors returned, not thrown]) as often as
// it throws: both count as a failed step. After a failed empty_like the
// generator writes nothing into its (unbound) result, so no generated step
// right after an empty_like that raised reads that result.
#include <gtest/gtest.h>

#include <string>

#include "program/backend.h"
#include "program/generator.h"

namespace sc {
namespace {

bool reads(const Step& s, const std::string& name) {
  bool found = false;
  s.for_each_input([&](const std::string& in) { found |= in == name; });
  return found;
}

TEST(GeneratorEngineErrors, NothingIsWrittenIntoAnEmptyLikeThatRaised) {
  auto engine = make_backend("engine:cpu");
  GeneratorPolicy policy;
  RunOptions o;
  o.record_contents = false;
  int failed_empty_like = 0;
  for (uint64_t seed = 1; seed <= 1500; ++seed) {
    Choices c = Choices::from_seed(seed);
    Program p = generate_program(c, policy);
    bool has_empty_like = false;
    for (const Step& s : p.steps) has_empty_like |= s.op == "empty_like";
    if (!has_empty_like) continue;
    Trace t = engine->run(p, o);
    for (size_t i = 0; i + 1 < p.steps.size() && i < t.steps.size(); ++i) {
      const Step& s = p.steps[i];
      if (s.op != "empty_like" || t.steps[i].outcome != Outcome::Error || s.outputs.empty()) continue;
      ++failed_empty_like;
      EXPECT_FALSE(reads(p.steps[i + 1], s.outputs[0])) << "seed " << seed << " step " << i + 1;
    }
  }
  EXPECT_GT(failed_empty_like, 0);  // the seeds reach the case
}

}  // namespace
}  // namespace sc
