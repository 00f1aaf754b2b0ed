#include "program/exhaust.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "engine/overlap.h"
#include "engine/version_profile.h"
#include "program/backend.h"
#include "program/domains.h"
#include "program/exhaust_overlap.h"
#include "program/ops.h"
#include "program/parser.h"
#include "program/printer.h"

namespace sc {
namespace {

// Each op's cases, made once when a test first asks (the whole enumeration
// takes several seconds; ctest runs each test in a process of its own, and
// most ask for a few ops).
class CaseCache {
 public:
  const std::vector<ExhaustCase>& at(const std::string& op) const {
    auto it = cases_.find(op);
    if (it == cases_.end()) it = cases_.emplace(op, exhaust_op(op)).first;
    return it->second;
  }

 private:
  mutable std::map<std::string, std::vector<ExhaustCase>> cases_;
};
const CaseCache& all_cases() {
  static const CaseCache c;
  return c;
}

bool has_choice(const std::vector<ExhaustCase>& cases, const std::string& param, const std::string& klass,
                const std::string& input = "") {
  for (const ExhaustCase& c : cases)
    if (input.empty() || c.input == input) {
      for (const ExhaustChoice& ch : c.choices)
        if (ch.param == param && ch.klass == klass) return true;
      for (const auto& also : c.also)
        for (const ExhaustChoice& ch : also)
          if (ch.param == param && ch.klass == klass) return true;
    }
  return false;
}

TEST(Exhaust, EveryOpHasCasesWhoseOpStepIsTheOp) {
  for (const OpSpec& op : all_ops()) {
    const auto& cases = all_cases().at(std::string(op.name));
    EXPECT_FALSE(cases.empty()) << op.name;
    for (const ExhaustCase& c : cases) {
      ASSERT_LT(c.op_step, c.program.steps.size()) << c.description();
      EXPECT_EQ(c.program.steps[c.op_step].op, op.name) << c.description();
    }
  }
}

// Every class of every parameter's domain (self and keywords too) is some case's choice.
TEST(Exhaust, CoversEveryClassOfEveryParameter) {
  for (const OpDomain& od : all_domains()) {
    const auto& cases = all_cases().at(std::string(od.op));
    auto check = [&](const ParamDomain& pd) {
      if (pd.domain == Domain::SetByShape) return;
      for (const DomainClass& dc : domain_classes(pd.domain))
        EXPECT_TRUE(has_choice(cases, std::string(pd.param), std::string(dc.name)))
            << od.op << " " << pd.param << ": class '" << dc.name << "' never enumerated";
    };
    for (const ParamDomain& pd : od.params) check(pd);
    for (const ParamDomain& pd : od.kwargs) check(pd);
  }
}

// The boundary values written out: select on a rank-2 input takes every dim
// -rank-2..rank+1 and every index -size-2..size+2 of dim 0, and the INT64 edges.
TEST(Exhaust, WritesOutEveryBoundaryValue) {
  const auto& cases = all_cases().at("select");
  for (int64_t d = -4; d <= 3; ++d)
    EXPECT_TRUE(has_choice(cases, "dim", "= " + std::to_string(d), "float32 contiguous 2-d")) << d;
  for (int64_t i = -6; i <= 6; ++i)
    EXPECT_TRUE(has_choice(cases, "index", "= " + std::to_string(i), "float32 contiguous 2-d")) << i;
  EXPECT_TRUE(has_choice(cases, "index", "= -9223372036854775808", "float32 contiguous 2-d"));
  EXPECT_TRUE(has_choice(cases, "index", "= 9223372036854775807", "float32 contiguous 2-d"));
  // clamp_'s bounds at uint8's max, and one past it
  EXPECT_TRUE(has_choice(all_cases().at("clamp_"), "min", "= 255", "uint8 contiguous 1-d"));
  EXPECT_TRUE(has_choice(all_cases().at("clamp_"), "min", "= 256", "uint8 contiguous 1-d"));
  // split's lists: a negative entry with a wrong sum (which check comes
  // first), with a right sum, and empty pieces (dim 0 of size 4)
  for (const char* l : {"[-1,4]", "[5,-1]", "[-1]", "[0,4]", "[4,0]", "[]"})
    EXPECT_TRUE(has_choice(all_cases().at("split"), "split_size", std::string("= ") + l, "float32 contiguous 2-d")) << l;
}

// View ops take every layout of the catalogue (but those aimed elsewhere); data ops every dtype; binary
// data ops every dtype pair; `to` every target dtype from every dtype.
TEST(Exhaust, CoversEveryLayoutAndDtypePair) {
  std::set<std::string> layouts, inputs_seen;
  std::set<std::string> names;
  size_t float32_inputs = 0;
  for (const ExhaustInput& in : exhaust_inputs()) {
    EXPECT_FALSE(in.layout.empty());
    EXPECT_TRUE(names.insert(in.name).second) << in.name;  // no layout named twice
    layouts.insert(in.layout);
    float32_inputs += in.dtype == engine::DType::Float32;
  }
  EXPECT_EQ(float32_inputs, layouts.size());  // every layout in float32, under its own name
  EXPECT_GE(layouts.size(), 34u);             // none dropped (a floor: new layouts need no edit here)
  for (const ExhaustCase& c : all_cases().at("transpose")) inputs_seen.insert(c.input);
  for (const ExhaustInput& in : exhaust_inputs())
    if (in.dtype == engine::DType::Float32)
      EXPECT_EQ(inputs_seen.count(in.name), exhaust_aimed_elsewhere("transpose", in) ? 0u : 1u) << in.name;
  // a layout aimed at one rule: reshape's stale header
  EXPECT_TRUE(has_choice(all_cases().at("reshape"), "shape", "product wraps to numel",
                         "float32 stale header, non-contiguous, numel overflow"));
  const char* dtypes[] = {"float32", "float64", "float16", "bfloat16", "int64",
                          "int32",   "int16",   "int8",    "uint8",    "bool"};
  for (const char* d1 : dtypes)
    for (const char* d2 : dtypes) {
      EXPECT_TRUE(has_choice(all_cases().at("mul"), "other dtype", std::string("= ") + d2,
                             std::string(d1) + " 0-d"))
          << d1 << " x " << d2;
      EXPECT_TRUE(has_choice(all_cases().at("to"), "dtype", d2, std::string(d1) + " contiguous 1-d"))
          << d1 << " -> " << d2;
    }
}

// Note [Extreme layouts]: on the engine imitating 2.15, each extreme input
// reaches the overflow check it is for (LibTorch raises the same; the
// enumeration compares them).
TEST(Exhaust, ExtremeLayoutsReachTheOverflowChecks) {
  engine::ProfileScope profile("2.15");
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  o.record_contents = false;
  struct Expected {
    const char* op;
    const char* layout;
    const char* message;
  };
  for (const Expected& e : std::initializer_list<Expected>{
           {"clone", "empty, sizes past int64 when multiplied", "Stride calculation overflowed"},
           {"repeat", "empty, an INT64_MAX size", "maximum size for tensor at dimension"},
           {"select", "empty at storage offset INT64_MAX - 1", "Tensor: invalid storage offset"},
           {"clone", "stale header, numel overflow", "Trying to create tensor with negative dimension"},
           {"select", "stale header, storage size past INT64_MAX bytes", "setStorage: sizes"},
           {"t", "stale header, sizes past 2^64 when multiplied", "are out of bounds for storage of size 96"},
           {"permute", "stale header, a stride wrapped negative", "as_strided: Negative strides are not supported"},
           {"alias", "stale header, a stride wrapped negative", "Stride calculation overflowed"},
           {"clone", "stale header, sizes past 2^64 over stride 0", "numel: integer multiplication overflow"},
           {"mT", "stale header, 2-d, storage size past INT64_MAX bytes",
            "Storage size calculation overflowed with sizes=[2, 2] and strides=[1, 2]"}}) {
    int cases = 0, reached = 0;
    for (const ExhaustCase& c : all_cases().at(e.op)) {
      if (c.input != std::string("float32 ") + e.layout) continue;
      ++cases;
      const Trace t = engine->run(c.program, o);
      reached += c.op_step < t.steps.size() && t.steps[c.op_step].outcome == Outcome::Error &&
                 t.steps[c.op_step].error_message.find(e.message) != std::string::npos;
    }
    EXPECT_GT(cases, 0) << e.op << " on " << e.layout;
    EXPECT_GT(reached, 0) << e.op << " on " << e.layout << ": never '" << e.message << "'";
  }
}

// "overlapping, far apart": its elements overlap (an in-place op's result is
// undefined where two reach one location) and span more than 4 numel + 4096
// elements, so the engine finds the twice-reached locations by sorting the
// offsets (locations_reached_twice, engine/elementwise.cpp), the path no
// program took before (mutants14); the claim check of each case then
// compares them with brute force. In-place ops take it: add_'s step there is
// documented as undefined.
TEST(Exhaust, FarApartOverlapTakesTheSortedPathOfTwiceReachedLocations) {
  engine::ProfileScope profile("2.15");
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  o.record_contents = false;
  int undefined = 0;
  for (const ExhaustCase& c : all_cases().at("add_")) {
    if (c.input != "float32 overlapping, far apart") continue;
    const Trace t = engine->run(c.program, o);
    ASSERT_LT(c.op_step, t.steps.size());
    size_t at = 0;  // the step binding x, its layout
    for (size_t i = 0; i < c.op_step; ++i)
      if (!c.program.steps[i].outputs.empty() && c.program.steps[i].outputs[0] == "x") at = i;
    ASSERT_EQ(t.steps[at].outcome, Outcome::Ok) << c.description();
    const TensorObs& x = t.steps[at].results.at(0);
    int64_t numel = 1, span = 0;
    for (size_t d = 0; d < x.sizes.size(); ++d) numel *= x.sizes[d], span += (x.sizes[d] - 1) * x.strides[d];
    EXPECT_GT(span, 4 * numel + 4096) << c.description();
    EXPECT_EQ(engine::exact_internal_overlap(x.sizes, x.strides), engine::MemOverlap::Yes) << c.description();
    undefined += t.steps[c.op_step].undefined;
  }
  EXPECT_GT(undefined, 0);
}

// `to` with format= alone (no dtype=) is enumerated, so the forms that may
// return self are met: on the N111 layout (every stride 1: strides-like
// channels_last but ambiguous, so contiguous) to(channels_last) copies, and
// the engine's result is a storage of its own (plant 107 returns self).
TEST(Exhaust, ToTakesFormatAloneOnTheAmbiguousN111Layout) {
  engine::ProfileScope profile("2.15");
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  o.record_contents = false;
  int copies = 0;
  for (const ExhaustCase& c : all_cases().at("to")) {
    if (c.input != "float32 N111") continue;
    const Step& s = c.program.steps[c.op_step];
    if (s.kwargs.size() != 1 || s.kwargs[0].key != "format" ||
        std::get<Ident>(s.kwargs[0].value).id != "channels_last")
      continue;
    const Trace t = engine->run(c.program, o);
    ASSERT_LT(c.op_step, t.steps.size());
    const StepObs& step = t.steps[c.op_step];
    ASSERT_EQ(step.outcome, Outcome::Ok) << c.description();
    ASSERT_FALSE(step.results.empty());
    copies += step.results[0].storage != t.steps[c.op_step - 1].results.at(0).storage;
  }
  EXPECT_GT(copies, 0);
}

// Each case prints and parses back to itself, and writes through its result.
TEST(Exhaust, CasesAreProgramsThatWriteThroughTheResult) {
  for (const OpSpec& spec : all_ops()) {
    const std::vector<ExhaustCase>& cases = all_cases().at(std::string(spec.name));
    for (size_t k = 0; k < cases.size(); k += 7) {
      const ExhaustCase& c = cases[k];
      const Program back = parse_program(print_program(c.program));
      EXPECT_TRUE(back.same_as(c.program)) << c.description();
      const Step& s = c.program.steps[c.op_step];
      if (!s.outputs.empty()) {
        ASSERT_LT(c.op_step + 1, c.program.steps.size());
        const Step& w = c.program.steps[c.op_step + 1];
        EXPECT_TRUE(w.op == "add_" || w.op == "fill_") << c.description();
        EXPECT_EQ(std::get<Name>(w.args[0]).id, s.outputs[0]);
      }
    }
  }
}

TEST(Exhaust, IsDeterministicAndTheSeedOnlyMovesTheDraws) {
  auto printed = [](const std::vector<ExhaustCase>& v) {
    std::vector<std::string> out;
    for (const ExhaustCase& c : v) out.push_back(print_program(c.program));
    return out;
  };
  for (const char* op : {"narrow", "add", "as_strided", "full"}) {
    EXPECT_EQ(printed(exhaust_op(op)), printed(all_cases().at(op))) << op;
    ExhaustPolicy other;
    other.seed = 140000001;
    const std::vector<ExhaustCase> moved = exhaust_op(op, other);
    EXPECT_NE(printed(moved), printed(all_cases().at(op))) << op;
    // the same combinations, described alike
    std::set<std::string> a, b;
    for (const ExhaustCase& c : moved) a.insert(c.description());
    for (const ExhaustCase& c : all_cases().at(op)) b.insert(c.description());
    EXPECT_GT(a.size(), b.size() * 9 / 10) << op;
  }
}

// Data ops take every layout in every dtype (not float32 alone).
TEST(Exhaust, DataOpsTakeEveryLayoutInEveryDtype) {
  for (const char* op : {"clone", "add_", "to", "neg", "copy_"}) {
    std::set<std::string> seen;
    for (const ExhaustCase& c : all_cases().at(op)) seen.insert(c.input);
    for (const ExhaustInput& in : exhaust_inputs())
      if (!exhaust_aimed_elsewhere(op, in)) EXPECT_TRUE(seen.count(in.name)) << op << " on " << in.name;
  }
}

// Note [Exhaust chains]: every view op makes a chain's first step on each
// chain layout (where LibTorch has it: t of 3-d and view of a transposed or
// expanded input raise), and every op with an input runs on every chain,
// followed by the write through its result.
TEST(Exhaust, ChainsTakeEveryViewOpThenEveryOp) {
  const std::vector<ExhaustInput>& chains = exhaust_chain_inputs();
  std::set<std::string> firsts;
  for (const ExhaustInput& in : chains) {
    firsts.insert(in.name.substr(0, in.name.find(" (")));
    EXPECT_EQ(in.steps.back().args.empty() ? "" : std::get<Name>(in.steps.back().args[0]).id, "x0") << in.name;
    EXPECT_EQ(in.steps.back().outputs[0], "x") << in.name;
  }
  const std::set<std::string> raise = {"float32 contiguous 3-d -> t", "float32 transposed -> view",
                                       "float32 stride 0 -> view"};
  for (const char* layout : {"contiguous 3-d", "transposed", "non-dense", "stride 0", "overlapping"})
    for (const OpSpec& op : all_ops())
      if (op.category == OpCategory::View) {
        const std::string name = std::string("float32 ") + layout + " -> " + std::string(op.name);
        EXPECT_EQ(firsts.count(name), raise.count(name) ? 0u : 1u) << name;
      }
  // each valid class of a first step's parameter alone (narrow's start, negative)
  EXPECT_TRUE(firsts.count("float32 transposed -> narrow"));
  bool negative_start = false;
  for (const ExhaustInput& in : chains)
    negative_start = negative_start || in.name == "float32 transposed -> narrow (start 'negative')";
  EXPECT_TRUE(negative_start);
  for (const char* op : {"narrow", "transpose", "view", "add_", "copy_", "clone", "contiguous", "neg", "zero_"}) {
    std::set<std::string> on;
    for (const ExhaustCase& c : all_cases().at(op)) {
      if (c.input.find(" -> ") == std::string::npos) continue;
      on.insert(c.input);
      ASSERT_GE(c.op_step, 1u);
      // the op reads the chain's x (a self class may insert steps of its own before it)
      EXPECT_EQ(std::get<Name>(c.program.steps[c.op_step].args[0]).id, "x") << c.description();
      if (!c.program.steps[c.op_step].outputs.empty()) EXPECT_EQ(c.program.steps[c.op_step + 1].op, "add_");
    }
    for (const ExhaustInput& in : chains) EXPECT_TRUE(on.count(in.name)) << op << " on " << in.name;
  }
  // most chains hold elements (a written-through empty view shows nothing)
  size_t empty = 0;
  for (const ExhaustInput& in : chains) empty += std::count(in.sizes.begin(), in.sizes.end(), 0) > 0;
  EXPECT_LT(empty * 5, chains.size()) << empty << " of " << chains.size() << " chains are empty";
  // depth 1: no chain
  ExhaustPolicy one;
  one.depth = 1;
  for (const ExhaustCase& c : exhaust_op("narrow", one)) EXPECT_EQ(c.input.find(" -> "), std::string::npos);
}

// Note [Exhaust chains]: the two-operand data ops on each overlapping pair,
// in every dtype, both orders and each operand with itself.
TEST(Exhaust, OverlapPairsInEveryRelationOrderAndDtype) {
  const char* dtypes[] = {"float32", "float64", "float16", "bfloat16", "int64",
                          "int32",   "int16",   "int8",    "uint8",    "bool"};
  for (const char* op : {"add_", "sub_", "mul_", "div_", "copy_", "fill_", "add", "mul", "neg"}) {
    std::set<std::string> seen;
    for (const ExhaustCase& c : all_cases().at(op))
      if (c.input.find(" pair '") != std::string::npos) seen.insert(c.input);
    for (const char* d : dtypes)
      for (const OverlapPair& pair : overlap_pairs(engine::DType::Float32))
        if (pair.relation != "reinterpreted bytes")
          EXPECT_TRUE(seen.count(std::string(d) + " pair '" + pair.relation + "'")) << op << " " << d << " " << pair.relation;
  }
  // copy_ of a square view from its transpose, both ways (Partial: raises), and
  // the base written from a 0-d element of it; add with out= the read view's
  // overlapping sibling; an expanded row written in place (internal overlap)
  const auto& copy = all_cases().at("copy_");
  EXPECT_TRUE(has_choice(copy, "operands", "= copy_ p q", "float32 pair 'same range, transposed'"));
  EXPECT_TRUE(has_choice(copy, "operands", "= copy_ q p", "float32 pair 'same range, transposed'"));
  EXPECT_TRUE(has_choice(all_cases().at("add_"), "operands", "= add_ a q", "int64 pair 'the base and a 0-d element of it'"));
  EXPECT_TRUE(has_choice(all_cases().at("add"), "operands", "= add q p out=p", "float32 pair 'shifted by one element'"));
  EXPECT_TRUE(has_choice(all_cases().at("mul_"), "operands", "= mul_ p p", "bool pair 'expanded row over its matrix'"));
}

TEST(Exhaust, EdgeValuesHoldEachDtypesEdges) {
  for (const ExhaustInput& in : exhaust_inputs()) EXPECT_EQ(dtype_edge_values(in.dtype).size(), 24u) << in.name;
  // float64 holds integers past 2^31 whose low byte is not 0 (float64 -> uint8 goes through int64)
  bool past = false;
  for (const Number& n : dtype_edge_values(engine::DType::Float64))
    past = past || (n.f > 2147483648.0 && n.f < 9.2e18 && static_cast<int64_t>(n.f) % 256 != 0);
  EXPECT_TRUE(past);
}

}  // namespace
}  // namespace sc
