// stridecheck replay: every program on two backends (or against its
// recording), each in a forked child with a wall-time limit, so a crash or a
// hang in LibTorch or the engine is a reported failure, never the tool's end.
// With engine:cpu against LibTorch, every UNDEFINED claim the engine takes is
// checked by brute force as well (a wrong claim fails the program), and what
// it excuses from the comparison (and the steps it refuses) must be what the
// nearest excuses.txt pins (program/excuses.h).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include "program/compare.h"
#include "program/excuses.h"
#include "program/known_divergences.h"
#include "program/parser.h"
#include "program/trace_text.h"
#include "program/undefined_check.h"
#include "program/findings/isolated.h"
#include "program/findings/signature.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {
namespace fs = std::filesystem;

// What a child reports: one word, the oracle's version, the failure signature,
// the engine's excuses, then the report text.
struct ChildReport {
  std::string verdict;  // pass, fail, undefined, skipped, error, crashed, timeout
  std::string version;
  std::string text;
  std::string signature;  // program/findings/signature.h; "" unless it failed, crashed or timed out
  std::optional<Excuses> excuses;  // engine:cpu against LibTorch only (program/excuses.h)
};

// "at step 3 on libtorch:cpu (file.prog:4: y = view x [-1])", or "" before the first step.
std::string where(const ChildResult& r, const Program& program) {
  if (r.step < 0) return "";
  return " at step " + std::to_string(r.step + 1) + " on " + r.backend + " (" +
         step_source(program, static_cast<size_t>(r.step)) + ")";
}

// The child's report: "<verdict>\n<oracle version>\n<signature>\n<excuses>\n<text>"
// (excuses: "S U N R", steps, undefined and nan_choice bytes, refused steps, or "" when not counted).
std::string child_report(const Program& program, const Options& o, const std::vector<std::string>& names,
                         ChildProgress* progress) {
  try {
    // A program without steps (an empty file, only comments) compares nothing: never a pass.
    if (program.steps.empty()) return "skipped\n\n\n\nskipped: the program has no steps: nothing to compare\n";
    if (o.against_recorded && program.recorded.empty())
      return "skipped\n\n\n\nskipped: no recorded observations ('#>' lines): run `stridecheck record` on it\n";
    auto on_step = [progress](const std::string& backend, size_t step) {
      if (progress) progress->set(backend, step);
    };
    if (o.against_recorded && o.semantics.empty()) imitate_recorded_version(program);
    // The engine's UNDEFINED decisions are verified by brute force, as in the
    // differential property (program/undefined_check.h): a corpus program
    // pins them too, not only the values it compares.
    const bool check_claims = !o.against_recorded && claims_checkable(names);
    const ClaimCheckedComparison checked = compare_checking_claims(
        [&] { return compare_program(program, o, names, /*record_contents=*/false, on_step); }, check_claims);
    const Comparison& c = checked.comparison;
    {
      const UndefinedCheck& u = checked.claims;
      if (!u.ok())
        return "fail\n" + strip_libtorch(c.right.backend_version) + "\n" + std::string(kUndefinedCheckSignature) + "\n\n" +
               "an UNDEFINED claim of the engine does not hold under brute force:\n" + format_undefined_check(u);
    }
    std::string excuses;
    if (check_claims) {
      const Excuses e = count_excuses(c.left);
      excuses = std::to_string(e.steps) + " " + std::to_string(e.undefined) + " " + std::to_string(e.nan_choice) + " " +
                std::to_string(e.refused);
    }
    return std::string(verdict_name(c.diff.verdict)) + "\n" + strip_libtorch(c.right.backend_version) + "\n" +
           failure_signature(program, c) + "\n" + excuses + "\n" + format_diff(program, c.left, c.right, c.diff);
  } catch (const std::exception& e) {
    return "error\n\n\n\n" + std::string(e.what()) + "\n";
  } catch (...) {
    return "error\n\n\n\nunknown exception\n";
  }
}

