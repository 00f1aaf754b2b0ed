#include "program/findings/signature.h"

#include <gtest/gtest.h>

#include "engine/undefined_claims.h"
#include "program/parser.h"
#include "tests/program/findings/planted_backends.h"

namespace sc {
namespace {

TEST(Signature, FieldClassDropsResultAndStorageNumbers) {
  EXPECT_EQ(field_class("result 0 strides"), "strides");
  EXPECT_EQ(field_class("result 12 is_contiguous(channels_last)"), "is_contiguous(channels_last)");
  EXPECT_EQ(field_class("storage 2 contents"), "contents");
  EXPECT_EQ(field_class("storage count"), "storage count");
  EXPECT_EQ(field_class("outcome"), "outcome");
}

TEST(Signature, NamesTheOpTheFieldAndBothSidesOutcomes) {
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  auto t_bug = testing::transpose_bug();
  Program p = parse_program("a = zeros [2,3]\nb = t a\n");
  EXPECT_EQ(failure_signature(p, compare_backends(p, *engine, t_bug, o)), "t: strides");
  auto mul_bug = testing::mul_error_bug();
  Program q = parse_program("a = zeros [2,3]\nmul_ a 2\n");
  EXPECT_EQ(failure_signature(q, compare_backends(q, *engine, mul_bug, o)), "mul_: outcome ok|IndexError");
  // A passing program has no signature.
  Program ok = parse_program("a = zeros [2,3]\nb = neg a\n");
  EXPECT_EQ(failure_signature(ok, compare_backends(ok, *engine, mul_bug, o)), "");
}

TEST(Signature, ACrashInAChildIsASignatureNamingTheOp) {
  Program p = parse_program("a = arange 6\nb = view a [2,3]\nc = flip b [0]\n");
  auto crash_compare = [](const Program& prog, const StepHook& hook) {
    auto engine = make_backend("engine:cpu");
    auto planted = testing::flip_crash();
    RunOptions o;
    o.on_step = hook;
    return compare_backends(prog, *engine, planted, o);
  };
  IsolatedSignature s = signature_isolated(p, crash_compare, 30);
  EXPECT_EQ(s.signature, "crash SIGSEGV on planted_flip:cpu at flip");
  EXPECT_TRUE(s.error.empty()) << s.error;
  // The same program without the crashing step passes, in a child too.
  Program q = parse_program("a = arange 6\nb = view a [2,3]\n");
  IsolatedSignature t = signature_isolated(q, crash_compare, 30);
  EXPECT_EQ(t.signature, "");
  EXPECT_EQ(t.verdict, "pass");
}

TEST(Signature, AHangIsATimeoutSignature) {
  Program p = parse_program("a = arange 6\nb = neg a\n");
  auto hang = [](const Program& prog, const StepHook& hook) -> Comparison {
    hook("slow:cpu", 1);
    for (volatile bool forever = true; forever;) {
    }
    return {};
  };
  IsolatedSignature s = signature_isolated(p, hang, 0.5);
  EXPECT_EQ(s.signature, "timeout on slow:cpu at neg");
}

TEST(Signature, AWrongUndefinedClaimIsItsOwnSignatureWhenClaimsAreChecked) {
  // The engine claims that sizes [2,2] strides [1,1] has no internal overlap
  // (it reaches location 1 twice): brute force refutes it.
  Program p = parse_program("a = zeros [2,3]\nb = neg a\n");
  auto wrong_claim = [](const Program& prog, const StepHook& hook) {
    engine::UndefinedClaim c;
    c.kind = engine::UndefinedClaim::Kind::InternalOverlap;
    c.written = {{2, 2}, {1, 1}, 0, 4};
    c.answer = engine::MemOverlap::No;
    engine::record_claim(std::move(c));
    auto engine = make_backend("engine:cpu");
    auto other = make_backend("engine:cpu");
    RunOptions o;
    o.on_step = hook;
    return compare_backends(prog, *engine, *other, o);
  };
  EXPECT_EQ(signature_isolated(p, wrong_claim, 30, /*check_claims=*/true).signature, kUndefinedCheckSignature);
  // Unchecked, the traces alone agree.
  IsolatedSignature unchecked = signature_isolated(p, wrong_claim, 30);
  EXPECT_EQ(unchecked.signature, "");
  EXPECT_EQ(unchecked.verdict, "pass");
}

}  // namespace
}  // namespace sc
