#include "program/neighbours.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "program/ops.h"
#include "program/parser.h"
#include "program/printer.h"

namespace sc {
namespace {

const char* const kChain =
    "a = arange 24\n"
    "b = view a [2,3,4]\n"
    "c = transpose b 0 2\n"
    "d = select b 1 2\n"
    "add_ d 1\n";

std::vector<std::string> printed(const std::vector<Neighbour>& v) {
  std::vector<std::string> out;
  for (const Neighbour& n : v) out.push_back(print_program(n.program));
  return out;
}

std::optional<Program> redrawn(const char* text, size_t step, size_t param, std::string_view klass, uint64_t seed = 1) {
  Choices c = Choices::from_seed(seed);
  return redraw_parameter(parse_program(text), Redraw{step, false, param, klass}, c);
}

const Step& step_with_op(const Program& p, const std::string& op) {
  for (const Step& s : p.steps)
    if (s.op == op) return s;
  ADD_FAILURE() << "no " << op << " step in\n" << print_program(p);
  return p.steps.front();
}

TEST(Neighbours, TheSameSeedGivesTheSameVariantsAndAnotherSeedOthers) {
  const Program p = parse_program(kChain);
  NeighbourPolicy policy;
  policy.count = 30;
  policy.seed = 7;
  const auto a = printed(derive_neighbours(p, policy));
  EXPECT_EQ(a, printed(derive_neighbours(p, policy)));
  policy.seed = 8;
  EXPECT_NE(a, printed(derive_neighbours(p, policy)));
  EXPECT_EQ(a.size(), 30u);
}

TEST(Neighbours, AsManyVariantsAsSitesVaryEverySiteOnce) {
  const Program p = parse_program(kChain);
  NeighbourPlan plan;
  NeighbourPolicy policy;
  policy.count = 0;  // sized below
  derive_neighbours(p, policy, &plan);
  policy.count = plan.sites.size();
  std::vector<Neighbour> v = derive_neighbours(p, policy, &plan);
  std::set<size_t> sites;
  for (const Neighbour& n : v) sites.insert(n.site);
  // arange end, dtype; view self, size; transpose self, dim0, dim1; select self, dim, index; add_ self, other;
  // and each step's structure
  EXPECT_EQ(plan.sites.size(), 2u + 2 + 3 + 3 + 2 + 5);
  EXPECT_EQ(sites.size(), plan.sites.size());
}

TEST(Neighbours, EveryVariantPrintsAsAProgramThatParsesBackToIt) {
  for (const char* dir : {"corpus/views", "corpus/data"}) {
    for (const auto& e : std::filesystem::directory_iterator(std::string(STRIDECHECK_SOURCE_DIR) + "/" + dir)) {
      if (e.path().extension() != ".prog") continue;
      const Program p = parse_file(e.path().string());
      NeighbourPolicy policy;
      policy.count = 40;
      for (const Neighbour& n : derive_neighbours(p, policy)) {
        const std::string text = print_program(n.program);
        Program back;
        ASSERT_NO_THROW(back = parse_program(text)) << e.path() << ": " << n.description() << "\n" << text;
        EXPECT_TRUE(back.same_as(n.program)) << text;
        EXPECT_TRUE(n.program.recorded.empty());
      }
    }
  }
}

TEST(Neighbours, ArgumentVariantsDrawEachClassOfTheParametersDomain) {
  const Program p = parse_program(kChain);
  NeighbourPolicy policy;
  policy.count = 0;  // every candidate
  std::set<std::string> transpose_dim0;
  for (const Neighbour& n : derive_neighbours(p, policy)) {
    if (n.kind != NeighbourKind::Argument) continue;
    const OpDomain* dom = find_domain(n.op);
    ASSERT_NE(dom, nullptr);
    bool declared = false;
    for (const auto* list : {&dom->params, &dom->kwargs})
      for (const ParamDomain& pd : *list)
        if (pd.param == n.param)
          for (const DomainClass& c : domain_classes(pd.domain)) declared |= c.name == n.klass;
    EXPECT_TRUE(declared) << n.description();
    if (n.op == "transpose" && n.param == "dim0") transpose_dim0.insert(n.klass);
  }
  std::set<std::string> all;
  for (const DomainClass& c : domain_classes(Domain::Dim)) all.insert(std::string(c.name));
  EXPECT_EQ(transpose_dim0, all);
}

TEST(Neighbours, ADimIsDrawnAgainstItsInputsRankAndAnIndexAgainstItsDimsSize) {
  // transpose b 0 2: b has rank 3
  EXPECT_EQ(std::get<Number>(redrawn(kChain, 2, 1, "rank")->steps[2].args[1]).i, 3);
  EXPECT_EQ(std::get<Number>(redrawn(kChain, 2, 2, "-rank-1")->steps[2].args[2]).i, -4);
  // select b 1 2: dim 1 of b has size 3; the index class "size" is 3 and "-size-1" is -4
  EXPECT_EQ(std::get<Number>(redrawn(kChain, 3, 2, "size")->steps[3].args[2]).i, 3);
  EXPECT_EQ(std::get<Number>(redrawn(kChain, 3, 2, "-size-1")->steps[3].args[2]).i, -4);
  // the rest of the program is kept
  const Program p = parse_program(kChain);
  const Program v = *redrawn(kChain, 3, 2, "size");
  ASSERT_EQ(v.steps.size(), p.steps.size());
  for (size_t i = 0; i < p.steps.size(); ++i)
    if (i != 3) {
      EXPECT_TRUE(v.steps[i].same_as(p.steps[i])) << i;
    }
}

TEST(Neighbours, ALayoutTheProgramLacksIsMadeByAStepBeforeUnderAFreshName) {
  const char* text = "v0 = arange 24\nv1 = view v0 [2,3,4]\n";
  const Program v = *redrawn(text, 1, 0, "0-d");
  ASSERT_EQ(v.steps.size(), 3u) << print_program(v);
  EXPECT_EQ(v.steps[1].op, "as_strided");
  ASSERT_EQ(v.steps[1].outputs.size(), 1u);
  const std::string made = v.steps[1].outputs[0];
  EXPECT_NE(made, "v0");
  EXPECT_NE(made, "v1");
  EXPECT_EQ(std::get<Name>(v.steps[2].args[0]).id, made);
  EXPECT_EQ(v.steps[2].op, "view");
}

TEST(Neighbours, AnOmittedOptionalParameterIsWrittenWithTheOnesBeforeIt) {
  // squeeze a: dim is optional; "rank" writes it
  const Program v = *redrawn("a = zeros [2,1]\nb = squeeze a\n", 1, 1, "rank");
  ASSERT_EQ(v.steps[1].args.size(), 2u);
  EXPECT_EQ(std::get<Number>(v.steps[1].args[1]).i, 2);
  // view's reinterpreting class: no shape, dtype= instead
  const Program r = *redrawn("a = zeros [2,4]\nb = view a [8]\n", 1, 1, "reinterpret as dtype");
  EXPECT_EQ(r.steps[1].args.size(), 1u);
  EXPECT_NE(r.steps[1].kwarg("dtype"), nullptr);
}

TEST(Neighbours, AStepWhoseInputRaisedHasNothingToDrawAgainst) {
  // b = view a [5] raises (24 elements), so c's input is unbound
  EXPECT_FALSE(redrawn("a = arange 24\nb = view a [5]\nc = transpose b 0 1\n", 2, 1, "rank"));
}

TEST(Neighbours, StructuralEdits) {
  const Program p = parse_program(kChain);
  NeighbourPolicy policy;
  policy.count = 0;
  bool dropped_view = false, reapplied_transpose = false, duplicated_add = false, movedim = false;
  for (const Neighbour& n : derive_neighbours(p, policy)) {
    const Program& v = n.program;
    if (n.kind == NeighbourKind::Drop && n.op == "view") {
      // b's readers (transpose, select) go with it, and so does add_, which reads d
      ASSERT_EQ(v.steps.size(), 1u) << print_program(v);
      dropped_view = true;
    }
    if (n.kind == NeighbourKind::Reapply && n.op == "transpose") {
      const Step& again = v.steps[3];
      EXPECT_EQ(again.op, "transpose");
      EXPECT_EQ(std::get<Name>(again.args[0]).id, "c");
      EXPECT_NE(again.outputs[0], "c");
      reapplied_transpose = true;
    }
    if (n.kind == NeighbourKind::Duplicate && n.op == "add_") {
      ASSERT_EQ(v.steps.size(), 6u);
      EXPECT_TRUE(v.steps[5].same_as(v.steps[4]));
      duplicated_add = true;
    }
    if (n.kind == NeighbourKind::Sibling && n.op == "transpose" && n.param == "movedim") {
      EXPECT_EQ(step_with_op(v, "movedim").args.size(), 3u);
      movedim = true;
    }
  }
  EXPECT_TRUE(dropped_view);
  EXPECT_TRUE(reapplied_transpose);
  EXPECT_TRUE(duplicated_add);
  EXPECT_TRUE(movedim);
}

TEST(OpFamily, IsSymmetricAndLeavesTheOpOut) {
  for (const OpSpec& s : all_ops()) {
    for (const std::string& f : op_family(s.name)) {
      EXPECT_NE(f, s.name);
      auto back = op_family(f);
      EXPECT_NE(std::find(back.begin(), back.end(), std::string(s.name)), back.end()) << s.name << " " << f;
    }
  }
  auto inplace = op_family("add_");
  EXPECT_EQ(inplace, (std::vector<std::string>{"sub_", "mul_", "div_"}));
  EXPECT_TRUE(op_family("neg").empty());
}

}  // namespace
}  // namespace sc
