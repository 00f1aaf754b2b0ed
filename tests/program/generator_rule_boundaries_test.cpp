// The classes of Note [Rule boundaries drawn on purpose] (program/generator.cpp)
// each make the inputs where one LibTorch rule branches; these tests fail when
// a class stops being drawn or stops making those inputs:
// - "conversion edges": `to` an integer dtype of a float64 integer past 2^31
//   whose low byte is not 0 (uint8 converts through int64, the narrower
//   integers through int32), and `to` bool of a -0.0 of a narrower float;
// - "tiled transpose": a contiguous copy of a source whose fast dim is the
//   copy's slow one, both dims at least 8, with a strided (not dense) source
//   column and partial 32-element tiles;
// - "0-d of another dtype": a float16/bfloat16 mul whose other operand is a
//   0-d float32/float64 tensor (the opmath scalar; the 0-d operand ranks below
//   the dimensioned self, so the result stays reduced);
// - "past reduced float exact range": arange past 256 in bfloat16 and past
//   2048 in float16, within 1 of a multiple of 8;
// - "ambiguous channels layout": N111 views, C's stride 0, with the rank's
//   channels-last format= 3 times in 4;
// - clamp_'s "self dtype limit" bounds of an integer self (clamp_bound_edge):
//   a min exactly at the dtype's max, and one past it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/version_profile.h"
#include "program/backend.h"
#include "program/generator.h"
#include "tests/program/generation_log_util.h"

namespace sc {
namespace {

using testing::for_each_generated;
using testing::klass;
using testing::steps_drawing;

std::string dtype_kwarg(const Step& s) {
  const KwArg* k = s.kwarg("dtype");
  if (!k) return "";
  const auto* id = std::get_if<Ident>(&k->value);
  return id ? id->id : "";
}

bool is_integral(const std::string& d) {
  return d == "uint8" || d == "int8" || d == "int16" || d == "int32" || d == "int64" || d == "bool";
}

TEST(GeneratorRuleBoundaries, ConversionEdgesReachIntegerDTypesPastInt32AndBoolOfNegativeZero) {
  GeneratorPolicy policy;
  policy.ops = {"to"};
  int drawn = 0, to_integral = 0, past_int32_to_uint8 = 0, past_int32_to_narrow = 0, negative_zero_to_bool = 0;
  for_each_generated(policy, 3000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    for (size_t i : steps_drawing(p, log, "to", "self", "conversion edges")) {
      if (i < 1) continue;
      ++drawn;
      const std::string to = dtype_kwarg(p.steps[i]);
      to_integral += is_integral(to);
      const Step& made = p.steps[i - 1];  // the class's own step, just before
      ASSERT_EQ(klass(log.steps[i - 1], "values"), std::optional<std::string_view>("made conversion edges"));
      const std::string from = dtype_kwarg(made);
      bool past_int32 = false, negative_zero = false;
      for (const Number& v : std::get<List>(made.args[0]).items) {
        if (v.kind != Number::Kind::Float) continue;
        const double a = std::fabs(v.f);
        past_int32 |= a >= 2147483648.0 && a < 9223372036854775808.0 && (static_cast<int64_t>(v.f) & 0xff) != 0;
        negative_zero |= v.f == 0.0 && std::signbit(v.f);
      }
      past_int32 &= from == "float64";
      past_int32_to_uint8 += past_int32 && to == "uint8";
      past_int32_to_narrow += past_int32 && (to == "int8" || to == "int16" || to == "int32");
      negative_zero_to_bool += negative_zero && from != "float64" && to == "bool";
    }
  });
  EXPECT_GT(drawn, 300);
  EXPECT_GT(to_integral * 100, drawn * 70) << to_integral << " of " << drawn;
  EXPECT_GT(past_int32_to_uint8, 20);
  EXPECT_GT(past_int32_to_narrow, 30);
  EXPECT_GT(negative_zero_to_bool, 160);  // 104 before the bool target coupled to narrower floats
}

TEST(GeneratorRuleBoundaries, TiledTransposeMakesStridedSourceColumnsWithPartialTiles) {
  GeneratorPolicy policy;
  policy.ops = {"contiguous"};
  int drawn = 0, transposed = 0, strided_column = 0, partial = 0, wide_items = 0;
  for_each_generated(policy, 3000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    for (size_t i : steps_drawing(p, log, "contiguous", "self", "tiled transpose")) {
      if (i < 2) continue;
      ++drawn;
      const Step& as = p.steps[i - 1];
      if (as.op != "as_strided") continue;  // its arange raised (over the budget): any value
      const auto& sizes = std::get<List>(as.args[1]).items;
      const auto& strides = std::get<List>(as.args[2]).items;
      ASSERT_GE(sizes.size(), 2u);
      const int64_t n0 = sizes[sizes.size() - 2].i, n1 = sizes.back().i;
      const int64_t s0 = strides[strides.size() - 2].i, s1 = strides.back().i;
      // the copy's fastest dim (the last) is the source's slowest of the two
      const bool tiles = n0 >= 8 && n1 >= 8 && s0 < s1;
      transposed += tiles;
      strided_column += tiles && s0 > 1;
      partial += tiles && (n0 % 32 != 0 || n1 % 32 != 0);
      const std::string d = dtype_kwarg(p.steps[i - 2]);
      wide_items += tiles && (d == "float32" || d == "int32" || d == "float64" || d == "int64");
    }
  });
  EXPECT_GT(drawn, 300);
  EXPECT_GT(transposed * 100, drawn * 90) << transposed << " of " << drawn;
  EXPECT_GT(strided_column, 150);
  EXPECT_GT(partial, 300);
  EXPECT_GT(wide_items, 200);
}

