// stridecheck generate --stats: the domain coverage report. Generates
// programs, runs each on two backends, and counts per op, parameter and
// domain class (program/domains.h) how often the class was drawn and what the
// step then did on the oracle side (ok, each error kind, skipped because an
// input was unbound, over budget, refused), how often it was undefined and how
// often it was the first divergence. Classes never drawn show as holes.
#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "program/crash_note.h"
#include "program/domains.h"
#include "program/generator.h"
#include "program/ops.h"
#include "program/undefined_check.h"
#include "tools/message_tally.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {

// Outcome columns, in print order.
enum Col { kOk, kRuntime, kIndex, kValue, kType, kNotImpl, kOtherError, kUnbound, kBudget, kRefused, kUndef, kDiverged, kCols };
const char* const kColNames[kCols] = {"ok",      "Runtime", "Index",  "Value",   "Type",  "NotImpl",
                                      "otherErr", "unbound", "budget", "refused", "undef", "DIVERGED"};

struct Counts {
  int64_t drawn = 0;
  int64_t col[kCols] = {};
  void add(const Counts& o) {
    drawn += o.drawn;
    for (int i = 0; i < kCols; ++i) col[i] += o.col[i];
  }
};

Col outcome_col(const StepObs& s) {
  switch (s.outcome) {
    case Outcome::Ok: return kOk;
    case Outcome::Skipped: return kUnbound;
    case Outcome::OverBudget:
    case Outcome::TimedOut: return kBudget;
    case Outcome::Refused: return kRefused;
    case Outcome::Error:
      if (s.error_kind == "RuntimeError") return kRuntime;
      if (s.error_kind == "IndexError") return kIndex;
      if (s.error_kind == "ValueError") return kValue;
      if (s.error_kind == "TypeError") return kType;
      if (s.error_kind == "NotImplementedError") return kNotImpl;
      return kOtherError;
  }
  return kOtherError;
}

using Key = std::tuple<std::string, std::string, std::string>;  // op, param, class

void print_row(const std::string& op, const std::string& param, const std::string& cls, const std::string& validity,
               const Counts& c) {
  std::printf("%-13s %-12s %-26s %-8s %7lld", op.c_str(), param.c_str(), cls.c_str(), validity.c_str(),
              static_cast<long long>(c.drawn));
  for (int i = 0; i < kCols; ++i) std::printf(" %7lld", static_cast<long long>(c.col[i]));
  std::printf("%s\n", c.drawn == 0 && param != "*" ? "  <- never drawn" : "");
}

// The generate options that make seed S's program again: its engine thread
// count, the swarm chance (Note [Swarm programs]), the stale-header chance
// (Note [Stale headers]) and the step count change what it is.
std::string program_flags(const GeneratedThreads& threads, const GeneratorPolicy& policy) {
  std::string f = threads.random ? " --engine-threads random"
                  : threads.fixed > 0 ? " --engine-threads " + std::to_string(threads.fixed)
                                      : "";
  if (policy.swarm_percent > 0) f += " --swarm " + std::to_string(policy.swarm_percent);
  if (policy.stale_header_percent != GeneratorPolicy{}.stale_header_percent)
    f += " --stale-headers " + std::to_string(policy.stale_header_percent);
  if (policy.max_steps != GeneratorPolicy{}.max_steps) f += " --max-steps " + std::to_string(policy.max_steps);
  return f;
}

// What a crash in program k leaves on stdout: the seed, the totals of the
// programs before it, their failures, and how to go on past it.
std::string running_note(uint64_t seed, int k, int count, const int64_t verdicts[4],
                         const std::vector<std::string>& failures, const std::string& flags) {
  auto str = [](auto v) { return std::to_string(v); };
  const uint64_t s = seed + static_cast<uint64_t>(k);
  std::string note = "stridecheck generate --stats: the process died in seed " + str(s) + ", program " + str(k + 1) +
                     " of " + str(count) + " (stridecheck generate --seed " + str(s) + flags + " prints it)\n";
  if (k > 0)
    note += "the " + str(k) + " programs before it (seeds " + str(seed) + ".." + str(s - 1) + "): pass " +
            str(verdicts[0]) + ", fail " + str(verdicts[1]) + ", undefined " + str(verdicts[2]) + ", skipped " +
            str(verdicts[3]) + "\n";
  if (!failures.empty()) note += "failing programs:\n";
  for (const std::string& f : failures) note += "  " + f + "\n";
  if (k + 1 < count) note += "the rest: the same command with --seed " + str(s + 1) + " --count " + str(count - k - 1) + "\n";
  return note;
}

}  // namespace

