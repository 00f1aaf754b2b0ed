// stridecheck neighbours: the neighbour search (program/neighbours.h). From
// each given program it derives variants one edit away (an argument redrawn
// from each class of its domain, a step dropped, duplicated or reapplied, an
// op swapped for a sibling) and runs each differentially as replay does: two
// backends, each variant in a forked child with a wall-time limit, the same
// diff, the engine's UNDEFINED claims checked by brute force, the same
// verdicts. A failing variant whose signature is a known divergence (a
// signature entry of the nearest known_divergences.txt, or the signature of
// its own listed original) counts as known. Every other failing variant is
// written to --out as a program of its own (never over an existing file) and
// listed at the end. Depth first, in the order given.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "program/diff.h"
#include "program/known_divergences.h"
#include "program/neighbours.h"
#include "program/parser.h"
#include "program/printer.h"
#include "program/undefined_check.h"
#include "program/findings/isolated.h"
#include "program/findings/signature.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {
namespace fs = std::filesystem;

struct Settings {
  uint64_t seed = 0;
  size_t per_program = 64;
  GeneratedThreads threads;
  bool stats = false;
  bool quiet = false;
  bool print = false;  // --print: print the variants, run nothing
  std::string out_dir = "out/neighbours";
  Options run;  // --backends, --budget, --timeout
};

// What one run (the original or a variant) did.
struct RunReport {
  std::string verdict;    // pass, fail, undefined, skipped, error (fail includes crashes and hangs)
  std::string version;    // the oracle's version ("2.15.0"), "" when unknown
  std::string signature;  // when it failed
  std::string at_step;    // the right side's outcome at the varied step: ok, an error kind, skipped, ...
  std::string text;       // the diff, or what went wrong
};

std::string outcome_word(const StepObs& s) {
  switch (s.outcome) {
    case Outcome::Ok: return "ok";
    case Outcome::Error: return s.error_kind.empty() ? "error" : s.error_kind;
    case Outcome::Skipped: return "unbound";
    case Outcome::OverBudget:
    case Outcome::TimedOut: return "budget";
    case Outcome::Refused: return "refused";
  }
  return "?";
}

// "<verdict>\n<version>\n<signature>\n<outcome at step>\n<text>", in the child.
std::string child_report(const Program& p, size_t varied, const Options& o, const std::vector<std::string>& names,
                         ChildProgress* progress) {
  try {
    if (p.steps.empty()) return "skipped\n\n\n\nthe program has no steps\n";
    const bool check_claims = claims_checkable(names);
    const ClaimCheckedComparison checked = compare_checking_claims(
        [&] {
          return compare_program(p, o, names, /*record_contents=*/false, [progress](const std::string& b, size_t s) {
            if (progress) progress->set(b, s);
          });
        },
        check_claims);
    const Comparison& c = checked.comparison;
    const std::string version = strip_libtorch(c.right.backend_version);
    const std::string at = varied < c.right.steps.size() ? outcome_word(c.right.steps[varied]) : "";
    {
      const UndefinedCheck& u = checked.claims;
      if (!u.ok())
        return "fail\n" + version + "\n" + std::string(kUndefinedCheckSignature) + "\n" + at + "\n" +
               "an UNDEFINED claim of the engine does not hold under brute force:\n" + format_undefined_check(u);
    }
    return std::string(verdict_name(c.diff.verdict)) + "\n" + version + "\n" + failure_signature(p, c) + "\n" + at +
           "\n" + format_diff(p, c.left, c.right, c.diff);
  } catch (const std::exception& e) {
    return "error\n\n\n\n" + std::string(e.what()) + "\n";
  }
}

