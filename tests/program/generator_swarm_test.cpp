// Note [Swarm programs] (program/generator.h): with swarm_percent a program
// may draw from a random subset of the ops and classes, up to twice the
// steps; a short input still gives the default program, and no op or class is
// left out of every program.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "program/backend.h"
#include "program/generator.h"
#include "program/ops.h"
#include "program/printer.h"

namespace sc {
namespace {

GeneratorPolicy swarm(int percent) {
  GeneratorPolicy p;
  p.swarm_percent = percent;
  return p;
}

TEST(GeneratorSwarm, OffByDefaultAndAnExhaustedInputIsTheDefaultProgram) {
  register_engine_backend();
  EXPECT_EQ(GeneratorPolicy{}.swarm_percent, 0);
  // An input used up by the swarm draws (the percent, then four zero
  // choices: all a short fuzzer input has) picks no subset.
  Choices none(std::vector<uint32_t>{});
  const std::string off = print_program(generate_program(none));
  for (size_t n = 1; n <= 5; ++n) {
    Choices zeros(std::vector<uint32_t>(n, 0));
    EXPECT_EQ(print_program(generate_program(zeros, swarm(100))), off) << n;
  }
}

TEST(GeneratorSwarm, ProgramsKeepAFewOpsButTogetherDrawEveryOp) {
  register_engine_backend();
  std::set<std::string> used;
  int longer = 0, narrower = 0;
  const GeneratorPolicy policy = swarm(100);
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    Choices c = Choices::from_seed(seed);
    Program p = generate_program(c, policy);
    std::set<std::string> ops;
    for (const Step& s : p.steps) ops.insert(s.op), used.insert(s.op);
    if (static_cast<int>(p.steps.size()) > policy.max_steps + 1) ++longer;
    // A default program of 12+ steps rarely repeats ops this much.
    if (p.steps.size() >= 12 && ops.size() * 2 <= p.steps.size()) ++narrower;
  }
  for (const OpSpec& s : all_ops()) EXPECT_TRUE(used.count(std::string(s.name))) << s.name << " is left out of every program";
  EXPECT_GT(longer, 0) << "no swarm program had more than max_steps steps";
  EXPECT_GT(narrower, 0);
}

}  // namespace
}  // namespace sc
