#include "program/exhaust_forms.h"

#include <gtest/gtest.h>

#include <set>

#include "program/exhaust.h"
#include "program/ops.h"
#include "program/parser.h"
#include "program/printer.h"

namespace sc {
namespace {

Step step_of(const std::string& line) {
  return parse_program("x = zeros [2,3,4]\ny = zeros [3,4]\n" + line + "\n", "<test>").steps.back();
}

std::map<std::string, std::string> forms_of(const std::string& line, size_t rank) {
  std::map<std::string, std::string> m;  // what -> the step printed
  for (const SurfaceForm& f : surface_forms(step_of(line), rank)) m[f.what] = print_step(f.step);
  return m;
}

// Note [Exhaust surface forms]: each edit, as a person reading LibTorch would write it.
TEST(SurfaceForms, WriteDefaultsEdgesListsSpellingsAndKeywords) {
  auto flatten = forms_of("r = flatten x", 3);
  EXPECT_EQ(flatten["start_dim written out (0)"], "r = flatten x 0");
  EXPECT_EQ(flatten["end_dim written out (-1)"], "r = flatten x 0 -1");
  auto slice = forms_of("r = slice x 1 0 2", 3);
  EXPECT_EQ(slice["step written out (1)"], "r = slice x 1 0 2 1");
  EXPECT_EQ(slice["start none"], "r = slice x 1 none 2");
  auto permute = forms_of("r = permute x [2,0,1]", 3);
  EXPECT_EQ(permute["dims[1] = -4"], "r = permute x [2,-4,1]");
  EXPECT_EQ(permute["dims[2] = -4611686018427387905"], "r = permute x [2,0,-4611686018427387905]");
  EXPECT_EQ(permute["dims[0] = 9223372036854775807"], "r = permute x [9223372036854775807,0,1]");
  EXPECT_EQ(permute["dims empty"], "r = permute x []");
  EXPECT_EQ(permute["dims with 0 appended"], "r = permute x [2,0,1,0]");
  EXPECT_EQ(permute["dims with its first again at the end"], "r = permute x [2,0,1,2]");
  auto split = forms_of("r, r2 = split x 2", 3);
  EXPECT_EQ(split["split_size as a one-element list"], "r, r2 = split x [2]");
  EXPECT_EQ(split["dim written out (0)"], "r, r2 = split x 2 0");
  EXPECT_EQ(forms_of("r, r2 = split x [2]", 3)["split_size as an integer"], "r, r2 = split x 2");
  EXPECT_EQ(forms_of("r = view x [4,6]", 3)["size left out, dtype=int16"], "r = view x dtype=int16");
  EXPECT_EQ(forms_of("r = clone x", 3)["format=preserve_format"], "r = clone x format=preserve_format");
  EXPECT_EQ(forms_of("r = to x dtype=float64 format=contiguous", 3)["keywords in the other order"],
            "r = to x format=contiguous dtype=float64");
  EXPECT_EQ(forms_of("r = add x 1", 3)["out= x"], "r = add x 1 out=x");
  EXPECT_EQ(forms_of("r = add x 1", 3)["other = 0.0"], "r = add x 0.0");
  EXPECT_EQ(forms_of("r = expand_as x y", 3)["self as the other too"], "r = expand_as x x");
  EXPECT_EQ(forms_of("r = expand_as x y", 3)["the input as the other, self zeros []"], "r = expand_as s0 x");
  EXPECT_EQ(forms_of("clamp_ x 1", 3)["min none"], "clamp_ x none");
  EXPECT_EQ(forms_of("r = tensor [1,2]", 0)["values = [true, 0.5]"], "r = tensor [true,0.5]");
  // the unchanged step is no form
  for (const auto& [what, text] : forms_of("r = transpose x 0 1", 3)) EXPECT_NE(text, "r = transpose x 0 1") << what;
}

// Phase 5 writes every optional parameter of every op out at least once, and
// phases 5-7 are not in a plain run.
TEST(SurfaceForms, PhaseFiveWritesEveryDefaultOutAndIsOptIn) {
  ExhaustPolicy five;
  five.phase = 5;
  for (const OpSpec& op : all_ops()) {
    std::set<std::string> whats;
    for (const ExhaustCase& c : exhaust_op(std::string(op.name), five)) {
      ASSERT_LT(c.op_step, c.program.steps.size());
      EXPECT_EQ(parse_program(print_program(c.program), "<exhaust>").steps.size(), c.program.steps.size());
      for (const ExhaustChoice& ch : c.choices)
        if (ch.param == "form") whats.insert(ch.klass);
    }
    bool editable = !op.kwargs.empty();
    for (const ParamSpec& p : op.params) editable = editable || p.kind != ParamKind::Tensor;
    editable = editable || op.params.size() >= 2;  // a second tensor operand
    EXPECT_EQ(whats.empty(), !editable) << op.name;
    for (const ParamSpec& p : op.params)
      if (p.default_value) {
        bool written = false;  // view's size: left out beside dtype=
        for (const std::string& w : whats)
          written = written || w.rfind("= " + std::string(p.name) + " written out", 0) == 0 ||
                    w.rfind("= " + std::string(p.name) + " left out", 0) == 0;
        EXPECT_TRUE(written) << op.name << " " << p.name;
      }
  }
  for (const ExhaustCase& c : exhaust_op("flatten"))
    for (const ExhaustChoice& ch : c.choices) EXPECT_NE(ch.param, "form") << c.description();
}

}  // namespace
}  // namespace sc