TEST(GeneratorRuleBoundaries, ZeroDOfAnotherDTypeMeetsReducedFloatSelvesInOpmath) {
  engine::ProfileScope profile("2.15");
  auto engine = make_backend("engine:cpu");
  GeneratorPolicy policy;
  policy.ops = {"mul"};
  RunOptions o;
  o.record_contents = false;
  int drawn = 0, zero_d = 0, opmath_scalars = 0;
  for_each_generated(policy, 3000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    const std::vector<size_t> steps = steps_drawing(p, log, "mul", "other", "0-d of another dtype");
    if (steps.empty()) return;
    Trace t = engine->run(p, o);
    for (size_t i : steps) {
      ++drawn;
      const Step& made = p.steps[i - 1];
      if (made.op != "tensor" || !std::holds_alternative<Number>(made.args[0])) continue;
      ++zero_d;
      const std::string d = dtype_kwarg(made);
      if (i >= t.steps.size() || t.steps[i].outcome != Outcome::Ok || t.steps[i].results.empty()) continue;
      const std::string common = t.steps[i].results[0].dtype;
      opmath_scalars += (common == "float16" || common == "bfloat16") && (d == "float32" || d == "float64");
    }
  });
  EXPECT_GT(drawn, 500);
  EXPECT_GT(zero_d * 100, drawn * 65) << zero_d << " of " << drawn;
  EXPECT_GT(opmath_scalars, 100);
}

// "ambiguous channels layout": 4-d and 5-d views with size-1 dims whose
// strides the channels-last rules read (N111 with equal strides, C's stride 0),
// the op's format= that rank's channels-last format 3 times in 4.
TEST(GeneratorRuleBoundaries, AmbiguousChannelsLayoutsMeetTheChannelsLastSpecialCases) {
  GeneratorPolicy policy;
  policy.ops = {"to"};
  int drawn = 0, rank5 = 0, n111 = 0, c_stride0 = 0, cl_format = 0;
  for_each_generated(policy, 3000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    for (size_t i : steps_drawing(p, log, "to", "self", "ambiguous channels layout")) {
      if (i < 1) continue;
      ++drawn;
      const KwArg* f = p.steps[i].kwarg("format");
      const auto* fid = f ? std::get_if<Ident>(&f->value) : nullptr;
      const Step& as = p.steps[i - 1];
      if (as.op != "as_strided") continue;
      const auto& sizes = std::get<List>(as.args[1]).items;
      const auto& strides = std::get<List>(as.args[2]).items;
      ASSERT_TRUE(sizes.size() == 4 || sizes.size() == 5);
      rank5 += sizes.size() == 5;
      // N111: the size-1 dims of one stride, at most N's (min == stride[C] when the walk reaches N)
      bool ones = true, equal = strides[1].i > 0 && strides[1].i <= strides[0].i;
      for (size_t d = 1; d < sizes.size(); ++d) {
        ones &= sizes[d].i == 1;
        equal &= strides[d].i == strides[1].i;
      }
      n111 += ones && equal;
      c_stride0 += strides[1].i == 0;
      cl_format += fid && fid->id == (sizes.size() == 4 ? "channels_last" : "channels_last_3d");
    }
  });
  EXPECT_GT(drawn, 500);
  EXPECT_GT(rank5, 120);
  EXPECT_GT(n111, 250);  // 72 before the N111 draws of their own
  EXPECT_GT(c_stride0, 30);
  EXPECT_GT(cl_format * 100, drawn * 65) << cl_format << " of " << drawn;
}

