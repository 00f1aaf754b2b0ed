// The harness finds a planted bug (STYLE: "a test proves the fuzzer finds a
// planted bug"): a backend that is the engine with one wrong rule must be
// caught by generated programs within a bounded number of tries, and the diff
// must name the planted field. Engine against engine, so no LibTorch is needed.
#include <gtest/gtest.h>

#include "program/backend.h"
#include "program/compare.h"
#include "program/generator.h"
#include "program/printer.h"

namespace sc::properties {
namespace {

// The engine, except that `t` reports its input's strides unswapped: the kind
// of slip a tensor library makes when a transpose forgets to permute strides.
class PlantedTransposeBug : public Backend {
 public:
  PlantedTransposeBug() : inner_(make_backend("engine:cpu")) {}
  std::string name() const override { return "planted:cpu"; }
  std::string version() const override { return "engine with a planted t() bug"; }
  Trace run(const Program& p, const RunOptions& o) override {
    Trace t = inner_->run(p, o);
    for (size_t i = 0; i < p.steps.size() && i < t.steps.size(); ++i) {
      StepObs& s = t.steps[i];
      if (p.steps[i].op != "t" || s.outcome != Outcome::Ok || s.results.empty()) continue;
      std::vector<int64_t>& st = s.results[0].strides;
      if (st.size() == 2) std::swap(st[0], st[1]);
    }
    return t;
  }

 private:
  std::unique_ptr<Backend> inner_;
};

TEST(PlantedBug, GeneratedProgramsFindAWrongTransposeStride) {
  register_engine_backend();
  auto engine = make_backend("engine:cpu");
  PlantedTransposeBug planted;
  RunOptions options;
  options.record_contents = false;
  GeneratorPolicy policy;
  int found_after = -1;
  Comparison found;
  Program program;
  for (int seed = 0; seed < 5000 && found_after < 0; ++seed) {
    Choices c = Choices::from_seed(static_cast<uint64_t>(seed));
    program = generate_program(c, policy);
    Comparison cmp = compare_backends(program, *engine, planted, options);
    if (cmp.diff.verdict == Verdict::Fail) {
      found_after = seed + 1;
      found = std::move(cmp);
    }
  }
  ASSERT_GT(found_after, 0) << "5000 generated programs never caught a transpose with swapped strides";
  EXPECT_LE(found_after, 2000) << "the planted bug took " << found_after << " programs to find";
  ASSERT_TRUE(found.diff.first);
  EXPECT_EQ(program.steps[found.diff.first->step].op, "t") << print_program(program);
  EXPECT_EQ(found.diff.first->field, "result 0 strides");
  std::cout << "planted bug found after " << found_after << " programs\n";
}

}  // namespace
}  // namespace sc::properties