RunReport run_one(const Program& p, size_t varied, const Settings& s, const std::vector<std::string>& names) {
  ChildResult r = run_isolated([&](ChildProgress* pr) { return child_report(p, varied, s.run, names, pr); },
                               s.run.timeout_s);
  const std::string op = r.step >= 0 && static_cast<size_t>(r.step) < p.steps.size() ? p.steps[r.step].op : "";
  switch (r.end) {
    case ChildResult::End::Failed: return {"error", "", "", "", r.error};
    case ChildResult::End::TimedOut:
      return {"fail", "", timeout_signature(r.backend, op), "", "timed out (--timeout) at step " + std::to_string(r.step + 1)};
    case ChildResult::End::Crashed:
      return {"fail", "", r.signal ? crash_signature(r.signal, r.backend, op) : "crash exit " + std::to_string(r.exit_status),
              "", "crashed at step " + std::to_string(r.step + 1) + " on " + r.backend};
    case ChildResult::End::Reported: break;
  }
  RunReport out;
  std::string d = r.report;
  auto take = [&]() {
    size_t nl = d.find('\n');
    std::string line = d.substr(0, nl);
    d = nl == std::string::npos ? "" : d.substr(nl + 1);
    return line;
  };
  out.verdict = take();
  out.version = take();
  out.signature = take();
  out.at_step = take();
  out.text = d;
  return out;
}

std::string indent(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    out += "    " + text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

// DIR/<name>-s<seed>-n<k>.prog, or with -2, -3, ... when that exists: never over a file.
std::string free_path(const std::string& dir, const std::string& source, uint64_t seed, size_t k) {
  std::string stem = fs::path(source).stem().string();
  std::string base = dir + "/" + stem + "-s" + std::to_string(seed) + "-n" + std::to_string(k);
  std::string path = base + ".prog";
  for (int i = 2; fs::exists(path); ++i) path = base + "-" + std::to_string(i) + ".prog";
  return path;
}

enum Col { kPass, kFail, kKnown, kUndef, kSkip, kOk, kErr, kUnbound, kCols };
const char* const kColNames[kCols] = {"pass", "FAIL", "known", "undef", "skipped", "ok@step", "err@step", "unbound"};

struct Tally {
  int64_t variants = 0;
  int64_t col[kCols] = {};
  void add(const Tally& o) {
    variants += o.variants;
    for (int i = 0; i < kCols; ++i) col[i] += o.col[i];
  }
};

Settings parse(const std::vector<std::string>& args) {
  Settings s;
  s.run.budget_bytes = int64_t{1} << 28;
  s.run.timeout_s = 60;
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError("neighbours: " + args[i] + " needs a value");
      return args[++i];
    };
    const std::string& a = args[i];
    try {
      if (a == "--seed") s.seed = std::stoull(value());
      else if (a == "--per-program") {
        const long long n = std::stoll(value());
        if (n < 0) throw UsageError("neighbours: --per-program must not be negative");
        s.per_program = static_cast<size_t>(n);
      } else if (a == "--engine-threads") s.threads = parse_generated_threads(value());
      else if (a == "--stats") s.stats = true;
      else if (a == "--quiet" || a == "-q") s.quiet = true;
      else if (a == "--print") s.print = true;
      else if (a == "--out") s.out_dir = value();
      else if (a == "--backends" || a == "--budget" || a == "--timeout") {
        rest.push_back(a);
        rest.push_back(value());
      } else if (a.rfind("--", 0) == 0) throw UsageError("neighbours: unknown option '" + a + "'");
      else rest.push_back(a);
    } catch (const UsageError&) {
      throw;
    } catch (const std::logic_error&) {
      throw UsageError("neighbours: " + a + " needs a number");
    }
  }
  const Options o = parse_options(rest, {"--backends", "--budget", "--timeout"});
  s.run.backends = o.backends;
  if (std::find(rest.begin(), rest.end(), "--budget") != rest.end()) s.run.budget_bytes = o.budget_bytes;
  if (std::find(rest.begin(), rest.end(), "--timeout") != rest.end()) s.run.timeout_s = o.timeout_s;
  s.run.paths = o.paths;
  if (s.run.paths.empty()) throw UsageError("neighbours needs at least one program file or folder");
  return s;
}

