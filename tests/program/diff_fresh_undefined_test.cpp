// Note [fresh undefined bytes] (program/diff.cpp): empty_like's garbage makes
// a program undefined only when it outlives the step that created it.
#include <gtest/gtest.h>

#include "program/backend.h"
#include "program/compare.h"
#include "program/parser.h"

namespace sc {
namespace {

Verdict verdict_of(const std::string& text) {
  register_engine_backend();
  auto left = make_backend("engine:cpu");
  auto right = make_backend("engine:cpu");
  return compare_backends(parse_program(text, "fresh.prog"), *left, *right, RunOptions{}).diff.verdict;
}

TEST(DiffFreshUndefined, EmptyLikeWrittenByTheNextStepIsCompared) {
  EXPECT_EQ(verdict_of("a = arange 4\nb = empty_like a\nfill_ b 1\nc = add b 1\n"), Verdict::Pass);
  EXPECT_EQ(verdict_of("a = arange 4\nb = empty_like a\ncopy_ b a\n"), Verdict::Pass);
}

TEST(DiffFreshUndefined, GarbageThatOutlivesItsStepIsUndefined) {
  EXPECT_EQ(verdict_of("a = arange 4\nb = empty_like a\nc = add b 1\n"), Verdict::Undefined);
  EXPECT_EQ(verdict_of("a = arange 4\nb = empty_like a\nc = narrow b 0 0 2\nfill_ c 1\n"), Verdict::Undefined);
}

}  // namespace
}  // namespace sc
