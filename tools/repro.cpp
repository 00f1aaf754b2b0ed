// stridecheck repro --as python|cpp [--backends A,B] FILE: a standalone
// reproduction of a program (program/findings/repro.h) on stdout, annotated
// with what the two sides said. The program is run first in a child, so a
// program that crashes a backend still gets its reproduction (unannotated,
// with the crash named at the top); --no-run prints it without running.
// With --out DIR, each FILE's reproduction goes to DIR/<name>.py (or .cpp).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "program/findings/repro.h"
#include "program/parser.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {

const char* kCompileLine =
    "T=$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')   # LibTorch inside pip's torch\n"
    "g++ -std=c++20 repro.cpp -I$T/include -I$T/include/torch/csrc/api/include -L$T/lib -Wl,-rpath,$T/lib \\\n"
    "    -ltorch_cpu -lc10 -o repro && ./repro\n"
    "(Debian's libtorch-dev: g++ -std=c++20 repro.cpp -I/usr/include/torch/csrc/api/include -ltorch_cpu -lc10 -o repro)";

}  // namespace

namespace {

// The reproduction of one file, or "" with a message on stderr when it is malformed.
std::string repro_text(const std::string& path, const std::string& as, bool run, const Options& o,
                       const std::vector<std::string>& names) {
  Program program;
  try {
    program = parse_file(path);
  } catch (const ParseError& e) {
    std::fprintf(stderr, "%s\n", e.text.c_str());
    return "";
  }
  std::string header;
  std::optional<Comparison> c;
  if (run) {
    // First in a child: a program that crashes a backend must not take the tool down.
    IsolatedSignature s = signature_in_child(program, o, names);
    if (!s.error.empty()) throw UsageError(path + ": " + s.error);
    if (s.signature.rfind("crash ", 0) == 0 || s.signature.rfind("timeout ", 0) == 0 ||
        s.signature.rfind("exit ", 0) == 0) {
      header = "stridecheck: " + s.signature + " (not annotated: the run did not finish)";
    } else {
      c = compare_program(program, o, names, /*record_contents=*/true);
    }
  }
  ReproPlan plan = plan_repro(program, c ? &*c : nullptr);
  std::string text = as == "python" ? python_repro(program, plan) : cpp_repro(program, plan, kCompileLine);
  if (!header.empty()) text = (as == "python" ? "# " : "// ") + header + "\n" + text;
  return text;
}

}  // namespace

int repro_main(const std::vector<std::string>& raw) {
  std::string as;
  bool run = true;
  std::vector<std::string> args;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == "--as") {
      if (i + 1 >= raw.size()) throw UsageError("--as needs python or cpp");
      as = raw[++i];
    } else if (raw[i].rfind("--as=", 0) == 0) {
      as = raw[i].substr(5);
    } else if (raw[i] == "--no-run") {
      run = false;
    } else {
      args.push_back(raw[i]);
    }
  }
  if (as != "python" && as != "cpp") throw UsageError("repro needs --as python or --as cpp");
  std::string out_dir;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i] == "--out" && i + 1 < args.size()) {
      out_dir = args[i + 1];
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
      break;
    }
  Options o = parse_options(args, {"--device", "--backends", "--budget", "--timeout"});
  if (o.paths.empty()) throw UsageError("repro needs a program file");
  if (o.paths.size() > 1 && out_dir.empty()) throw UsageError("repro of several files needs --out DIR");
  std::vector<std::string> names = backend_pair(o);
  if (run) check_backend_names(names);
  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) throw UsageError("cannot create " + out_dir + ": " + ec.message());
  }
  bool malformed = false;
  std::set<std::string> written;
  for (const std::string& path : o.paths) {
    std::string text = repro_text(path, as, run, o, names);
    if (text.empty()) {
      malformed = true;
      continue;
    }
    if (out_dir.empty()) {
      std::fputs(text.c_str(), stdout);
      continue;
    }
    // repro_<stem>.py, or repro_<stem>-2.py, ... when two folders hold the same name.
    // (repro_ in front: a script named select.py or T.py would shadow a module python3 imports.)
    std::string stem = out_dir + "/repro_" + std::filesystem::path(path).stem().string();
    std::string ext = as == "python" ? ".py" : ".cpp";
    std::string target = stem + ext;
    for (int k = 2; std::filesystem::exists(target) && written.count(target); ++k) target = stem + "-" + std::to_string(k) + ext;
    written.insert(target);
    std::ofstream f(target, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f.flush()) throw UsageError("cannot write " + target);
  }
  return malformed ? kExitUsage : kExitOk;
}

}  // namespace sc::tool
