#include "program/findings/repro.h"

#include <cstdio>

#include "program/ops.h"

namespace sc {
namespace {

std::string said(const StepObs& s) {
  switch (s.outcome) {
    case Outcome::Ok: return "ok";
    case Outcome::Error: return s.error_kind + ": " + s.error_message;
    default: return std::string(outcome_name(s.outcome)) + (s.note.empty() ? "" : " (" + s.note + ")");
  }
}

}  // namespace

int result_index(const std::string& field) {
  if (field.rfind("result ", 0) != 0) return -1;
  try {
    return std::stoi(field.substr(7));
  } catch (const std::exception&) {
    return -1;
  }
}

std::string result_name(const Step& s, int r) {
  if (r < 0) return "";
  if (static_cast<size_t>(r) < s.outputs.size()) return s.outputs[r];
  const OpSpec* spec = find_op(s.op);
  if (r == 0 && spec && spec->results == Results::Self && !s.args.empty())
    if (auto* n = std::get_if<Name>(&s.args[0])) return n->id;
  if (r == 0 && s.kwarg("out"))
    if (auto* n = std::get_if<Name>(&s.kwarg("out")->value)) return n->id;
  return "";
}

ReproPlan plan_repro(const Program& program, const Comparison* c) {
  ReproPlan plan;
  plan.source = program.source_name;
  size_t last = program.steps.empty() ? 0 : program.steps.size() - 1;
  const Trace* oracle = nullptr;
  const Trace* other = nullptr;
  bool oracle_is_left = false;
  if (c) {
    oracle_is_left = c->left.backend.rfind("libtorch", 0) == 0 && c->right.backend.rfind("libtorch", 0) != 0;
    oracle = oracle_is_left ? &c->left : &c->right;
    other = oracle_is_left ? &c->right : &c->left;
    plan.oracle = oracle->backend;
    plan.other = other->backend;
    plan.oracle_version = oracle->backend_version;
    plan.verdict = std::string(verdict_name(c->diff.verdict));
    if (c->diff.first) {
      plan.difference = c->diff.first;
      plan.oracle_value = oracle_is_left ? c->diff.first->left : c->diff.first->right;
      plan.other_value = oracle_is_left ? c->diff.first->right : c->diff.first->left;
      last = std::min(last, c->diff.first->step);
    }
  }
  for (size_t i = 0; i < program.steps.size() && i <= last; ++i) {
    ReproStep s;
    s.index = i;
    if (oracle && i < oracle->steps.size()) {
      const StepObs& o = oracle->steps[i];
      s.oracle_said = said(o);
      s.oracle_kind = o.outcome == Outcome::Error ? o.error_kind : std::string(outcome_name(o.outcome));
      if (o.outcome == Outcome::Ok) s.oracle_results = o.results;
      if (other && i < other->steps.size()) s.other_said = said(other->steps[i]);
      if (o.outcome == Outcome::Error) s.kind = ReproStep::Kind::Raises;
      if (o.outcome == Outcome::Skipped) s.kind = ReproStep::Kind::Skipped;
      // A step the oracle did not run (budget, step element limit, refused as
      // memory-corrupting): neither does the script, and the comparison ended there.
      if (o.outcome != Outcome::Ok && o.outcome != Outcome::Error && o.outcome != Outcome::Skipped)
        s.kind = ReproStep::Kind::NotRun;
      // Where the sides disagree on raising, guard the call either way.
      if (other && i < other->steps.size() && other->steps[i].outcome == Outcome::Error && s.kind == ReproStep::Kind::Runs)
        s.kind = ReproStep::Kind::Raises;
    } else if (!c) {
      s.kind = ReproStep::Kind::Raises;  // not run: every step guarded
    }
    // The same on the other side: the comparison stops at the first step either side did not run.
    if (other && i < other->steps.size()) {
      Outcome x = other->steps[i].outcome;
      if (x == Outcome::OverBudget || x == Outcome::TimedOut || x == Outcome::Refused) s.kind = ReproStep::Kind::NotRun;
    }
    plan.steps.push_back(s);
    if (s.kind == ReproStep::Kind::NotRun) break;
  }
  return plan;
}

std::string finite_float_text(double f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", f);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace sc
