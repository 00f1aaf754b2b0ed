// A finding that crashes a backend is minimized like a divergence: each
// candidate runs in a forked child (program/findings/isolated.h), and the
// crash's signature (signal, backend, op) is what is kept.
#include <gtest/gtest.h>

#include "program/findings/shrink.h"
#include "program/findings/signature.h"
#include "program/parser.h"
#include "program/printer.h"
#include "tests/program/findings/planted_backends.h"

namespace sc {
namespace {

TEST(ShrinkCrash, ACrashingFindingKeepsItsCrash) {
  auto compare = [](const Program& prog, const StepHook& hook) {
    auto engine = make_backend("engine:cpu");
    auto planted = testing::flip_crash();
    RunOptions o;
    o.on_step = hook;
    return compare_backends(prog, *engine, planted, o);
  };
  Program p = parse_program(
      "x = arange 24\ny = view x [2,3,4]\nz = permute y [2,1,0]\nw = add_ x 1\nv = flip z [0,2]\nu = neg v\n");
  const std::string sig = signature_isolated(p, compare, 30).signature;
  ASSERT_EQ(sig, "crash SIGSEGV on planted_flip:cpu at flip");
  ShrinkResult r = shrink_program(p, [&](const Program& c) { return signature_isolated(c, compare, 30).signature == sig; });
  EXPECT_EQ(print_program(r.program), "a = arange 2\nb = flip a []\n");
  std::cout << p.steps.size() << " -> " << r.program.steps.size() << " steps, " << r.tests << " tests\n";
}

}  // namespace
}  // namespace sc
