// stridecheck exhaust: the domain enumeration (program/exhaust.h). For each
// op (every op of the table, or those --op names) it derives the cases --
// the catalogue's inputs x every class of every parameter's domain and the
// boundary values written out, combined where small -- and runs each as the
// generated sweep runs a program (in this process, both backends, the same
// diff, the engine's UNDEFINED claims checked by brute force; a backend that
// takes the process down leaves the op and case it died in on stdout, Note
// [A report that survives a crash]). A failing case whose signature is
// listed in corpus/known_divergences.txt (--known) counts as known; every
// other is written to --out as a program of its own (never over an existing
// file). One summary row per op: cases, verdicts, what the op step did on the
// oracle side, and the distinct error templates it raised.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "program/crash_note.h"
#include "program/diff.h"
#include "program/exhaust.h"
#include "program/known_divergences.h"
#include "program/message_template.h"
#include "program/ops.h"
#include "program/printer.h"
#include "program/undefined_check.h"
#include "program/findings/signature.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {
namespace fs = std::filesystem;

struct Settings {
  std::vector<std::string> ops;
  ExhaustPolicy policy;
  GeneratedThreads threads;
  bool stats = false;
  bool quiet = false;
  bool print = false;
  bool first_failure = false;
  bool list_ops = false;
  int first_phase = 1, last_phase = kExhaustDefaultPhases;  // --phase K or K-L (ExhaustPolicy::phase)
  size_t shard = 0, shards = 1;  // --shard K/N: every N-th case from the K-th (0-based), per op
  std::string out_dir = "out/exhaust";
  std::string known_file = "corpus/known_divergences.txt";
  int64_t budget = int64_t{1} << 28;
  std::vector<std::string> backends;
};

Settings parse(const std::vector<std::string>& args) {
  Settings s;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError("exhaust: " + args[i] + " needs a value");
      return args[++i];
    };
    const std::string& a = args[i];
    try {
      if (a == "--op") {
        s.ops.push_back(value());
        if (!find_op(s.ops.back())) throw UsageError("exhaust: no op '" + s.ops.back() + "'");
      } else if (a == "--seed") s.policy.seed = std::stoull(value());
      else if (a == "--product-cap") s.policy.product_cap = std::stoull(value());
      else if (a == "--engine-threads") s.threads = parse_generated_threads(value());
      else if (a == "--stats") s.stats = true;
      else if (a == "--quiet" || a == "-q") s.quiet = true;
      else if (a == "--print") s.print = true;
      else if (a == "--list-ops") s.list_ops = true;
      else if (a == "--wide") s.policy.wide = true;
      else if (a == "--depth") {
        s.policy.depth = std::stoi(value());
        if (s.policy.depth < 1 || s.policy.depth > 2) throw UsageError("exhaust: --depth is 1 or 2");
      } else if (a == "--phase") {
        const std::string v = value();
        const size_t dash = v.find('-');
        s.first_phase = std::stoi(v.substr(0, dash));
        s.last_phase = dash == std::string::npos ? s.first_phase : std::stoi(v.substr(dash + 1));
        if (s.first_phase < 1 || s.last_phase > kExhaustPhases || s.first_phase > s.last_phase)
          throw UsageError("exhaust: --phase is K or K-L, 1 <= K <= L <= " + std::to_string(kExhaustPhases));
      }
      else if (a == "--first-failure") s.first_failure = true;
      else if (a == "--out") s.out_dir = value();
      else if (a == "--known") s.known_file = value();
      else if (a == "--budget") s.budget = std::stoll(value());
      else if (a == "--backends") {
        const Options o = parse_options({"--backends", value()}, {"--backends"});
        s.backends = o.backends;
      } else if (a == "--shard") {
        const std::string v = value();
        const size_t slash = v.find('/');
        if (slash == std::string::npos) throw UsageError("exhaust: --shard needs K/N");
        s.shard = std::stoull(v.substr(0, slash));
        s.shards = std::stoull(v.substr(slash + 1));
        if (s.shards == 0 || s.shard >= s.shards) throw UsageError("exhaust: --shard K/N needs 0 <= K < N");
      } else throw UsageError("exhaust: unknown argument '" + a + "'");
    } catch (const UsageError&) {
      throw;
    } catch (const std::logic_error&) {
      throw UsageError("exhaust: " + a + " needs a number");
    }
  }
  if (s.ops.empty())
    for (const OpSpec& o : all_ops()) s.ops.push_back(std::string(o.name));
  return s;
}

struct Row {
  int64_t cases = 0, pass = 0, fail = 0, known = 0, undef = 0, skipped = 0, ok = 0, raised = 0, unbound = 0;
  size_t combinations = 0, not_applicable = 0;
  std::set<std::string> errors;  // kind + template, at the op step on the oracle side
  double secs = 0;
};

// DIR/<op>-<k>.prog, or with -2, -3, ... when that exists: never over a file.
std::string free_path(const std::string& dir, const std::string& op, size_t k) {
  std::string base = dir + "/" + op + "-" + std::to_string(k);
  std::string path = base + ".prog";
  for (int i = 2; fs::exists(path); ++i) path = base + "-" + std::to_string(i) + ".prog";
  return path;
}

}  // namespace