int coverage_main(uint64_t seed, int count, int64_t budget_bytes, const std::vector<std::string>& names,
                  const GeneratedThreads& threads, const MessageReport& messages, const GeneratorPolicy& policy,
                  bool stop_at_first_failure) {
  const std::vector<ErrorTemplate> listed = listed_templates(messages);
  MessageTally tally;
  std::map<Key, Counts> counts;
  std::map<std::string, Counts> per_op;
  int64_t verdicts[4] = {};
  int64_t steps_total = 0;
  std::map<int, std::array<int64_t, 4>> verdicts_by_threads;  // engine thread count -> verdicts
  std::vector<std::string> failures;  // the first 50, to replay with generate --seed S
  // The engine's UNDEFINED claims, checked by brute force as the property and
  // the fuzz target check them (program/undefined_check.h): a claim too wide
  // hides a divergence from the diff, so a wrong claim fails the program.
  const bool check_claims = claims_checkable(names);
  int64_t claims_checked = 0, wrong_claims = 0;
  // The slowest programs (wall time of both backends together): a program that
  // takes seconds is a harness or engine cost cliff a campaign pays for millions
  // of times (generated seed 12630 took 27 s before Storage counted its flags).
  std::vector<std::pair<double, uint64_t>> slowest;
  // A backend that dies (LibTorch's own SIGSEGV or SIGFPE) still leaves the
  // totals so far and the seed it died in (Note [A report that survives a crash]).
  crash_note::enable();
  const std::string flags = program_flags(threads, policy);  // to print a seed's program again
  std::optional<uint64_t> stopped_at;  // --first-failure: the seed of the first failing program
  for (int k = 0; k < count; ++k) {
    crash_note::set(running_note(seed, k, count, verdicts, failures, flags));
    const auto started = std::chrono::steady_clock::now();
    Choices choices = Choices::from_seed(seed + static_cast<uint64_t>(k));
    GenerationLog log;
    Program p = generate_program(choices, policy, &log);
    set_generated_threads(p, choices, threads);
    Options o;
    o.budget_bytes = budget_bytes;
    const ClaimCheckedComparison checked = compare_checking_claims(
        [&] { return compare_program(p, o, names, /*record_contents=*/false); }, check_claims);
    const Comparison& c = checked.comparison;
    bool claim_wrong = false;
    if (check_claims) {
      const UndefinedCheck& u = checked.claims;
      claims_checked += u.checked;
      if (!u.ok()) {
        ++wrong_claims;
        claim_wrong = true;
        if (failures.size() < 50)
          failures.push_back("seed " + std::to_string(seed + static_cast<uint64_t>(k)) +
                             ": a wrong UNDEFINED claim: " + u.findings.front());
      }
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    slowest.emplace_back(ms, seed + static_cast<uint64_t>(k));
    std::sort(slowest.begin(), slowest.end(), std::greater<>());
    if (slowest.size() > 5) slowest.pop_back();
    ++verdicts[static_cast<int>(c.diff.verdict)];
    ++verdicts_by_threads[p.engine_threads][static_cast<int>(c.diff.verdict)];
    if (c.diff.verdict == Verdict::Fail && c.diff.first && failures.size() < 50)
      failures.push_back("seed " + std::to_string(seed + static_cast<uint64_t>(k)) + ": step " +
                         std::to_string(c.diff.first->step + 1) + " (" +
                         (c.diff.first->step < p.steps.size() ? p.steps[c.diff.first->step].op : "?") + ") " +
                         c.diff.first->field +
                         (p.engine_threads > 0 ? "; engine threads " + std::to_string(p.engine_threads) : ""));
    for (size_t i = 0; i < p.steps.size() && i < c.right.steps.size(); ++i) {
      const StepObs& right = c.right.steps[i];
      Counts one;
      one.drawn = 1;
      one.col[outcome_col(right)] = 1;
      if (right.undefined || (i < c.left.steps.size() && c.left.steps[i].undefined)) one.col[kUndef] = 1;
      if (c.diff.verdict == Verdict::Fail && c.diff.first && c.diff.first->step == i) one.col[kDiverged] = 1;
      per_op[p.steps[i].op].add(one);
      if (messages.enabled) tally.add(p.steps[i].op, right, "seed " + std::to_string(seed + static_cast<uint64_t>(k)));
      ++steps_total;
      if (i < log.steps.size())
        for (const DrawnClass& d : log.steps[i])
          counts[{p.steps[i].op, std::string(d.param), std::string(d.klass)}].add(one);
    }
    if (stop_at_first_failure && (c.diff.verdict == Verdict::Fail || claim_wrong)) {
      stopped_at = seed + static_cast<uint64_t>(k);
      count = k + 1;
      break;
    }
  }

  std::printf("domain coverage: %d generated programs (seeds %llu..%llu), %s vs %s, budget %lld bytes\n", count,
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed + count - 1),
              names[0].c_str(), names[1].c_str(), static_cast<long long>(budget_bytes));
  std::string oracle = oracle_version();
  if (!oracle.empty()) std::printf("oracle: %s\n", oracle.c_str());
  if (threads.random || threads.fixed > 0) {
    std::printf("engine threads (every loop split): %s;", threads.random ? "random 1..4 per program, drawn from its seed"
                                                                       : std::to_string(threads.fixed).c_str());
    for (const auto& [n, v] : verdicts_by_threads)
      std::printf(" %d: %lld programs (%lld fail)", n, static_cast<long long>(v[0] + v[1] + v[2] + v[3]),
                  static_cast<long long>(v[1]));
    std::printf("\n");
  }
  auto pct = [&](int64_t n) { return count ? 100.0 * static_cast<double>(n) / count : 0.0; };
  std::printf("programs: pass %lld (%.1f%%), fail %lld (%.1f%%), undefined %lld (%.1f%%), skipped %lld (%.1f%%); %lld steps\n",
              static_cast<long long>(verdicts[0]), pct(verdicts[0]), static_cast<long long>(verdicts[1]),
              pct(verdicts[1]), static_cast<long long>(verdicts[2]), pct(verdicts[2]),
              static_cast<long long>(verdicts[3]), pct(verdicts[3]), static_cast<long long>(steps_total));
  if (stopped_at)
    std::printf("first failure: program %d, seed %llu (--first-failure: the run stopped there)\n", count,
                static_cast<unsigned long long>(*stopped_at));
  else if (stop_at_first_failure)
    std::printf("first failure: none in %d programs\n", count);
  if (check_claims)
    std::printf("UNDEFINED claims and exact-overlap answers checked by brute force: %lld, wrong in %lld programs\n",
                static_cast<long long>(claims_checked), static_cast<long long>(wrong_claims));
  std::printf("columns: times the class was drawn; then what the step did on the %s side (ok, error kinds, input "
              "unbound, over budget, refused), steps marked undefined, and first divergences. '*' rows: the op.\n\n",
              names[1].c_str());
  std::printf("%-13s %-12s %-26s %-8s %7s", "op", "param", "class", "kind", "drawn");
  for (int i = 0; i < kCols; ++i) std::printf(" %7s", kColNames[i]);
  std::printf("\n");
  int holes = 0;
  for (const OpDomain& od : all_domains()) {
    const std::string op(od.op);
    print_row(op, "*", "", "", per_op[op]);
    std::set<std::string> printed_params;
    auto param_rows = [&](const ParamDomain& pd) {
      const std::string param(pd.param);
      const Domain shown = pd.domain == Domain::SetByShape ? Domain::DType : pd.domain;
      std::set<std::string> declared;
      for (const DomainClass& dc : domain_classes(shown)) {
        declared.insert(std::string(dc.name));
        const Counts& c = counts[{op, param, std::string(dc.name)}];
        if (c.drawn == 0) ++holes;
        print_row("", param, std::string(dc.name), std::string(validity_name(dc.validity)), c);
      }
      // Classes drawn outside the declaration (the write after empty_like).
      for (const auto& [key, c] : counts)
        if (std::get<0>(key) == op && std::get<1>(key) == param && !declared.count(std::get<2>(key)))
          print_row("", param, std::get<2>(key), "extra", c);
    };
    for (const ParamDomain& pd : od.params) param_rows(pd);
    for (const ParamDomain& pd : od.kwargs) param_rows(pd);
  }
  std::printf("\nholes (declared classes never drawn): %d\n", holes);
  if (messages.enabled) tally.print(stdout, names[1], messages.templates_file.empty() ? nullptr : &listed);
  std::printf("slowest programs:");
  for (const auto& [ms, s] : slowest) std::printf(" seed %llu %.0f ms;", static_cast<unsigned long long>(s), ms);
  std::printf("\n");
  if (!failures.empty()) {
    std::printf("failing programs (stridecheck generate --seed S%s prints one):\n", flags.c_str());
    for (const std::string& f : failures) std::printf("  %s\n", f.c_str());
  }
  return verdicts[1] || wrong_claims ? kExitFailed : kExitOk;
}

}  // namespace sc::tool
