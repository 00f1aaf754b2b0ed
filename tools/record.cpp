// stridecheck record: runs each program on the oracle (or --backend B) and
// writes the trace into the file as `#>` lines. The user's text is kept byte
// for byte except the old `#>` lines; the new ones go at the end. The file is
// written to a temporary beside it and renamed over it.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "program/backend.h"
#include "program/diff.h"
#include "program/parser.h"
#include "program/trace_text.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {
namespace fs = std::filesystem;

// True for a `#>` line (the parser's rule: first non-blank characters are "#>").
bool is_recorded_line(std::string_view line) {
  size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line.substr(first, 2) == "#>";
}

// `text` without its `#>` lines, then `lines` appended (with the file's line ending).
std::string with_recording(const std::string& text, const std::vector<std::string>& lines) {
  std::string out;
  bool crlf = text.find("\r\n") != std::string::npos;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string::npos ? text.size() : nl + 1;
    std::string_view line(text.data() + pos, end - pos);
    if (!is_recorded_line(line)) out.append(line);
    pos = end;
  }
  if (!out.empty() && out.back() != '\n') out += crlf ? "\r\n" : "\n";
  for (const std::string& l : lines) out += l + (crlf ? "\r\n" : "\n");
  return out;
}

void write_atomically(const std::string& path, const std::string& text) {
  fs::path p(path);
  fs::path tmp = p.parent_path() / ("." + p.filename().string() + ".record." + std::to_string(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error("cannot write " + tmp.string());
    }
  }
  std::error_code ec;
  fs::permissions(tmp, fs::status(p, ec).permissions(), ec);
  fs::rename(tmp, p, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot replace " + path + ": " + ec.message());
  }
}

}  // namespace

int record_main(const std::vector<std::string>& args) {
  Options o = parse_options(args, {"--device", "--backend", "--budget"});
  if (o.paths.empty()) throw UsageError("record needs at least one program file");
  std::string name = o.backends.empty() ? "libtorch:" + o.device : o.backends[0];
  check_backend_names({name});
  auto backend = make_backend(name);
  int status = kExitOk;
  for (const std::string& path : o.paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s:0:0: cannot read the file\n", path.c_str());
      status = kExitUsage;
      continue;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    Program program;
    try {
      program = parse_program(text, path);
    } catch (const ParseError& e) {
      std::fprintf(stderr, "%s\n", e.text.c_str());
      status = kExitUsage;
      continue;
    }
    RunOptions ro;
    ro.budget_bytes = o.budget_bytes;
    ro.trace_budget_bytes = o.trace_budget_bytes;
    ro.record_contents = false;
    try {
      Trace t = backend->run(program, ro);
      write_atomically(path, with_recording(text, serialize_trace(t)));
      std::printf("recorded %s: %zu steps on %s (%s)\n", path.c_str(), t.steps.size(), t.backend.c_str(),
                  t.backend_version.c_str());
      // A step over a budget (allocation or trace) was not run: say which, as replay would.
      for (size_t i = 0; i < t.steps.size(); ++i)
        if (t.steps[i].outcome == Outcome::OverBudget) {
          std::printf("  %s: over budget: %s\n", step_source(program, i).c_str(), t.steps[i].note.c_str());
          break;
        }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), e.what());
      status = kExitFailed;
    }
  }
  return status;
}

}  // namespace sc::tool