// clamp_bound_edge: a clamp_ min bound of class "self dtype limit" is, for an
// integer self, most often an integer exactly at the dtype's max (valid: every
// element becomes it) or one past it (raises), where the Clamp range check branches.
TEST(GeneratorRuleBoundaries, ClampBoundsOfIntegerSelvesMeetTheDTypeMaxExactly) {
  engine::ProfileScope profile("2.15");
  auto engine = make_backend("engine:cpu");
  GeneratorPolicy policy;
  policy.ops = {"clamp_"};
  RunOptions o;
  o.record_contents = false;
  int drawn = 0, at_max = 0, past_max = 0;
  for_each_generated(policy, 3000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    std::vector<size_t> steps = steps_drawing(p, log, "clamp_", "min", "self dtype limit");
    std::erase_if(steps, [&](size_t i) { return p.steps[i].args.size() < 2; });
    if (steps.empty()) return;
    Trace t = engine->run(p, o);
    for (size_t i : steps) {
      const auto* min = std::get_if<Number>(&p.steps[i].args[1]);
      if (!min || min->kind != Number::Kind::Int || i >= t.steps.size()) continue;
      // the self's dtype: clamp_ returns self, and a raised step names the bound's range
      const Outcome out = t.steps[i].outcome;
      const std::string d = out == Outcome::Ok && !t.steps[i].results.empty() ? t.steps[i].results[0].dtype : "";
      ++drawn;
      const int64_t v = min->i;
      at_max += (d == "uint8" && v == 255) || (d == "int8" && v == 127) || (d == "int16" && v == 32767) ||
                (d == "int32" && v == INT32_MAX) || (d == "int64" && v == INT64_MAX);
      past_max += out != Outcome::Ok && (v == 256 || v == 128 || v == 32768 || v == int64_t{INT32_MAX} + 1);
    }
  });
  EXPECT_GT(drawn, 600);
  EXPECT_GT(at_max, 200) << at_max << " of " << drawn;  // 124 before clamp_bound_edge
  EXPECT_GT(past_max, 100) << past_max << " of " << drawn;
}

TEST(GeneratorRuleBoundaries, PastReducedFloatExactRangeArangesReducedFloatsNearVectorWidths) {
  GeneratorPolicy policy;
  policy.ops = {"arange"};
  int drawn = 0, bfloat16 = 0, float16 = 0;
  for_each_generated(policy, 3000, [&](uint64_t seed, const Program& p, const GenerationLog& log) {
    for (size_t i : steps_drawing(p, log, "arange", "end", "past reduced float exact range")) {
      ++drawn;
      const int64_t end = std::get<Number>(p.steps[i].args[0]).i;
      const std::string d = dtype_kwarg(p.steps[i]);
      const int64_t past = end - (d == "bfloat16" ? 256 : 2048);
      const bool near_width = past > 0 && (past % 8 <= 1 || past % 8 == 7);
      bfloat16 += d == "bfloat16" && near_width;
      float16 += d == "float16" && near_width;
    }
  });
  EXPECT_GT(drawn, 500);
  EXPECT_GT((bfloat16 + float16) * 100, drawn * 70) << bfloat16 + float16 << " of " << drawn;
  EXPECT_GT(bfloat16, 200);
  EXPECT_GT(float16, 200);
}

}  // namespace
}  // namespace sc
