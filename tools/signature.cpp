// stridecheck signature FILE...: the failure signature of each program
// (program/findings/signature.h), one line each, "<signature>\t<file>", with
// "pass", "undefined" or "skipped" for programs that do not fail. With
// --known FILE, a failing program's line ends in "\tknown (<file>:<line>:
// <reason>)" or "\tnew". The campaign groups findings by it (scripts/fuzz.sh).
// Each program runs in a child, so a crash is a signature too.
#include <cstdio>
#include <optional>

#include "program/diff.h"
#include "program/findings/signature.h"
#include "program/known_divergences.h"
#include "program/parser.h"
#include "program/undefined_check.h"
#include "tools/tool.h"

namespace sc::tool {

IsolatedSignature signature_in_child(const Program& program, const Options& o, const std::vector<std::string>& names) {
  return signature_isolated(
      program,
      [&](const Program& p, const StepHook& on_step) {
        return compare_program(p, o, names, /*record_contents=*/false, on_step);
      },
      o.timeout_s, /*check_claims=*/!o.against_recorded && claims_checkable(names));
}

int signature_main(const std::vector<std::string>& args) {
  Options o = parse_options(args, {"--device", "--backends", "--budget", "--timeout", "--known"});
  if (o.paths.empty()) throw UsageError("signature needs at least one program file");
  std::vector<std::string> names = backend_pair(o);
  check_backend_names(names);
  std::optional<KnownDivergences> known;
  if (!o.known_file.empty()) {
    try {
      known = read_known_divergences(o.known_file);
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
  }
  // "LibTorch 1.13.0 (Debian ...)" -> "1.13.0": what version globs match.
  std::string version = oracle_version();
  if (version.rfind("LibTorch ", 0) == 0) version = version.substr(9);
  version = version.substr(0, version.find(' '));
  bool malformed = false, failing = false;
  for (const std::string& path : o.paths) {
    Program program;
    try {
      program = parse_file(path);
    } catch (const ParseError& e) {
      std::fprintf(stderr, "%s\n", e.text.c_str());
      malformed = true;
      continue;
    }
    IsolatedSignature s = signature_in_child(program, o, names);
    if (!s.error.empty()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), s.error.c_str());
      malformed = true;
      continue;
    }
    failing |= !s.signature.empty();
    std::string tail;
    if (known && !s.signature.empty()) {
      const KnownDivergence* e = known->find_signature(s.signature, version);
      tail = e ? "\tknown (" + known->file + ":" + std::to_string(e->line) + ": " + e->reason + ")" : "\tnew";
    }
    std::printf("%s\t%s%s\n", s.signature.empty() ? s.verdict.c_str() : s.signature.c_str(), path.c_str(), tail.c_str());
    std::fflush(stdout);
  }
  if (malformed) return kExitUsage;
  return failing ? kExitFailed : kExitOk;
}

}  // namespace sc::tool
