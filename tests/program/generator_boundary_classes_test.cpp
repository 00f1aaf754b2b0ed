// Boundary classes of the generator that exist for one check of the engine
// (program/domains.cpp), each reaching what it is for:
// - as_strided's storage offset "storage bytes at INT64_MAX": the elements the
//   header needs, 1 + offset + sum(stride * (size - 1)), are INT64_MAX / k or
//   one more (k the itemsize), so the bytes are the largest multiple of the
//   itemsize up to INT64_MAX or one element past it: computeStorageNbytes'
//   overflow test meets both sides of its bound (for a 1-byte dtype exactly
//   INT64_MAX bytes: "out of bounds for storage", not "overflowed");
// - a view of "padded rows" reinterpreted as a wider dtype reaches view(dtype=)'s
//   storage-offset divisibility check; one of "wraps when narrowed" as a
//   narrower dtype makes a size, stride or offset of -2^63 (2.x: symbolic).
#include <gtest/gtest.h>

#include <climits>
#include <optional>
#include <string>
#include <variant>

#include "engine/version_profile.h"
#include "program/backend.h"
#include "program/generator.h"
#include "tests/program/generation_log_util.h"

namespace sc {
namespace {

using testing::for_each_generated;
using testing::klass;
using testing::steps_drawing;

TEST(GeneratorBoundaryClasses, StorageBytesAtInt64MaxNeedsTheLastElementsBeforeTheBound) {
  GeneratorPolicy policy;
  policy.ops = {"as_strided"};
  int drawn = 0, at_bound = 0, past_bound = 0;
  for_each_generated(policy, 3000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    for (size_t i = 0; i < p.steps.size(); ++i) {
      const Step& s = p.steps[i];
      const std::optional<std::string_view> k = klass(log.steps[i], "storage_offset");
      if (s.op != "as_strided" || !k || *k != "storage bytes at INT64_MAX" || s.args.size() < 4) continue;
      ++drawn;
      const auto& sizes = std::get<List>(s.args[1]).items;
      const auto& strides = std::get<List>(s.args[2]).items;
      const int64_t offset = std::get<Number>(s.args[3]).i;
      __int128 elems = __int128{1} + offset;
      bool empty = false;
      for (size_t d = 0; d < sizes.size() && d < strides.size(); ++d) {
        empty |= sizes[d].i == 0;
        if (sizes[d].i > 1 && strides[d].i > 0) elems += static_cast<__int128>(strides[d].i) * (sizes[d].i - 1);
      }
      if (empty || offset == 0) continue;  // no storage needed, or a span past the bound by itself
      bool matches = false;
      for (int64_t item : {1, 2, 4, 8}) {
        const __int128 last = INT64_MAX / item;  // the most elements of that size within INT64_MAX bytes
        at_bound += elems == last;
        past_bound += elems == last + 1;
        matches |= elems == last || elems == last + 1;
      }
      EXPECT_TRUE(matches) << "seed " << seed << " step " << i + 1 << " needs " << static_cast<int64_t>(elems)
                           << " elements";
    }
  });
  EXPECT_GT(drawn, 20);
  EXPECT_GT(at_bound, 5);
  EXPECT_GT(past_bound, 5);
}

// How many of `steps` of `p` raise an error containing `message` on `engine`
// (the program runs only when some step is marked).
int errors_at(Backend& engine, const Program& p, const std::vector<size_t>& steps, std::string_view message) {
  if (steps.empty()) return 0;
  RunOptions o;
  o.record_contents = false;
  const Trace t = engine.run(p, o);
  int n = 0;
  for (size_t i : steps)
    n += i < t.steps.size() && t.steps[i].outcome == Outcome::Error &&
         t.steps[i].error_message.find(message) != std::string::npos;
  return n;
}

// A view of a "padded rows" self reinterprets it as a wider dtype half the time (other
// views of it draw the shape's classes, "reinterpret as dtype" among them), one of a "wraps
// when narrowed" self as a narrower dtype: the checks they are for are reached.
void expect_reinterpreted(std::string_view self_class, std::string_view message) {
  SCOPED_TRACE(std::string(self_class));
  engine::ProfileScope profile("2.15");
  auto engine = make_backend("engine:cpu");
  GeneratorPolicy policy;
  policy.ops = {"view"};
  int views = 0, reinterpreted = 0, reached = 0;
  for_each_generated(policy, 2000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    std::vector<size_t> steps;
    for (size_t i = 0; i < p.steps.size(); ++i) {
      const std::optional<std::string_view> k = klass(log.steps[i], "self");
      if (p.steps[i].op != "view" || !k || *k != self_class) continue;
      ++views;
      reinterpreted += klass(log.steps[i], "size") == std::optional<std::string_view>("reinterpret as dtype");
      steps.push_back(i);
    }
    reached += errors_at(*engine, p, steps, message);
  });
  EXPECT_GT(views, 40);
  EXPECT_GT(reinterpreted * 100, views * 45) << reinterpreted << " of " << views;
  EXPECT_GT(reached, 5);
}

TEST(GeneratorBoundaryClasses, PaddedRowsAreViewedAsAWiderDTypeHalfTheTime) {
  expect_reinterpreted("padded rows", "self.storage_offset() must be divisible by");
}

TEST(GeneratorBoundaryClasses, WrapsWhenNarrowedIsViewedAsANarrowerDTypeHalfTheTime) {
  expect_reinterpreted("wraps when narrowed", "on tensor with symbolic sizes/strides");  // 2.15: storage_offset()
}

// Note [Past the wrap] (program/generator.cpp): a view op other than `view`
// drawing "wraps when narrowed" half the time gets the value one step on, made
// by a step of its own: narrowed (`view dtype=`: on 1.13 an offset of -2^63,
// which the op's set_storage_offset refuses) or, for the offset form, resized
// by an out= whose resize raised (2.x: the op's storage bounds check, which
// counts the offset; 1.13's wraps and mostly passes). So the op alone (the
// message-reach law's second search, a swarm program) reaches them.
int past_the_wrap_errors(const std::string& version, const std::string& message) {
  engine::ProfileScope profile(version);
  auto engine = make_backend("engine:cpu");
  GeneratorPolicy policy;
  policy.ops = {"movedim"};
  int reached = 0;
  for_each_generated(policy, 1500, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    reached += errors_at(*engine, p, steps_drawing(p, log, "movedim", "self", "wraps when narrowed"), message);
  });
  return reached;
}

TEST(GeneratorBoundaryClasses, WrapsWhenNarrowedGoesPastTheWrapForOtherViewOps) {
  EXPECT_GT(past_the_wrap_errors("1.13", "Tensor: invalid storage offset -9223372036854775808"), 2);
  EXPECT_GT(past_the_wrap_errors("2.15", "Storage size calculation overflowed with sizes=["), 2);
}

}  // namespace
}  // namespace sc