ChildReport run_in_child(const Program& program, const Options& o, const std::vector<std::string>& names) {
  ChildResult r = run_isolated([&](ChildProgress* p) { return child_report(program, o, names, p); }, o.timeout_s);
  const std::string op = r.step >= 0 && static_cast<size_t>(r.step) < program.steps.size() ? program.steps[r.step].op : "";
  switch (r.end) {
    case ChildResult::End::Failed: return {"error", "", r.error + "\n", "", std::nullopt};
    case ChildResult::End::TimedOut: {
      char t[64];
      std::snprintf(t, sizeof t, "%g", o.timeout_s);
      return {"timeout", "",
              std::string("timed out: still running after ") + t + " s (--timeout)" + where(r, program) + "; killed\n",
              timeout_signature(r.backend, op), std::nullopt};
    }
    case ChildResult::End::Crashed:
      if (r.signal)
        return {"crashed", "",
                "crashed: killed by signal " + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")" +
                    where(r, program) + "\n",
                crash_signature(r.signal, r.backend, op), std::nullopt};
      return {"crashed", "", "crashed: exited with status " + std::to_string(r.exit_status) + "\n", "", std::nullopt};
    case ChildResult::End::Reported: break;
  }
  const std::string& data = r.report;
  size_t a = data.find('\n');
  size_t b = a == std::string::npos ? a : data.find('\n', a + 1);
  size_t c = b == std::string::npos ? b : data.find('\n', b + 1);
  size_t d = c == std::string::npos ? c : data.find('\n', c + 1);
  if (d == std::string::npos) return {"crashed", "", "crashed: the child's report is incomplete\n", "", std::nullopt};
  ChildReport out{data.substr(0, a), data.substr(a + 1, b - a - 1), data.substr(d + 1), data.substr(b + 1, c - b - 1),
                  std::nullopt};
  std::istringstream ex{data.substr(c + 1, d - c - 1)};
  if (Excuses e; ex >> e.steps >> e.undefined >> e.nan_choice >> e.refused) out.excuses = e;
  return out;
}

std::string indent(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    out += "  " + line + "\n";
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

struct Counts {
  int passed = 0, failed = 0, undefined = 0, skipped = 0, known = 0;
  bool malformed = false;
};

}  // namespace

// Files to replay: files as given, directories searched recursively for *.prog, sorted.
std::vector<std::string> collect_programs(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->path().extension() == ".prog" && it->is_regular_file(ec)) found.push_back(it->path().string());
      if (ec) throw UsageError("cannot read the folder " + p + ": " + ec.message());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(p);  // a missing file is reported as unreadable when it is parsed
    }
  }
  return out;
}

