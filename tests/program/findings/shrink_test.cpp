// The reducer keeps a finding's signature and removes the rest: planted engine
// bugs (planted_backends.h) make findings whose cause is known.
#include "program/findings/shrink.h"

#include <gtest/gtest.h>

#include "program/findings/signature.h"
#include "program/generator.h"
#include "program/parser.h"
#include "program/printer.h"
#include "tests/program/findings/planted_backends.h"

namespace sc {
namespace {

template <class Planted>
std::string signature_of(const Program& p, Planted& planted) {
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  o.record_contents = false;
  return failure_signature(p, compare_backends(p, *engine, planted, o));
}

template <class Planted>
ShrinkResult shrink_against(const Program& p, Planted& planted) {
  const std::string sig = signature_of(p, planted);
  EXPECT_FALSE(sig.empty()) << print_program(p);
  return shrink_program(p, [&](const Program& c) { return signature_of(c, planted) == sig; });
}

// `#! engine-threads N` is a run setting, not a step: every candidate keeps
// it (a finding on 3 threads may need them), and so does the result.
TEST(Shrink, KeepsTheEngineThreadCount) {
  Program p = parse_program("#! engine-threads 3\na = arange 6\nb = view a [2,3]\nc = t b\nd = neg a\n");
  int tests = 0;
  ShrinkResult r = shrink_program(p, [&](const Program& c) {
    ++tests;
    EXPECT_EQ(c.engine_threads, 3) << print_program(c);
    bool has_t = false;
    for (const Step& s : c.steps) has_t |= s.op == "t";
    return c.engine_threads == 3 && has_t;
  });
  EXPECT_GT(tests, 0);
  EXPECT_EQ(r.program.engine_threads, 3);
  EXPECT_LT(r.program.steps.size(), p.steps.size());
  EXPECT_EQ(print_program(r.program, false).rfind("#! engine-threads 3\n", 0), 0u) << print_program(r.program);
}

TEST(Shrink, AHandWrittenChainKeepsOnlyWhatTheBugNeeds) {
  auto planted = testing::transpose_bug();
  Program p = parse_program(R"(x = arange 60 dtype=int64
y = view x [6,10]
z = reshape y [10,6]
w = add_ z 3
u = mul z 2
v = clone u
k = transpose v 0 1
q = t z
r = contiguous q
)");
  ShrinkResult r = shrink_against(p, planted);
  EXPECT_EQ(signature_of(r.program, planted), "t: strides");
  EXPECT_LE(r.program.steps.size(), 3u) << print_program(r.program);
  EXPECT_EQ(r.program.steps.back().op, "t") << print_program(r.program);
  // dtype= went toward float32 (dropped), names were renamed in order.
  for (const Step& s : r.program.steps) EXPECT_EQ(s.kwarg("dtype"), nullptr) << print_step(s);
  EXPECT_EQ(r.program.steps[0].outputs, std::vector<std::string>{"a"});
  bool said_removed = false;
  for (const std::string& line : r.log) said_removed |= line.rfind("removed step: ", 0) == 0;
  EXPECT_TRUE(said_removed);
  EXPECT_FALSE(r.out_of_tests);
}

TEST(Shrink, IsDeterministic) {
  auto planted = testing::transpose_bug();
  Program p = parse_program("a = zeros [4,5,3]\nb = select a 2 1\nc = add b 1\nd = t c\ne = neg d\n");
  ShrinkResult one = shrink_against(p, planted);
  ShrinkResult two = shrink_against(p, planted);
  EXPECT_EQ(print_program(one.program), print_program(two.program));
  EXPECT_EQ(one.log, two.log);
  EXPECT_EQ(one.tests, two.tests);
}

TEST(Shrink, AGeneratedFindingArrivesAsAFewSteps) {
  auto planted = testing::transpose_bug();
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  o.record_contents = false;
  // The first generated program (seeds from 0) that the planted bug fails,
  // with at least 8 steps, so there is something to remove.
  Program found;
  for (uint64_t seed = 0; seed < 20000 && found.steps.empty(); ++seed) {
    Choices c = Choices::from_seed(seed);
    Program p = generate_program(c);
    if (p.steps.size() >= 8 && compare_backends(p, *engine, planted, o).diff.verdict == Verdict::Fail) found = p;
  }
  ASSERT_FALSE(found.steps.empty()) << "no generated program of 8+ steps hit the planted bug";
  ShrinkResult r = shrink_against(found, planted);
  std::cout << found.steps.size() << " -> " << r.program.steps.size() << " steps, " << r.tests << " tests\n"
            << print_program(r.program);
  EXPECT_LE(r.program.steps.size(), 3u) << print_program(r.program);
  EXPECT_EQ(signature_of(r.program, planted), "t: strides");
}

TEST(Shrink, ErrorKindsOnEachSideAreKept) {
  auto planted = testing::mul_error_bug();
  Program p = parse_program("a = arange 24\nb = view a [2,3,4]\nc = permute b [2,0,1]\nmul_ c 2.5\nd = add c 1\n");
  ShrinkResult r = shrink_against(p, planted);
  EXPECT_EQ(signature_of(r.program, planted), "mul_: outcome ok|IndexError");
  EXPECT_EQ(print_program(r.program), "a = arange 0\nmul_ a 0.0\n");
}

TEST(Shrink, ArgumentsGoTowardZeroAndOne) {
  auto planted = testing::transpose_bug();
  Program p = parse_program("a = zeros [7,9]\nb = t a\n");
  ShrinkResult r = shrink_against(p, planted);
  // strides [1,7] vs [7,1] need two dims; the smallest sizes that still tell the strides apart.
  EXPECT_EQ(print_program(r.program), "a = zeros [0,2]\nb = t a\n");
}

TEST(Shrink, StopsAtItsTestBudget) {
  auto planted = testing::transpose_bug();
  Program p = parse_program("a = arange 60\nb = view a [6,10]\nc = neg b\nd = t c\n");
  int calls = 0;
  const std::string sig = signature_of(p, planted);
  ShrinkPolicy policy;
  policy.max_tests = 3;
  ShrinkResult r = shrink_program(p, [&](const Program& c) { ++calls; return signature_of(c, planted) == sig; }, policy);
  EXPECT_TRUE(r.out_of_tests);
  EXPECT_LE(calls, 4);  // the budget, and one more for the renaming
  EXPECT_EQ(signature_of(r.program, planted), sig);
}

}  // namespace
}  // namespace sc
