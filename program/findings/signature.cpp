#include "program/findings/signature.h"

#include <csignal>
#include <cstring>

#include "program/findings/isolated.h"
#include "program/undefined_check.h"

namespace sc {
namespace {

// "ok", "RuntimeError", "skipped", ...: what a side did at a step.
std::string side_outcome(const StepObs& s) {
  if (s.outcome == Outcome::Error) return s.error_kind.empty() ? "error" : s.error_kind;
  return std::string(outcome_name(s.outcome));
}

bool is_number(const std::string& w) { return !w.empty() && w.find_first_not_of("0123456789") == std::string::npos; }

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTRAP: return "SIGTRAP";
  }
  return "signal " + std::to_string(sig);
}

}  // namespace

std::string field_class(const std::string& field) {
  for (const char* prefix : {"result ", "storage "}) {
    const size_t n = std::strlen(prefix);
    if (field.rfind(prefix, 0) != 0) continue;
    size_t sp = field.find(' ', n);
    if (sp != std::string::npos && is_number(field.substr(n, sp - n))) return field.substr(sp + 1);
  }
  return field;
}

std::string failure_signature(const Program& p, const Comparison& c) {
  if (c.diff.verdict != Verdict::Fail || !c.diff.first) return "";
  const Difference& d = *c.diff.first;
  std::string op = d.step < p.steps.size() ? p.steps[d.step].op : "(end)";
  std::string cls = field_class(d.field);
  std::string sig = op + ": " + cls;
  const bool have_steps = d.step < c.left.steps.size() && d.step < c.right.steps.size();
  if (!have_steps) return sig;
  const StepObs& l = c.left.steps[d.step];
  const StepObs& r = c.right.steps[d.step];
  if (cls == "outcome" || cls == "error kind") sig += " " + side_outcome(l) + "|" + side_outcome(r);
  if (cls == "error message") sig += " " + side_outcome(r);
  return sig;
}

std::string crash_signature(int signal, const std::string& backend, const std::string& op) {
  return "crash " + signal_name(signal) + " on " + backend + " at " + (op.empty() ? "(start)" : op);
}

std::string timeout_signature(const std::string& backend, const std::string& op) {
  return "timeout on " + backend + " at " + (op.empty() ? "(start)" : op);
}

IsolatedSignature signature_isolated(const Program& program,
                                     const std::function<Comparison(const Program&, const StepHook&)>& compare,
                                     double timeout_s, bool check_claims) {
  auto work = [&](ChildProgress* progress) -> std::string {
    try {
      const ClaimCheckedComparison checked = compare_checking_claims(
          [&] {
            return compare(program, [progress](const std::string& backend, size_t step) {
              if (progress) progress->set(backend, step);
            });
          },
          check_claims);
      const Comparison& c = checked.comparison;
      if (!checked.claims.ok()) return "!" + std::string(kUndefinedCheckSignature);
      std::string sig = failure_signature(program, c);
      return sig.empty() ? "=" + std::string(verdict_name(c.diff.verdict)) : "!" + sig;
    } catch (const std::exception& e) {
      return std::string("?") + e.what();
    }
  };
  ChildResult r = run_isolated(work, timeout_s);
  auto op_at = [&](int64_t step) {
    return step >= 0 && static_cast<size_t>(step) < program.steps.size() ? program.steps[step].op : std::string();
  };
  IsolatedSignature s;
  switch (r.end) {
    case ChildResult::End::Failed: s.error = r.error; return s;
    case ChildResult::End::TimedOut: s.signature = timeout_signature(r.backend, op_at(r.step)); return s;
    case ChildResult::End::Crashed:
      s.signature = r.signal ? crash_signature(r.signal, r.backend, op_at(r.step))
                             : "exit " + std::to_string(r.exit_status) + " on " +
                                   (r.backend.empty() ? "(start)" : r.backend) + " at " +
                                   (op_at(r.step).empty() ? "(start)" : op_at(r.step));
      return s;
    case ChildResult::End::Reported: break;
  }
  if (r.report.empty()) {
    s.error = "the child's report is empty";
  } else if (r.report[0] == '!') {
    s.signature = r.report.substr(1);
  } else if (r.report[0] == '=') {
    s.verdict = r.report.substr(1);
  } else {
    s.error = r.report.substr(1);
  }
  return s;
}

}  // namespace sc