// The cases op has in the phases before `phase`: its case numbers there count
// on from them, as `--print` lists an op's phases in order.
size_t cases_before(const std::string& op, ExhaustPolicy policy, int phase) {
  size_t n = 0;
  for (int p = 1; p < phase; ++p) {
    policy.phase = p;
    n += exhaust_op(op, policy).size();
  }
  return n;
}

int exhaust_main(const std::vector<std::string>& args) {
  const Settings s = parse(args);
  if (s.list_ops) {  // the ops it would run, in order, one per line (no case is made)
    for (const std::string& op : s.ops) std::printf("%s\n", op.c_str());
    return kExitOk;
  }
  if (s.print) {
    for (const std::string& op : s.ops) {
      size_t offset = cases_before(op, s.policy, s.first_phase);  // --phase K: numbered after the phases before it
      for (int p = s.first_phase; p <= s.last_phase; ++p) {
        ExhaustPolicy policy = s.policy;
        policy.phase = p;
        std::vector<ExhaustCase> cases = exhaust_op(op, policy);
        for (size_t k = offset; k < offset + cases.size(); ++k)
          if (k % s.shards == s.shard)
            std::printf("# exhaust %s %zu: %s\n%s\n", op.c_str(), k, cases[k - offset].description().c_str(),
                        print_program(cases[k - offset].program).c_str());
        offset += cases.size();
      }
    }
    return kExitOk;
  }
  Options run;
  run.backends = s.backends;
  run.budget_bytes = s.budget;
  const std::vector<std::string> names = backend_pair(run);
  check_backend_names(names);
  const std::string oracle = oracle_version();
  const std::string version = strip_libtorch(oracle);
  std::optional<KnownDivergences> known;
  if (fs::exists(s.known_file)) known = read_known_divergences(s.known_file);
  std::printf("stridecheck %s; oracle: %s\n", STRIDECHECK_VERSION, oracle.empty() ? "none" : oracle.c_str());
  std::printf("exhaust: %zu ops, seed %llu, product cap %zu, %s vs %s, budget %lld bytes%s%s\n", s.ops.size(),
              static_cast<unsigned long long>(s.policy.seed), s.policy.product_cap, names[0].c_str(), names[1].c_str(),
              static_cast<long long>(s.budget),
              s.threads.random ? ", engine threads 1..4 drawn per case"
              : s.threads.fixed ? (", engine threads " + std::to_string(s.threads.fixed)).c_str()
                                : "",
              s.shards > 1 ? (", shard " + std::to_string(s.shard) + "/" + std::to_string(s.shards)).c_str() : "");
  std::fflush(stdout);
  const bool check_claims = claims_checkable(names);
  crash_note::enable();
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> failing;
  Row total;
  bool stop = false;
  // Phase 1 of every op (one step on the catalogue), then phase 2 (the
  // overlapping pairs), 3 (the chains), 4 (one step, the data ops' other
  // dtypes in the other layouts): ExhaustPolicy::phase. An op's case k counts
  // as in `--print`, whose list holds its phases in that order.
  std::map<std::string, size_t> before;  // op -> its cases in the phases run so far
  for (int phase = s.first_phase; phase <= s.last_phase && !stop; ++phase) {
    static const char* const kPhases[] = {"", "", "phase 2, the overlapping pairs:\n", "phase 3, the chains:\n",
                                          "phase 4, the data ops' other dtypes in the other layouts:\n",
                                          "phase 5, the language's surface forms:\n",
                                          "phase 6, resized out=:\n",
                                          "phase 7, the deep chains (other dtypes, three steps):\n"};
    if (phase > 1 && (!s.quiet || s.stats)) std::printf("%s", kPhases[phase]);
    for (const std::string& op : s.ops) {
      if (stop) break;
      const auto op_started = std::chrono::steady_clock::now();
      ExhaustPlan plan;
      ExhaustPolicy policy = s.policy;
      if (!before.count(op)) before[op] = cases_before(op, s.policy, phase);  // --phase K: counted, not run
      policy.phase = phase;
      std::vector<ExhaustCase> cases = exhaust_op(op, policy, &plan);
      const size_t offset = before[op];
      before[op] += cases.size();
      Row row;
      row.combinations = plan.combinations;
      row.not_applicable = plan.not_applicable;
      for (size_t j = (s.shard + s.shards - offset % s.shards) % s.shards; j < cases.size() && !stop; j += s.shards) {
        const size_t k = offset + j;
        ExhaustCase& ec = cases[j];
        crash_note::set("stridecheck exhaust: the process died in program " + std::to_string(total.cases + row.cases + 1) +
                        ", op " + op + ", case " + std::to_string(k) + " (" + ec.description() +
                        "); `stridecheck exhaust --print --op " + op + "` prints it\n");
        if (s.threads.random || s.threads.fixed) {
          Choices c = Choices::from_seed(s.policy.seed ^ (k * 0x9e3779b97f4a7c15ull));
          set_generated_threads(ec.program, c, s.threads);
        }
        Options o;
        o.budget_bytes = s.budget;
        const ClaimCheckedComparison checked = compare_checking_claims(
            [&] { return compare_program(ec.program, o, names, /*record_contents=*/false); }, check_claims);
        const Comparison& c = checked.comparison;
        std::string signature, text;
        bool failed = c.diff.verdict == Verdict::Fail;
        {
          const UndefinedCheck& u = checked.claims;
          if (!u.ok()) {
            failed = true;
            signature = std::string(kUndefinedCheckSignature);
            text = "an UNDEFINED claim of the engine does not hold under brute force:\n" + format_undefined_check(u);
          }
        }
        ++row.cases;
        if (ec.op_step < c.right.steps.size()) {
          const StepObs& at = c.right.steps[ec.op_step];
          if (at.outcome == Outcome::Ok) ++row.ok;
          else if (at.outcome == Outcome::Skipped) ++row.unbound;
          else if (at.outcome == Outcome::Error) {
            ++row.raised;
            row.errors.insert(at.error_kind + ": " + message_template(at.error_message));
          }
        }
        if (failed) {
          if (signature.empty()) {
            signature = failure_signature(ec.program, c);
            text = format_diff(ec.program, c.left, c.right, c.diff);
          }
          if (known && known->find_signature(signature, version)) {
            ++row.known;
            continue;
          }
          ++row.fail;
          std::error_code err;
          fs::create_directories(s.out_dir, err);
          const std::string path = free_path(s.out_dir, op, k);
          std::ofstream f(path);
          f << "# stridecheck exhaust --op " << op << " --seed " << s.policy.seed << ", case " << k << ": "
            << ec.description() << "\n# fail on " << names[0] << " vs " << names[1] << " (" << oracle
            << "): " << signature << "\n"
            << print_program(ec.program);
          failing.push_back(path + ": " + ec.description() + ": " + signature);
          if (!s.quiet)
            std::printf("FAIL %s case %zu: %s\n  written to %s\n  %s\n", op.c_str(), k, ec.description().c_str(),
                        path.c_str(), text.substr(0, text.find('\n', text.find('\n') + 1)).c_str());
          if (s.first_failure) stop = true;
        } else if (c.diff.verdict == Verdict::Pass) ++row.pass;
        else if (c.diff.verdict == Verdict::Undefined) ++row.undef;
        else ++row.skipped;
      }
      row.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - op_started).count();
      if (!s.quiet || s.stats) {
        std::printf("%-13s cases %6lld (of %zu combinations, %zu gave none): pass %lld, fail %lld, known %lld, undefined "
                    "%lld, skipped %lld; at the op: ok %lld, raised %lld (%zu distinct), unbound %lld; %.1f s\n",
                    op.c_str(), static_cast<long long>(row.cases), row.combinations, row.not_applicable,
                    static_cast<long long>(row.pass), static_cast<long long>(row.fail), static_cast<long long>(row.known),
                    static_cast<long long>(row.undef), static_cast<long long>(row.skipped),
                    static_cast<long long>(row.ok), static_cast<long long>(row.raised), row.errors.size(),
                    static_cast<long long>(row.unbound), row.secs);
        if (s.stats)
          for (const std::string& e : row.errors) std::printf("    %s\n", e.c_str());
        std::fflush(stdout);
      }
      total.cases += row.cases;
      total.pass += row.pass;
      total.fail += row.fail;
      total.known += row.known;
      total.undef += row.undef;
      total.skipped += row.skipped;
      total.combinations += row.combinations;
      total.not_applicable += row.not_applicable;
      for (const std::string& e : row.errors) total.errors.insert(op + ": " + e);
    }
  }
  crash_note::set("");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("\ncases: %lld (of %zu combinations, %zu gave no program)\n", static_cast<long long>(total.cases),
              total.combinations, total.not_applicable);
  std::printf("verdicts: pass %lld, fail %lld, known %lld, undefined %lld, skipped %lld\n",
              static_cast<long long>(total.pass), static_cast<long long>(total.fail),
              static_cast<long long>(total.known), static_cast<long long>(total.undef),
              static_cast<long long>(total.skipped));
  std::printf("distinct errors at the op steps (%s): %zu\n", names[1].c_str(), total.errors.size());
  std::printf("time: %.1f s (%.2f ms per case)\n", secs,
              1000.0 * secs / static_cast<double>(std::max<int64_t>(1, total.cases)));
  if (s.first_failure)
    std::printf("first failure: %s\n", failing.empty() ? "none" : ("case " + std::to_string(total.cases)).c_str());
  if (!failing.empty()) {
    std::printf("failing cases (%zu; each written as a program):\n", failing.size());
    for (const std::string& f : failing) std::printf("  %s\n", f.c_str());
  }
  return failing.empty() ? kExitOk : kExitFailed;
}

}  // namespace sc::tool