// --print: the variants, as programs, each after a header naming the edit.
int print_variants(const Settings& s, const std::vector<std::string>& files) {
  int status = kExitOk;
  for (const std::string& path : files) {
    Program program;
    try {
      program = parse_file(path);
    } catch (const ParseError& e) {
      std::fprintf(stderr, "%s\n", e.text.c_str());
      status = kExitUsage;
      continue;
    }
    NeighbourPolicy policy;
    policy.seed = s.seed;
    policy.count = s.per_program;
    std::vector<Neighbour> variants = derive_neighbours(program, policy);
    for (size_t k = 0; k < variants.size(); ++k) {
      Neighbour& n = variants[k];
      if (s.threads.random || s.threads.fixed) {
        Choices c = Choices::from_seed(n.seed);
        set_generated_threads(n.program, c, s.threads);
      }
      std::printf("# neighbour %zu of %s: %s\n%s\n", k, path.c_str(), n.description().c_str(),
                  print_program(n.program).c_str());
    }
  }
  return status;
}

}  // namespace

int neighbours_main(const std::vector<std::string>& args) {
  const Settings s = parse(args);
  if (s.print) return print_variants(s, collect_programs(s.run.paths));
  const std::vector<std::string> names = backend_pair(s.run);
  check_backend_names(names);
  const std::vector<std::string> files = collect_programs(s.run.paths);
  const auto started = std::chrono::steady_clock::now();

  const std::string oracle = oracle_version();
  std::printf("stridecheck %s; oracle: %s\n", STRIDECHECK_VERSION, oracle.empty() ? "none" : oracle.c_str());
  std::printf("neighbours: seed %llu, up to %zu variants per program, %s vs %s, budget %lld bytes%s\n",
              static_cast<unsigned long long>(s.seed), s.per_program, names[0].c_str(), names[1].c_str(),
              static_cast<long long>(s.run.budget_bytes),
              s.threads.random ? ", engine threads 1..4 drawn per variant"
              : s.threads.fixed ? (", engine threads " + std::to_string(s.threads.fixed)).c_str()
                                : "");
  std::fflush(stdout);

  std::map<std::string, KnownDivergences> known_cache;
  auto known_for = [&](const std::string& path) -> const KnownDivergences* {
    auto f = find_known_divergences_file(path);
    if (!f) return nullptr;
    auto it = known_cache.find(*f);
    if (it == known_cache.end()) {
      try {
        it = known_cache.emplace(*f, read_known_divergences(*f)).first;
      } catch (const std::exception& e) {
        throw UsageError(e.what());
      }
    }
    return &it->second;
  };

  bool malformed = false;
  int64_t programs = 0, sites_total = 0, sites_varied = 0, candidates = 0, not_applicable = 0, repeats = 0;
  std::map<std::string, int64_t> originals;  // verdict -> count
  std::map<std::string, Tally> by_kind;
  std::map<std::tuple<std::string, std::string, std::string>, Tally> by_class;  // op, param, class
  std::map<std::string, std::string> validity_of;                            // class -> validity (stats)
  Tally all;
  std::vector<std::string> failing;  // "path: description: signature"
  std::set<std::string> new_signatures;

  struct Source {
    std::string path;
    const KnownDivergences* known = nullptr;
    RunReport orig;
    std::string version;
    bool orig_listed = false;
    std::vector<Neighbour> variants;
    size_t sites = 0;
    Program program;  // until its variants are derived
    std::set<size_t> varied_sites;
    Tally here;
  };
  std::vector<Source> sources;
  auto run_variant = [&](Source& src, size_t k) -> bool {  // false: a write failed
    Neighbour& n = src.variants[k];
    src.varied_sites.insert(n.site);
    if (s.threads.random || s.threads.fixed) {
      Choices c = Choices::from_seed(n.seed);
      set_generated_threads(n.program, c, s.threads);
    }
    size_t varied = 0;  // the varied step in the variant (its trailing comment says so)
    for (size_t i = 0; i < n.program.steps.size(); ++i)
      if (n.program.steps[i].trailing_comment.rfind("neighbour: ", 0) == 0) varied = i;
    RunReport r = run_one(n.program, varied, s, names);
    Tally one;
    one.variants = 1;
    const bool failed = r.verdict == "fail" || r.verdict == "error";
    bool is_known = false;
    if (failed && !r.signature.empty())
      is_known = (src.orig_listed && r.signature == src.orig.signature) ||
                 (src.known && src.known->find_signature(r.signature, src.version));
    if (failed) one.col[is_known ? kKnown : kFail] = 1;
    else if (r.verdict == "pass") one.col[kPass] = 1;
    else if (r.verdict == "undefined") one.col[kUndef] = 1;
    else one.col[kSkip] = 1;
    if (r.at_step == "ok") one.col[kOk] = 1;
    else if (r.at_step == "unbound") one.col[kUnbound] = 1;
    else if (!r.at_step.empty() && r.at_step != "budget" && r.at_step != "refused") one.col[kErr] = 1;
    src.here.add(one);
    all.add(one);
    by_kind[std::string(neighbour_kind_name(n.kind))].add(one);
    if (n.kind == NeighbourKind::Argument) {
      by_class[{n.op, n.param, n.klass}].add(one);
      validity_of[n.klass] = std::string(validity_name(n.validity));
    }
    if (!failed || is_known) return true;
    // A new failure: written as a program of its own.
    std::error_code ec;
    fs::create_directories(s.out_dir, ec);
    const std::string out = free_path(s.out_dir, src.path, s.seed, k);
    std::ofstream f(out);
    f << "# neighbour " << k << " of " << src.path << " (stridecheck neighbours --seed " << s.seed << " --per-program "
      << s.per_program << "): " << n.description() << "\n# " << r.verdict << " on " << names[0] << " vs " << names[1]
      << " (" << oracle << "): " << r.signature << "\n"
      << print_program(n.program);
    if (!f) {
      std::fprintf(stderr, "stridecheck neighbours: cannot write %s\n", out.c_str());
      return false;
    }
    failing.push_back(out + ": " + n.description() + ": " + r.signature);
    new_signatures.insert(r.signature);
    if (!s.quiet)
      std::printf("FAIL %s\n  %s\n  written to %s\n%s", src.path.c_str(), n.description().c_str(), out.c_str(),
                  indent(r.text).c_str());
    std::fflush(stdout);
    return true;
  };

  for (const std::string& path : files) {
    Program program;
    try {
      program = parse_file(path);
    } catch (const ParseError& e) {
      std::printf("MALFORMED %s\n  %s\n", path.c_str(), e.text.c_str());
      malformed = true;
      continue;
    }
    ++programs;
    Source src;
    src.path = path;
    src.known = known_for(path);
    // A variant failing as its original does, when the original is listed
    // as a known divergence, is known: only such originals are run (running
    // every original is replay's job).
    src.version = strip_libtorch(oracle);
    src.orig_listed = src.known && src.known->find(path, src.version);
    if (src.orig_listed) {
      src.orig = run_one(program, program.steps.size(), s, names);
      if (!src.orig.version.empty()) src.version = src.orig.version;
    }
    ++originals[src.orig_listed ? "listed" : "not run"];
    src.program = std::move(program);
    sources.push_back(std::move(src));
  }
  // Depth first, in the order given (folders sorted): each program's
  // variants, then the next program. Measured against planted bugs (four
  // view-op plants, programs the plant fails held out), this order found
  // each in 46-107 s; breadth first with shorter programs first found none
  // in 120 s: the long programs that exercise every op (edges/views_on_*)
  // came last.
  for (Source& src : sources) {
    NeighbourPolicy policy;
    policy.seed = s.seed;
    policy.count = s.per_program;
    NeighbourPlan plan;
    src.variants = derive_neighbours(src.program, policy, &plan);
    src.program = Program{};
    src.sites = plan.sites.size();
    sites_total += static_cast<int64_t>(plan.sites.size());
    candidates += static_cast<int64_t>(plan.candidates);
    not_applicable += static_cast<int64_t>(plan.not_applicable);
    repeats += static_cast<int64_t>(plan.repeats);
    for (size_t k = 0; k < src.variants.size(); ++k)
      if (!run_variant(src, k)) return kExitUsage;
    src.variants.clear();
    sites_varied += static_cast<int64_t>(src.varied_sites.size());
    if (!s.quiet)
      std::printf("%s: %s; %lld variants of %zu sites: %lld pass, %lld fail, %lld known, %lld undefined, %lld skipped\n",
                  src.path.c_str(), !src.orig_listed ? "original not run" : src.orig.verdict == "fail" ? "listed, fails" : ("listed, " + src.orig.verdict).c_str(),
                  static_cast<long long>(src.here.variants), src.sites, static_cast<long long>(src.here.col[kPass]),
                  static_cast<long long>(src.here.col[kFail]), static_cast<long long>(src.here.col[kKnown]),
                  static_cast<long long>(src.here.col[kUndef]), static_cast<long long>(src.here.col[kSkip]));
    std::fflush(stdout);
  }

  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("\nprograms: %lld (originals:", static_cast<long long>(programs));
  for (const auto& [v, n] : originals) std::printf(" %s %lld", v.c_str(), static_cast<long long>(n));
  std::printf(")\n");
  std::printf("variants: %lld (", static_cast<long long>(all.variants));
  bool first = true;
  for (const auto& [k, t] : by_kind)
    std::printf("%s%s %lld", first ? "" : ", ", k.c_str(), static_cast<long long>(t.variants)), first = false;
  std::printf("); of %lld candidates, %lld gave no program, %lld repeated one\n", static_cast<long long>(candidates),
              static_cast<long long>(not_applicable), static_cast<long long>(repeats));
  std::printf("verdicts: pass %lld, fail %lld, known %lld, undefined %lld, skipped %lld\n",
              static_cast<long long>(all.col[kPass]), static_cast<long long>(all.col[kFail]),
              static_cast<long long>(all.col[kKnown]), static_cast<long long>(all.col[kUndef]),
              static_cast<long long>(all.col[kSkip]));
  std::printf("at the varied step (%s): ok %lld, raised %lld, input unbound %lld\n", names[1].c_str(),
              static_cast<long long>(all.col[kOk]), static_cast<long long>(all.col[kErr]),
              static_cast<long long>(all.col[kUnbound]));
  std::printf("sites varied: %lld of %lld%s\n", static_cast<long long>(sites_varied), static_cast<long long>(sites_total),
              sites_varied == sites_total ? " (every site)" : "");
  std::printf("time: %.1f s (%.1f ms per run)\n", secs,
              1000.0 * secs / static_cast<double>(std::max<int64_t>(1, all.variants + originals["listed"])));
  if (s.stats) {
    std::printf("\n%-13s %-12s %-26s %-8s %8s", "op", "param", "class", "kind", "variants");
    for (int i = 0; i < kCols; ++i) std::printf(" %8s", kColNames[i]);
    std::printf("\n");
    auto row = [&](const std::string& op, const std::string& param, const std::string& cls, const std::string& kind,
                   const Tally& t) {
      std::printf("%-13s %-12s %-26s %-8s %8lld", op.c_str(), param.c_str(), cls.c_str(), kind.c_str(),
                  static_cast<long long>(t.variants));
      for (int i = 0; i < kCols; ++i) std::printf(" %8lld", static_cast<long long>(t.col[i]));
      std::printf("\n");
    };
    for (const auto& [k, t] : by_kind) row("*", k, "", "", t);
    for (const auto& [key, t] : by_class)
      row(std::get<0>(key), std::get<1>(key), std::get<2>(key), validity_of[std::get<2>(key)], t);
  }
  if (!failing.empty()) {
    std::printf("failing variants (%zu; %zu distinct signatures; each written as a program; stridecheck neighbours "
                "--seed %llu --per-program %zu FILE derives them again):\n",
                failing.size(), new_signatures.size(), static_cast<unsigned long long>(s.seed), s.per_program);
    for (const std::string& f : failing) std::printf("  %s\n", f.c_str());
  }
  if (malformed) return kExitUsage;
  return failing.empty() ? kExitOk : kExitFailed;
}

}  // namespace sc::tool
