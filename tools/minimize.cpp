// stridecheck minimize [--backends A,B] FILE [-o OUT]: shrinks a program that
// diverges (or crashes a backend) to a small one with the same failure
// signature (program/findings/shrink.h, signature.h). Every candidate runs in
// a forked child (tools/child.h), so a crashing candidate is tested, not fatal.
// What was removed goes to stderr; the program to OUT, or stdout. The input
// file is never written.
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "program/findings/shrink.h"
#include "program/parser.h"
#include "program/printer.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {
namespace fs = std::filesystem;

struct MinimizeArgs {
  std::string out;     // -o OUT; "" is stdout
  int max_tests = ShrinkPolicy{}.max_tests;
  std::vector<std::string> rest;  // for parse_options
};

MinimizeArgs take_minimize_args(const std::vector<std::string>& args) {
  MinimizeArgs m;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "-o" || a == "--out") {
      m.out = value();
    } else if (a.rfind("--out=", 0) == 0) {
      m.out = a.substr(6);
    } else if (a == "--max-tests" || a.rfind("--max-tests=", 0) == 0) {
      std::string v = a == "--max-tests" ? value() : a.substr(12);
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), m.max_tests);
      if (ec != std::errc() || p != v.data() + v.size() || m.max_tests < 1)
        throw UsageError("--max-tests takes a count >= 1, got '" + v + "'");
    } else {
      m.rest.push_back(a);
    }
  }
  return m;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

}  // namespace

int minimize_main(const std::vector<std::string>& args) {
  MinimizeArgs m = take_minimize_args(args);
  Options o = parse_options(m.rest, {"--device", "--backends", "--budget", "--timeout"});
  if (o.paths.size() != 1) throw UsageError("minimize takes one program file");
  if (std::find(m.rest.begin(), m.rest.end(), "--timeout") == m.rest.end() &&
      std::none_of(m.rest.begin(), m.rest.end(), [](const std::string& a) { return a.rfind("--timeout=", 0) == 0; }))
    o.timeout_s = 20;  // each candidate; a hang being minimized costs this much per test
  const std::string path = o.paths[0];
  if (!m.out.empty() && same_file(path, m.out))
    throw UsageError("-o " + m.out + " is the input file: minimize never overwrites its input");
  std::vector<std::string> names = backend_pair(o);
  check_backend_names(names);

  Program program;
  try {
    program = parse_file(path);
  } catch (const ParseError& e) {
    std::fprintf(stderr, "%s\n", e.text.c_str());
    return kExitUsage;
  }
  IsolatedSignature original = signature_in_child(program, o, names);
  if (!original.error.empty()) throw UsageError(path + ": " + original.error);
  if (original.signature.empty()) {
    std::fprintf(stderr, "stridecheck minimize: %s does not fail (%s on %s vs %s): nothing to minimize\n", path.c_str(),
                 original.verdict.c_str(), names[0].c_str(), names[1].c_str());
    return kExitFailed;
  }
  std::fprintf(stderr, "minimizing %s (%zu steps), signature: %s\n", path.c_str(), program.steps.size(),
               original.signature.c_str());

  auto still_fails = [&](const Program& candidate) {
    return signature_in_child(candidate, o, names).signature == original.signature;
  };
  ShrinkPolicy policy;
  policy.max_tests = m.max_tests;
  ShrinkResult r = shrink_program(program, still_fails, policy);
  for (const std::string& line : r.log) std::fprintf(stderr, "  %s\n", line.c_str());

  std::string text = "# minimized by `stridecheck minimize` from " + fs::path(path).filename().string() + " (" +
                     std::to_string(program.steps.size()) + " -> " + std::to_string(r.program.steps.size()) +
                     " steps, " + std::to_string(r.tests) + " tests)\n# signature: " + original.signature + "\n" +
                     print_program(r.program, false);
  if (m.out.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {
    std::ofstream out(m.out, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw UsageError("cannot write " + m.out);
    std::fprintf(stderr, "wrote %s\n", m.out.c_str());
  }
  return kExitOk;
}

}  // namespace sc::tool
