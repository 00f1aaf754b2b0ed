// stridecheck exercise [--backends A,B] PATH...: what a set of programs (or
// fuzzer inputs, decoded as the fuzz target does) exercises, op by op: how
// often each op ran, raised each error kind, was undefined, skipped or not
// run, on the oracle's side of the comparison. CSV on stdout:
//   op,outcome,count
// The campaign report draws it as the op x outcome matrix (scripts/fuzz.sh).
// With --messages, the message-reach report instead (tools/message_tally.h):
// per op, each error template the oracle side raised, with its count and the
// first file that raised it; --templates FILE also lists the templates of the
// checked-in list (corpus/error_templates.txt) that no file reached.
// Files ending in .prog are programs; any other file is a fuzzer input. A
// malformed program (file:line:col) or an unreadable file is reported on
// stderr and the others still run; the exit status is then 2.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "program/engine_threads.h"
#include "program/generator.h"
#include "program/parser.h"
#include "tools/message_tally.h"
#include "tools/tool.h"

namespace sc::tool {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> files_under(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      out.push_back(p);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec)) found.push_back(it->path().string());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace

int exercise_main(const std::vector<std::string>& all_args) {
  MessageReport messages;
  std::vector<std::string> args;
  for (size_t i = 0; i < all_args.size(); ++i) {
    if (all_args[i] == "--messages") {
      messages.enabled = true;
    } else if (all_args[i] == "--templates") {
      if (i + 1 >= all_args.size()) throw UsageError("--templates needs a value");
      messages.enabled = true;
      messages.templates_file = all_args[++i];
    } else {
      args.push_back(all_args[i]);
    }
  }
  const std::vector<ErrorTemplate> listed = listed_templates(messages);
  MessageTally tally;
  Options o = parse_options(args, {"--device", "--backends", "--budget"});
  if (o.paths.empty()) throw UsageError("exercise needs program files, fuzzer inputs or folders");
  std::vector<std::string> names = backend_pair(o);
  check_backend_names(names);
  RunOptions ro;
  ro.budget_bytes = std::min<int64_t>(o.budget_bytes, int64_t{64} << 20);  // as the fuzz target runs them
  ro.trace_budget_bytes = o.trace_budget_bytes;
  ro.record_contents = false;
  auto left = make_backend(names[0]);
  auto right = make_backend(names[1]);
  const bool oracle_left = names[0].rfind("libtorch", 0) == 0 && names[1].rfind("libtorch", 0) != 0;
  std::map<std::pair<std::string, std::string>, long> counts;
  long programs = 0;
  bool unreadable = false;  // a malformed program or a file that cannot be read: reported, the rest still run, exit 2
  for (const std::string& path : files_under(o.paths)) {
    Program p;
    if (path.size() > 5 && path.ends_with(".prog")) {
      try {
        p = parse_file(path);
      } catch (const ParseError& e) {
        std::fprintf(stderr, "%s\n", e.text.c_str());
        unreadable = true;
        continue;
      }
    } else {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "%s:0:0: cannot read the file\n", path.c_str());
        unreadable = true;
        continue;
      }
      std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      p = fuzz_input_program(bytes.data(), bytes.size());
    }
    Comparison c = compare_backends(p, *left, *right, ro);
    const Trace& oracle = oracle_left ? c.left : c.right;
    const Trace& other = oracle_left ? c.right : c.left;
    ++programs;
    for (size_t i = 0; i < p.steps.size() && i < oracle.steps.size(); ++i) {
      const StepObs& s = oracle.steps[i];
      std::string outcome = s.outcome == Outcome::Error ? s.error_kind : std::string(outcome_name(s.outcome));
      if (s.outcome == Outcome::Ok && (s.undefined || (i < other.steps.size() && other.steps[i].undefined)))
        outcome = "undefined";
      ++counts[{p.steps[i].op, outcome}];
      tally.add(p.steps[i].op, s, path);
    }
  }
  if (messages.enabled) {
    tally.print(stdout, oracle_left ? names[0] : names[1], messages.templates_file.empty() ? nullptr : &listed);
    std::fprintf(stderr, "exercise: %ld programs\n", programs);
    return unreadable ? kExitUsage : kExitOk;
  }
  std::printf("op,outcome,count\n");
  for (const auto& [key, n] : counts) std::printf("%s,%s,%ld\n", key.first.c_str(), key.second.c_str(), n);
  std::fprintf(stderr, "exercise: %ld programs\n", programs);
  return unreadable ? kExitUsage : kExitOk;
}

}  // namespace sc::tool
