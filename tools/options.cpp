#include <algorithm>
#include <charconv>
#include <fstream>

#include "engine/kernels/cpu/parallel.h"
#include "engine/version_profile.h"
#include "program/backend.h"
#include "program/ir.h"
#include "program/parser.h"
#include "program/trace_text.h"
#include "tools/tool.h"
#ifdef STRIDECHECK_HAVE_TORCH
#include "oracle/oracle.h"
#endif

namespace sc::tool {
namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t c = s.find(',', start);
    out.push_back(s.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  return out;
}

}  // namespace

Options parse_options(const std::vector<std::string>& args, const std::vector<std::string>& allowed) {
  Options o;
  // --trace-budget goes with --budget: both bound what a run may hold (DESIGN.md Limits).
  auto takes = [&](const std::string& f) {
    const std::string g = f == "--trace-budget" ? std::string("--budget") : f;
    return std::find(allowed.begin(), allowed.end(), g) != allowed.end();
  };
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    std::string value;
    bool has_inline = false;
    if (a.rfind("--", 0) == 0) {
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
        has_inline = true;
      }
    }
    auto next = [&]() -> std::string {
      if (has_inline) return value;
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--") {
      o.paths.insert(o.paths.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (a.rfind("--", 0) != 0 || a == "-") {
      o.paths.push_back(args[i]);
      continue;
    }
    if (!takes(a)) throw UsageError("unknown option " + a);
    if (a == "--device") {
      o.device = next();
      if (o.device.empty()) throw UsageError("--device needs a device name (cpu, cuda, meta)");
    } else if (a == "--backends" || a == "--backend") {
      o.backends = split_commas(next());
      for (const std::string& b : o.backends)
        if (b.empty()) throw UsageError(a + ": empty backend name");
      if (a == "--backends" && o.backends.size() != 2 && !(o.backends.size() == 1))
        throw UsageError("--backends takes two backends, like engine:cpu,libtorch:cpu");
      if (a == "--backend" && o.backends.size() != 1) throw UsageError("--backend takes one backend");
    } else if (a == "--budget" || a == "--trace-budget") {
      std::string v = next();
      int64_t b = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), b);
      if (ec != std::errc() || p != v.data() + v.size() || b < 0) throw UsageError(a + " takes a byte count, got '" + v + "'");
      (a == "--budget" ? o.budget_bytes : o.trace_budget_bytes) = b;
    } else if (a == "--timeout") {
      std::string v = next();
      double t = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), t);
      if (ec != std::errc() || p != v.data() + v.size() || !(t > 0)) throw UsageError("--timeout takes seconds > 0, got '" + v + "'");
      o.timeout_s = t;
    } else if (a == "--quiet" || a == "-q") {
      if (has_inline) throw UsageError(a + " takes no value");
      o.quiet = true;
    } else if (a == "--against-recorded") {
      if (has_inline) throw UsageError(a + " takes no value");
      o.against_recorded = true;
    } else if (a == "--semantics") {
      o.semantics = next();
      if (!engine::choose_profile(o.semantics))
        throw UsageError("--semantics takes a PyTorch version like 2.15 or 1.13, got '" + o.semantics + "'");
    } else if (a == "--known") {
      o.known_file = next();
    } else if (a == "--engine-threads") {
      std::string v = next();
      const std::optional<int> n = parse_engine_thread_count(v);
      if (!n)
        throw UsageError("--engine-threads takes a thread count 1.." + std::to_string(kMaxEngineThreads) + ", got '" +
                         v + "'");
      o.engine_threads = *n;
    }
  }
  return o;
}

std::vector<std::string> backend_pair(const Options& o) {
  if (o.backends.size() == 2) return o.backends;
  if (o.backends.size() == 1) throw UsageError("--backends takes two backends, like engine:cpu,libtorch:cpu");
  return {"engine:" + o.device, "libtorch:" + o.device};
}

