// stridecheck signature FILE...: the failure signature of each program
// (program/findings/signature.h), one line each, "<signature>\t<file>", with
// "pass", "undefined" or "skipped" for programs that do not fail. The
// campaign groups findings by it (scripts/fuzz.sh). Each program runs in a
// child, so a crash is a signature too.
#include <cstdio>

#include "program/diff.h"
#include "program/findings/signature.h"
#include "program/parser.h"
#include "tools/tool.h"

namespace sc::tool {

IsolatedSignature signature_in_child(const Program& program, const Options& o, const std::vector<std::string>& names) {
  return signature_isolated(
      program,
      [&](const Program& p, const StepHook& on_step) {
        return compare_program(p, o, names, /*record_contents=*/false, on_step);
      },
      o.timeout_s);
}

int signature_main(const std::vector<std::string>& args) {
  Options o = parse_options(args, {"--device", "--backends", "--budget", "--timeout"});
  if (o.paths.empty()) throw UsageError("signature needs at least one program file");
  std::vector<std::string> names = backend_pair(o);
  check_backend_names(names);
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
    std::printf("%s\t%s\n", s.signature.empty() ? s.verdict.c_str() : s.signature.c_str(), path.c_str());
    std::fflush(stdout);
  }
  if (malformed) return kExitUsage;
  return failing ? kExitFailed : kExitOk;
}

}  // namespace sc::tool
