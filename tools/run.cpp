// stridecheck run: one program, both traces side by side, then the diff.
#include <cstdio>

#include "program/compare.h"
#include "program/parser.h"
#include "program/trace_text.h"
#include "tools/tool.h"

namespace sc::tool {

int run_main(const std::vector<std::string>& args) {
  Options o = parse_options(args, {"--device", "--backends", "--budget", "--against-recorded", "--semantics",
                                   "--engine-threads"});
  apply_semantics(o);
  apply_engine_threads(o);
  if (o.paths.size() != 1) throw UsageError("run takes exactly one program file");
  std::vector<std::string> names;
  if (o.against_recorded) {
    if (o.backends.size() > 1) throw UsageError("--against-recorded compares one backend with the recording");
    names = {o.backends.empty() ? "engine:" + o.device : o.backends[0]};
  } else {
    names = backend_pair(o);
  }
  check_backend_names(names);
  Program program;
  try {
    program = parse_file(o.paths[0]);
    if (o.against_recorded) check_recording(program, o.paths[0]);
  } catch (const ParseError& e) {
    std::fprintf(stderr, "%s\n", e.text.c_str());
    return kExitUsage;
  }
  Comparison c;
  try {
    // Against a recording, without --semantics: imitate the recording's PyTorch.
    if (o.against_recorded && o.semantics.empty()) imitate_recorded_version(program);
    c = compare_program(program, o, names, /*record_contents=*/true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stridecheck run: %s\n", e.what());
    return kExitFailed;
  }
  std::string oracle = oracle_version();
  std::printf("stridecheck %s; oracle: %s\n%s\n\n", STRIDECHECK_VERSION, oracle.empty() ? "none" : oracle.c_str(),
              semantics_text(o).c_str());
  render_side_by_side(program, c.left, c.right, [](const std::string& s) { std::fputs(s.c_str(), stdout); });
  std::printf("\n%s", format_diff(program, c.left, c.right, c.diff).c_str());
  return c.diff.verdict == Verdict::Fail ? kExitFailed : kExitOk;
}

}  // namespace sc::tool