int replay_main(const std::vector<std::string>& args) {
  Options o = parse_options(args, {"--device", "--backends", "--budget", "--timeout", "--quiet",
                                   "--against-recorded", "--known", "--semantics", "--engine-threads"});
  apply_semantics(o);
  apply_engine_threads(o);
  if (o.paths.empty()) throw UsageError("replay needs at least one program file or folder");
  std::vector<std::string> names;
  if (o.against_recorded) {
    names = {o.backends.empty() ? "engine:" + o.device : o.backends[0]};
    if (o.backends.size() > 1) throw UsageError("--against-recorded compares one backend with the recording");
  } else {
    names = backend_pair(o);
  }
  check_backend_names(names);
  std::vector<std::string> programs = collect_programs(o.paths);
  // Can the backends be made on this device? Asked in a child too, so that the
  // parent never initialises a device runtime (CUDA) before forking.
  if (!o.against_recorded) {
    ChildReport probe = run_in_child(Program{}, o, names);
    if (probe.verdict == "error") throw UsageError(probe.text.substr(0, probe.text.find_last_not_of('\n') + 1));
  }

  std::optional<KnownDivergences> explicit_known;
  if (!o.known_file.empty()) {
    try {
      explicit_known = read_known_divergences(o.known_file);
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
  }
  std::map<std::string, KnownDivergences> known_cache;  // file -> entries
  std::map<std::string, ExcuseList> excuse_cache;       // file -> entries

  std::string oracle = oracle_version();
  std::printf("stridecheck %s; oracle: %s\n", STRIDECHECK_VERSION, oracle.empty() ? "none (built without LibTorch)" : oracle.c_str());
  std::printf("%s\n", semantics_text(o).c_str());
  std::printf("comparing %s\n", o.against_recorded ? (names[0] + " with the recorded observations").c_str()
                                                    : (names[0] + " with " + names[1]).c_str());
  std::fflush(stdout);

  Counts n;
  for (const std::string& path : programs) {
    Program program;
    try {
      program = parse_file(path);
      if (o.against_recorded) check_recording(program, path);
    } catch (const ParseError& e) {
      std::printf("FAIL %s\n  %s\n", path.c_str(), e.text.c_str());
      ++n.failed;
      n.malformed = true;
      continue;
    }
    ChildReport r = run_in_child(program, o, names);

    // Known divergences: the explicit --known file, or the nearest one above the program.
    const KnownDivergences* known = explicit_known ? &*explicit_known : nullptr;
    if (!known) {
      if (auto f = find_known_divergences_file(path)) {
        auto it = known_cache.find(*f);
        if (it == known_cache.end()) {
          try {
            it = known_cache.emplace(*f, read_known_divergences(*f)).first;
          } catch (const std::exception& e) {
            throw UsageError(e.what());
          }
        }
        known = &it->second;
      }
    }
    std::string version = r.version.empty() ? strip_libtorch(oracle) : r.version;
    const KnownDivergence* entry = known ? known->find(path, version) : nullptr;
    if (!entry && known && !r.signature.empty()) entry = known->find_signature(r.signature, version);

    // What the engine excused and refused must be what the nearest excuses.txt pins
    // (program/excuses.h); a skipped program too (a refused step skips it).
    if (r.excuses && (r.verdict == "pass" || r.verdict == "undefined" || r.verdict == "skipped")) {
      const ExcuseList* list = nullptr;
      if (auto f = find_excuse_list_file(path)) {
        auto it = excuse_cache.find(*f);
        if (it == excuse_cache.end()) {
          try {
            it = excuse_cache.emplace(*f, read_excuse_list(*f)).first;
          } catch (const std::exception& e) {
            throw UsageError(e.what());
          }
        }
        list = &it->second;
      }
      std::string wrong = check_excuses(list, path, version, *r.excuses);
      if (!wrong.empty()) {
        r.verdict = "fail";
        r.text = "excuses: " + wrong + "\n" + r.text;
      }
    }

    bool failing = r.verdict == "fail" || r.verdict == "error" || r.verdict == "crashed" || r.verdict == "timeout";
    if (failing && entry) {
      ++n.known;
      if (!o.quiet) std::printf("KNOWN %s (%s:%d: %s)\n", path.c_str(), known->file.c_str(), entry->line, entry->reason.c_str());
    } else if (failing) {
      ++n.failed;
      std::printf("FAIL %s\n%s", path.c_str(), indent(r.text).c_str());
    } else if (r.verdict == "pass" && entry) {
      ++n.failed;
      std::printf("FAIL %s\n  known divergence now passes: remove it from known_divergences.txt (%s:%d)\n",
                  path.c_str(), known->file.c_str(), entry->line);
    } else if (r.verdict == "pass") {
      ++n.passed;
    } else if (r.verdict == "undefined") {
      ++n.undefined;
      if (!o.quiet) std::printf("UNDEFINED %s\n%s", path.c_str(), indent(r.text).c_str());
    } else if (r.verdict == "skipped") {
      ++n.skipped;
      if (!o.quiet) std::printf("SKIPPED %s\n%s", path.c_str(), indent(r.text).c_str());
    } else {
      ++n.failed;
      std::printf("FAIL %s\n  unexpected report '%s'\n", path.c_str(), r.verdict.c_str());
    }
    std::fflush(stdout);
  }
  std::printf("%d passed, %d failed\n", n.passed, n.failed);
  std::printf("undefined: %d, skipped: %d, known: %d\n", n.undefined, n.skipped, n.known);
  if (n.malformed) return kExitUsage;
  return n.failed ? kExitFailed : kExitOk;
}

}  // namespace sc::tool