void check_backend_names(const std::vector<std::string>& names) {
  auto known = registered_implementations();
  for (const std::string& n : names) {
    std::string impl = n.substr(0, n.find(':'));
    if (std::find(known.begin(), known.end(), impl) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      std::string hint = impl == "libtorch" ? " (this build has no LibTorch: use --against-recorded, or --backends naming "
                                              "engine backends)"
                                            : "";
      throw UsageError("unknown backend '" + n + "' (registered: " + list + ")" + hint);
    }
  }
}

std::string oracle_version() {
#ifdef STRIDECHECK_HAVE_TORCH
  return "LibTorch " + sc::oracle::libtorch_description();
#else
  return "";
#endif
}

std::string strip_libtorch(std::string v) {
  if (v.rfind("LibTorch ", 0) == 0) v = v.substr(9);
  return v.substr(0, v.find(' '));
}

void apply_semantics(const Options& o) {
  if (o.semantics.empty()) return;
  auto choice = engine::choose_profile(o.semantics);
  if (!choice) throw UsageError("--semantics takes a PyTorch version like 2.15 or 1.13, got '" + o.semantics + "'");
  engine::set_profile(*choice);
}

void apply_engine_threads(const Options& o) {
  if (o.engine_threads <= 0) return;
  engine::cpu::set_num_threads(o.engine_threads);
  engine::cpu::set_parallel_min_elements(1);
}

void imitate_recorded_version(const Program& program) {
  if (program.recorded.empty()) return;
  std::string v = parse_recorded(program.recorded).backend_version;  // "LibTorch 2.15.0 (PyPI wheel ...)"
  if (v.rfind("LibTorch ", 0) != 0) return;
  if (auto p = engine::choose_profile(v.substr(9))) engine::set_profile(*p);
}

void check_recording(const Program& program, const std::string& path) {
  if (program.recorded.empty()) return;  // compare_program says there is none
  try {
    parse_recorded(program.recorded);
  } catch (const RecordingError& e) {
    if (e.index < 0) throw ParseError(path, 0, 0, e.what());
    // Program::recorded keeps the `#>` lines in file order (program/parser.cpp).
    std::ifstream in(path, std::ios::binary);
    std::string line;
    int line_no = 0, seen = -1;
    while (std::getline(in, line)) {
      ++line_no;
      const size_t first = line.find_first_not_of(" \t");
      if (first != std::string::npos && line.compare(first, 2, "#>") == 0 && ++seen == e.index)
        throw ParseError(path, line_no, static_cast<int>(first) + 1, e.why);
    }
    throw ParseError(path, 0, 0, e.what());
  }
}

std::string semantics_text(const Options& o) {
  if (o.semantics.empty() && o.against_recorded)
    return "engine semantics: the PyTorch of each recording's LibTorch version";
  const engine::ProfileChoice& p = engine::current_profile();
  std::string from = !o.semantics.empty()        ? "--semantics"
                     : !oracle_version().empty() ? "the oracle's version"
                                                 : "the newest profile; --semantics picks another";
  std::string t = "engine semantics: PyTorch " + engine::to_string(p.profile) + " (from " + from + ")";
  if (!p.exact) t += "; " + p.note();
  return t;
}

std::string version_text() {
  std::string v = std::string("stridecheck ") + STRIDECHECK_VERSION + "\n";
  std::string o = oracle_version();
  v += o.empty() ? "oracle: none (built without LibTorch)\n" : "oracle: " + o + "\n";
  const engine::ProfileChoice& p = engine::current_profile();
  v += "engine semantics: PyTorch " + engine::to_string(p.profile) + (p.exact ? "" : " (" + p.note() + ")") + "\n";
  return v;
}

Comparison compare_program(const Program& program, const Options& o, const std::vector<std::string>& names,
                           bool record_contents, std::function<void(const std::string&, size_t)> on_step) {
  RunOptions ro;
  ro.budget_bytes = o.budget_bytes;
  ro.trace_budget_bytes = o.trace_budget_bytes;
  ro.record_contents = record_contents;
  ro.on_step = std::move(on_step);
  if (o.against_recorded) {
    auto b = make_backend(names[0]);
    return compare_with_recording(program, *b, ro);
  }
  auto left = make_backend(names[0]);
  auto right = make_backend(names[1]);
  return compare_backends(program, *left, *right, ro);
}

