// stridecheck serve --backend B: runs programs sent on stdin on one backend
// and answers each with its recorded trace (the `#>` lines of `stridecheck
// record`), so that another process -- another build of stridecheck, linked
// against another LibTorch version -- can diff two LibTorch versions program
// by program without writing files (`stridecheck versions`, tools/versions.cpp).
//
// Protocol (both directions are frames: a header line, then exactly N bytes):
//   request:  "program <N>\n" <program text>
//        or   "contents <N>\n" <program text>   (also every storage's bytes)
//   answer:   "trace <N>\n" <the recorded lines, each ending in '\n'>; for a
//             "contents" request also "#= <step> <storage id> <hex bytes>"
//             lines for every storage that has contents
//        or   "error <N>\n" <a one-line reason: a parse error, an exception>
// The server exits 0 at the end of its input.
#include <cstdio>
#include <iostream>
#include <string>

#include "program/backend.h"
#include "program/parser.h"
#include "program/trace_text.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {

void answer(const char* kind, const std::string& body) {
  std::fprintf(stdout, "%s %zu\n", kind, body.size());
  std::fwrite(body.data(), 1, body.size(), stdout);
  std::fflush(stdout);
}

std::string contents_lines(const Trace& t) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < t.steps.size(); ++i)
    for (const StorageObs& s : t.steps[i].storages) {
      if (!s.has_contents || static_cast<int64_t>(s.bytes.size()) != s.nbytes) continue;
      out += "#= " + std::to_string(i) + " " + std::to_string(s.id) + " ";
      for (uint8_t b : s.bytes) out += digits[b >> 4], out += digits[b & 15];
      out += "\n";
    }
  return out;
}

}  // namespace

int serve_main(const std::vector<std::string>& args) {
  Options o = parse_options(args, {"--device", "--backend", "--budget"});
  if (!o.paths.empty()) throw UsageError("serve reads programs from stdin and takes no files");
  std::string name = o.backends.empty() ? "libtorch:" + o.device : o.backends[0];
  check_backend_names({name});
  std::unique_ptr<Backend> backend;
  try {
    backend = make_backend(name);
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  RunOptions ro;
  ro.budget_bytes = o.budget_bytes;
  ro.trace_budget_bytes = o.trace_budget_bytes;
  ro.record_contents = false;
  std::ios::sync_with_stdio(false);
  std::string header;
  while (std::getline(std::cin, header)) {
    size_t n = 0;
    const bool contents = header.rfind("contents ", 0) == 0;
    if ((header.rfind("program ", 0) != 0 && !contents) ||
        std::sscanf(header.c_str() + header.find(' ') + 1, "%zu", &n) != 1) {
      answer("error", "serve: expected 'program <bytes>' or 'contents <bytes>', got '" + header + "'\n");
      return kExitUsage;
    }
    std::string text(n, '\0');
    if (!std::cin.read(text.data(), static_cast<std::streamsize>(n))) {
      answer("error", "serve: the input ended inside a program\n");
      return kExitUsage;
    }
    try {
      Program program = parse_program(text, "<served>");
      RunOptions run = ro;
      run.record_contents = contents;
      Trace t = backend->run(program, run);
      std::string body;
      for (const std::string& line : serialize_trace(t)) body += line + "\n";
      if (contents) body += contents_lines(t);
      answer("trace", body);
    } catch (const ParseError& e) {
      answer("error", e.text + "\n");
    } catch (const std::exception& e) {
      answer("error", std::string(e.what()) + "\n");
    }
  }
  return kExitOk;
}

}  // namespace sc::tool
