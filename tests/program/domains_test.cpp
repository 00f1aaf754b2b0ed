// Every op of the op table has a domain for every parameter and keyword
// argument (program/domains.h), and the generator draws every declared class.
#include "program/domains.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "program/generator.h"
#include "program/ops.h"

namespace sc {
namespace {

// The ParamKinds a domain can produce.
bool produces(Domain d, ParamKind k) {
  using K = ParamKind;
  switch (d) {
    case Domain::Self:
    case Domain::ViewSelf:
    case Domain::FormatSelf:
    case Domain::Other: return k == K::Tensor;
    case Domain::Dim:
    case Domain::InsertDim:
    case Domain::Index:
    case Domain::Start:
    case Domain::Length:
    case Domain::SliceStep:
    case Domain::DiagOffset:
    case Domain::WindowSize:
    case Domain::WindowStep:
    case Domain::ArangeEnd:
    case Domain::Chunks: return k == K::Int || k == K::OptInt;
    case Domain::OptDim:
    case Domain::SliceBound:
    case Domain::StorageOffset: return k == K::OptInt;
    case Domain::DimList:
    case Domain::Permutation:
    case Domain::Shape:
    case Domain::Strides:
    case Domain::ViewShape:
    case Domain::ExpandShape:
    case Domain::Repeats:
    case Domain::IndexList: return k == K::IntList;
    case Domain::ViewShapeOrDType: return k == K::IntList;
    case Domain::MoveDims:
    case Domain::SplitSize: return k == K::IntOrIntList;
    case Domain::Scalar: return k == K::Scalar;
    case Domain::OptScalar: return k == K::OptScalar;
    case Domain::ScalarOrTensor: return k == K::ScalarOrTensor;
    case Domain::Values: return k == K::Values;
    default: return false;
  }
}

bool produces_kw(Domain d, KwKind k) {
  switch (d) {
    case Domain::DType:
    case Domain::OptDType:
    case Domain::SetByShape: return k == KwKind::DType;
    case Domain::OptFormat: return k == KwKind::MemoryFormat;
    case Domain::OptOut: return k == KwKind::Tensor;
    default: return false;
  }
}

TEST(Domains, EveryOpHasADomainForEveryParameter) {
  for (const OpSpec& op : all_ops()) {
    SCOPED_TRACE(std::string(op.name));
    const OpDomain* d = find_domain(op.name);
    ASSERT_NE(d, nullptr) << "no domain for " << op.name << " in program/domains.cpp";
    ASSERT_EQ(d->params.size(), op.params.size());
    for (size_t i = 0; i < op.params.size(); ++i) {
      EXPECT_EQ(d->params[i].param, op.params[i].name);
      EXPECT_TRUE(produces(d->params[i].domain, op.params[i].kind))
          << op.params[i].name << ": domain " << domain_name(d->params[i].domain) << " cannot produce its kind";
      if (!op.params[i].default_value) EXPECT_EQ(d->params[i].given_percent, 100) << op.params[i].name;
    }
    ASSERT_EQ(d->kwargs.size(), op.kwargs.size());
    for (size_t i = 0; i < op.kwargs.size(); ++i) {
      EXPECT_EQ(d->kwargs[i].param, op.kwargs[i].key);
      EXPECT_TRUE(produces_kw(d->kwargs[i].domain, op.kwargs[i].kind)) << op.kwargs[i].key;
    }
  }
  EXPECT_EQ(all_domains().size(), all_ops().size()) << "a domain for an op that is not in the table";
}

TEST(Domains, EveryDomainHasWeightedClassesWithDistinctNames) {
  for (const OpDomain& od : all_domains())
    for (const ParamDomain& pd : od.params) {
      std::set<std::string_view> names;
      int total = 0;
      for (const DomainClass& c : domain_classes(pd.domain)) {
        EXPECT_GT(c.weight, 0) << domain_name(pd.domain) << " " << c.name;
        EXPECT_TRUE(names.insert(c.name).second) << domain_name(pd.domain) << ": " << c.name << " twice";
        total += c.weight;
      }
      EXPECT_GT(total, 0);
    }
}

// Drawing from a class must be possible: each op alone, 400 programs, and
// every declared class of every parameter shows up in the generation log.
TEST(Domains, TheGeneratorDrawsEveryDeclaredClass) {
  for (const OpDomain& od : all_domains()) {
    SCOPED_TRACE(std::string(od.op));
    GeneratorPolicy policy;
    policy.ops = {std::string(od.op)};
    std::map<std::string_view, std::set<std::string_view>> seen;
    for (uint64_t seed = 0; seed < 400; ++seed) {
      Choices c = Choices::from_seed(seed);
      GenerationLog log;
      Program p = generate_program(c, policy, &log);
      ASSERT_EQ(log.steps.size(), p.steps.size());
      for (size_t i = 0; i < p.steps.size(); ++i)
        if (p.steps[i].op == od.op)
          for (const DrawnClass& d : log.steps[i]) seen[d.param].insert(d.klass);
    }
    auto check = [&](const ParamDomain& pd) {
      const Domain shown = pd.domain == Domain::SetByShape ? Domain::DType : pd.domain;
      for (const DomainClass& c : domain_classes(shown))
        EXPECT_TRUE(seen[pd.param].count(c.name)) << pd.param << ": class '" << c.name << "' never drawn";
    };
    for (const ParamDomain& pd : od.params) check(pd);
    for (const ParamDomain& pd : od.kwargs) check(pd);
  }
}

}  // namespace
}  // namespace sc