std::string help_text() {
  return R"(usage: stridecheck <command> [options] ...

commands:
  replay [options] PATH...   run each program (*.prog; directories are searched
                             recursively) on two backends and diff the traces;
                             prints the diff of each program that does not pass
                             and ends with "N passed, M failed"
      --device D             cpu (default), cuda or meta
      --backends A,B         the two backends (default engine:D,libtorch:D)
      --against-recorded     compare one backend (default engine:D, or the first
                             of --backends) with the '#>' lines in each file
      --budget BYTES         allocation budget per backend (default 1073741824)
      --trace-budget BYTES   trace budget per backend (default 1073741824): a
                             program whose observations would hold more stops
                             there, skipped (taken wherever --budget is)
      --timeout SECONDS      wall-time limit per program (default 60)
      --known FILE           known divergences (default: known_divergences.txt
                             in a folder above each program)
      --semantics VERSION    the PyTorch the engine imitates (1.13 or 2.15; others
                             pick the nearest). Default: the oracle's version, or
                             with --against-recorded each recording's
      --engine-threads N     the engine's CPU kernels split every loop over N
                             threads (default: one thread, loops unsplit); the
                             traces must not change
      --quiet                print only failures and the summary
  run [options] FILE         print both traces side by side and the diff
                             (--device, --backends, --budget, --against-recorded,
                             --semantics, --engine-threads)
  record [options] FILE...   run the oracle (or --backend B) and write its trace
                             into each file as '#>' lines (--device, --budget)
  minimize [options] FILE [-o OUT]
                             shrink a program that diverges (or crashes a
                             backend) to a small one with the same failure
                             signature; prints what it removed on stderr, the
                             program on OUT or stdout (never over FILE)
                             (--device, --backends, --budget, --timeout per
                             candidate (default 20), --max-tests N (default 3000))
  signature [options] FILE...
                             "<failure signature>\t<file>" for each program, or
                             its verdict when it does not fail (pass, undefined,
                             skipped); with --known FILE, failing programs end
                             in a tab and known (ENTRY), or new
                             (--device, --backends, --budget, --timeout, --known)
  repro --as python|cpp [options] FILE
                             a standalone PyTorch script (or LibTorch C++ file,
                             with its compile line) that runs the program step
                             by step and prints the fact the two sides disagree
                             on, each side's value beside it; --no-run: without
                             running it (--device, --backends, --budget)
  exercise [options] PATH... "op,outcome,count" (CSV): how often each op ran,
                             raised each error kind, was undefined or skipped,
                             on the oracle's side, over programs (*.prog) and
                             fuzzer inputs (any other file) (--device, --backends)
      --messages             instead, per op, each error template the oracle
                             raised, with counts and a first file
      --templates FILE       --messages, and the templates of the list FILE
                             (corpus/error_templates.txt) no file reached
  seeds [--seed N] [--count K] --out DIR
                             K fuzzer inputs standing for generated programs
                             (a campaign's or ClusterFuzzLite's seed corpus)
  decode FILE...             print the program a fuzzer input (bytes) stands for
                             (with the engine thread count the fuzz target drew)
  generate [--seed N] [--count K] [--out DIR]
                             K generated programs (seeds N, N+1, ...) on stdout,
                             or one file each in DIR (existing files are kept)
      --engine-threads N|random
                             each program's engine thread count, as its first
                             line '#! engine-threads N' (every loop split):
                             N, or 1..4 drawn from the program's seed
      --swarm PERCENT        the chance a program is a swarm program: a random
                             half of the ops and of each domain's classes left
                             out, up to twice the steps (default 0: every
                             program draws from everything)
      --stale-headers PERCENT
                             the chance per step of a failed out= resize made on
                             purpose and 1..4 steps reading the header it
                             leaves (default 2; 0: none)
      --max-steps N          steps after the first creation step: up to N
                             (default 16; a swarm program up to 2N)
      --stats                run them on two backends (--backends A,B, --budget
                             BYTES, default 16 MiB as the property) and print
                             the domain coverage report: per op, parameter and
                             domain class, draws and outcomes; exits 1 when a
                             program fails or (engine vs LibTorch) when an
                             UNDEFINED claim of the engine is wrong
      --messages             with --stats: also each error template (numbers,
                             lists, dtype names replaced) each op raised on the
                             oracle side, with counts and a first seed
      --templates FILE       with --stats: --messages, and the templates of the
                             list FILE (corpus/error_templates.txt) never reached
      --first-failure        with --stats: stop after the first failing program
                             and say which (scripts/plants.sh)
  neighbours [options] PATH...
                             the neighbour search: from each program, variants
                             one edit away (each parameter redrawn from each
                             class of its domain, a step dropped, duplicated or
                             reapplied, an op swapped for a sibling), each run
                             on two backends as replay runs a program; new
                             failures are written to --out (default
                             out/neighbours, never over a file) and listed
      --seed N               the variants' seed (default 0)
      --per-program N        variants per program (default 64; 0: all)
      --engine-threads N|random
                             each variant's engine thread count (as generate)
      --stats                per kind, op, parameter and class: variants, verdicts
      --print                print the variants (runs nothing)
      --backends, --budget (default 268435456), --timeout (default 60), --quiet
  exhaust [options]          the domain enumeration: each op over a fixed
                             catalogue of inputs (layouts x dtypes holding each
                             dtype's edges), every class of every parameter's
                             domain and the boundary values written out,
                             combined where small (program/exhaust.h); each case
                             runs on two backends; new failures are written to
                             --out (default out/exhaust, never over a file)
      --op NAME              only this op (repeatable; default: every op)
      --seed N               the per-class draws' seed (default 140000000)
      --product-cap N        combine all parameters' classes up to N cases (150)
      --depth 1|2            2 (default): also two-step chains (a view op,
                             then each op) and overlapping operand pairs
      --phase K[-L]          phases K to L alone (case numbers as --print's): by
                             default 1 (one step on the catalogue), 2 (the
                             overlapping pairs), 3 (the chains), 4 (the data
                             ops' other dtypes in the other layouts), each
                             over every op in turn; only when named: 5 (the
                             language's surface forms), 6 (add, mul, neg
                             into an out= to be resized or aliasing an
                             operand), 7 (chains on int64, float16 and bool,
                             and three-step chains)
      --wide                 phase 3: every valid and boundary class of the
                             second step on every chain; phase 7: every op on
                             every three-step chain (not a quarter)
      --engine-threads N|random
                             each case's engine thread count (as generate)
      --shard K/N            every N-th case of each op from the K-th
      --stats                also each op's distinct error templates
      --first-failure        stop after the first failing case (scripts/plants.sh)
      --print                print the cases (runs nothing)
      --list-ops             print the ops it would run, one per line
      --known FILE           (default corpus/known_divergences.txt)
      --backends, --budget (default 268435456), --quiet
  versions [options] [PATH...]
                             run programs (files, and --count K generated ones)
                             on two backends in two processes -- LibTorch here
                             and LibTorch in another build (--other) -- and list
                             every class of difference with a minimized program
      --other BIN            the right side's stridecheck binary (default: this one)
      --backends A,B         default libtorch:cpu,libtorch:cpu (A here, B in BIN)
      --seed N --count K     K generated programs from seeds N, N+1, ...
      --out DIR              one minimized program per class, as DIR/NNN-*.prog
      --no-reduce            keep the smallest program seen in each class
      --first-only           classify each program's first difference only (by
                             default the differing step is removed, with what
                             reads it, and the rest checked again)
      --timeout SECONDS      per program (default 30); --budget, --quiet
  serve [--backend B]        answer programs on stdin with recorded traces
                             (the protocol of `versions`; tools/serve.cpp)
  --version                  the engine version, the oracle's LibTorch version and
                             the PyTorch version the engine imitates
  --help                     this text

exit status: 0 when nothing failed, 1 when something failed, 2 for usage errors
and unreadable or malformed programs.
)";
}

}  // namespace sc::tool
