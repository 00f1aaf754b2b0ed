#include "program/exhaust_out.h"

#include <gtest/gtest.h>

#include <set>

#include "engine/version_profile.h"
#include "program/backend.h"
#include "program/exhaust.h"
#include "program/parser.h"

namespace sc {
namespace {

// Note [Exhaust resized out=]: every (dtype, out dtype) pair and every
// relation, each program parses; on the engine, an empty out= at the
// matrix's start is resized over the matrix (it shares a's storage, sizes
// [4,6]), and the expanded row is refused.
TEST(ResizedOuts, EveryDtypePairAndRelationAndTheEngineResizesOverTheInput) {
  const char* dtypes[] = {"float32", "float64", "float16", "bfloat16", "int64",
                          "int32",   "int16",   "int8",    "uint8",    "bool"};
  std::set<std::string> inputs, relations;
  for (const ResizedOut& o : resized_outs()) {
    inputs.insert(o.input);
    relations.insert(o.relation);
    EXPECT_NO_THROW(parse_program(o.text, "<test>")) << o.relation;
  }
  for (const char* d : dtypes) {
    EXPECT_TRUE(inputs.count(std::string(d) + " matrix and row, out a view of them")) << d;
    for (const char* od : dtypes) EXPECT_TRUE(inputs.count(std::string(d) + " matrix and row, out " + od)) << d << od;
  }
  for (const char* r : {"an empty view at the matrix's start", "an empty view at the storage's end", "the row itself",
                        "the row expanded", "a new 0-d tensor", "the matrix's bytes as another dtype"})
    EXPECT_TRUE(relations.count(r)) << r;

  engine::ProfileScope profile("2.15");
  auto engine = make_backend("engine:cpu");
  RunOptions run;
  run.record_contents = false;
  ExhaustPolicy six;
  six.phase = 6;
  int resized_over = 0, refused = 0;
  for (const ExhaustCase& c : exhaust_op("add", six)) {
    if (c.input != "float32 matrix and row, out a view of them") continue;
    const Trace t = engine->run(c.program, run);
    ASSERT_LT(c.op_step, t.steps.size()) << c.description();
    const StepObs& s = t.steps[c.op_step];
    if (c.description().find("an empty view at the matrix's start") != std::string::npos) {
      ASSERT_EQ(s.outcome, Outcome::Ok) << c.description();
      EXPECT_EQ(s.results.at(0).sizes, (std::vector<int64_t>{4, 6}));
      EXPECT_EQ(s.results.at(0).storage, t.steps[1].results.at(0).storage);  // a's
      ++resized_over;
    }
    if (c.description().find("the row expanded") != std::string::npos) {
      EXPECT_EQ(s.outcome, Outcome::Error) << c.description();
      ++refused;
    }
  }
  EXPECT_EQ(resized_over, 2);  // add x y and add y x
  EXPECT_EQ(refused, 2);
  // every catalogue input is an out= too, but those aimed at other ops' rules
  std::set<std::string> outs;
  for (const ExhaustCase& c : exhaust_op("neg", six)) outs.insert(c.input);
  for (const ExhaustInput& in : exhaust_inputs())
    EXPECT_EQ(outs.count(in.name), exhaust_aimed_elsewhere("neg", in) ? 0u : 1u) << in.name;
}

}  // namespace
}  // namespace sc
