#include "program/exhaust_deep.h"

#include <string>

#include "program/stable_hash.h"

namespace sc {
namespace {

using engine::DType;

void rename(std::vector<Step>& steps, const std::string& from, const std::string& to) {
  for (Step& s : steps) {
    for (std::string& o : s.outputs)
      if (o == from) o = to;
    for (Arg& a : s.args)
      if (auto* n = std::get_if<Name>(&a); n && n->id == from) n->id = to;
    for (KwArg& k : s.kwargs)
      if (auto* n = std::get_if<Name>(&k.value); n && n->id == from) n->id = to;
  }
}

}  // namespace

const std::vector<ExhaustInput>& exhaust_deep_chain_inputs(const ExhaustPolicy& policy) {
  static ExhaustInputsPerSeed memo;
  return memo.get(policy.seed, [&](std::vector<ExhaustInput>& out) {
    for (DType d : {DType::Int64, DType::Float16, DType::Bool})
      for (const char* layout : kExhaustChainLayouts)
        for (const ExhaustInput& in : exhaust_inputs())
          if (in.dtype == d && in.layout == layout) {
            ExhaustInput base = in;
            rename(base.steps, "x", "x0");
            for (ExhaustInput& c : exhaust_view_steps_on(base, policy, "dtype chain", "dtype chain class"))
              out.push_back(std::move(c));
          }
    for (const ExhaustInput& chain : exhaust_chain_inputs(policy)) {
      if (chain.layout != "chain") continue;
      ExhaustInput base = chain;
      rename(base.steps, "x0", "w0");
      rename(base.steps, "x2", "w2");  // split, chunk, unbind's second piece
      rename(base.steps, "x", "x0");
      for (ExhaustInput& c : exhaust_view_steps_on(base, policy, "chain of three", "")) out.push_back(std::move(c));
    }
  });
}

bool deep_chain_sampled(std::string_view op, const ExhaustInput& in, const ExhaustPolicy& policy) {
  if (in.layout != "chain of three" || policy.wide) return true;
  return fnv1a(std::string(op) + "|" + in.name) % kDeepChainSample == 0;
}

}  // namespace sc
