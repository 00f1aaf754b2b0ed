#include "program/ops.h"

#include <gtest/gtest.h>

namespace sc {
namespace {

Step step(std::string op, std::vector<Arg> args) {
  Step s;
  s.op = std::move(op);
  s.args = std::move(args);
  return s;
}

TEST(OpTable, EveryOpHasAUniqueName) {
  for (const OpSpec& s : all_ops()) EXPECT_EQ(find_op(s.name), &s) << s.name;
}

TEST(CheckSignature, UnknownOpIsAnError) {
  auto e = check_signature(step("frobnicate", {}));
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("unknown operation"), std::string::npos);
}

TEST(CheckSignature, SliceDefaults) {
  Step s = step("slice", {Name{"a"}, Number::integer(1)});
  EXPECT_FALSE(check_signature(s));
  ArgReader r(s);
  EXPECT_EQ(r.int_(1), 1);
  EXPECT_FALSE(r.opt_int(2));
  EXPECT_EQ(r.int_(4), 1);
}

TEST(CheckSignature, ViewNeedsShapeOrDType) {
  EXPECT_TRUE(check_signature(step("view", {Name{"a"}})));
  EXPECT_FALSE(check_signature(step("view", {Name{"a"}, List{{Number::integer(-1)}}})));
}

}  // namespace
}  // namespace sc
