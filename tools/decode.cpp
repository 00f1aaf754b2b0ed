// stridecheck decode FILE...: turns fuzzer inputs (bytes) into the programs
// the fuzz target ran, so a finding can be read, replayed and kept in the
// corpus (its first line, `#! engine-threads N`, is the thread count the
// fuzz target drew). stridecheck generate: writes generated programs from a
// seed (--engine-threads N|random: and their engine thread count).
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "program/crash_trail.h"
#include "program/engine_threads.h"
#include "program/generator.h"
#include "program/printer.h"
#include "tools/tool.h"

namespace sc::tool {

int decode_main(const std::vector<std::string>& args) {
  if (args.empty()) throw UsageError("decode needs at least one fuzzer input file");
  crash_trail::enable();  // an engine crash while generating still leaves a program (on stderr)
  for (const std::string& path : args) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s:0:0: cannot read the file\n", path.c_str());
      return kExitUsage;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Program p = fuzz_input_program(bytes.data(), bytes.size());
    std::printf("# decoded from fuzzer input %s (%zu bytes) with the default GeneratorPolicy\n%s", path.c_str(),
                bytes.size(), print_program(p).c_str());
  }
  return kExitOk;
}

GeneratedThreads parse_generated_threads(const std::string& value) {
  GeneratedThreads t;
  if (value == "random") {
    t.random = true;
    return t;
  }
  const std::optional<int> n = parse_engine_thread_count(value);
  if (!n)
    throw UsageError("generate: --engine-threads takes a thread count 1.." + std::to_string(kMaxEngineThreads) +
                     " or 'random', got '" + value + "'");
  t.fixed = *n;
  return t;
}

int parse_percent(const std::string& option, const std::string& value) {
  int v = -1;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < 0 || v > 100)
    throw UsageError("generate: " + option + " takes a percentage 0..100, got '" + value + "'");
  return v;
}

// GeneratorPolicy::max_steps: long programs (a swarm program draws up to
// twice as many); their traces stay within the trace budget (Note [The trace
// budget]) or stop there, skipped.
int parse_max_steps(const std::string& value) {
  int v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < 1 || v > 65536)
    throw UsageError("generate: --max-steps takes a step count 1..65536, got '" + value + "'");
  return v;
}

void set_generated_threads(Program& p, Choices& choices, const GeneratedThreads& t) {
  if (t.random) p.engine_threads = draw_engine_threads(choices);
  else if (t.fixed > 0) p.engine_threads = t.fixed;
}

int generate_main(const std::vector<std::string>& args) {
  uint64_t seed = 0;
  int count = 1;
  std::string out_dir;  // --out DIR: one file per program (gen-<seed>.prog); else stdout
  bool stats = false;   // --stats: run them and print the domain coverage report
  bool first_failure = false;  // --first-failure (with --stats): stop after the first failing program
  int64_t budget = int64_t{16} << 20;  // as the differential property
  std::string backends;
  GeneratedThreads threads;  // --engine-threads N|random
  MessageReport messages;    // --messages, --templates FILE (with --stats)
  GeneratorPolicy policy;    // --swarm PERCENT, --stale-headers PERCENT, --max-steps N
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError(args[i] + " needs a value");
      return args[++i];
    };
    const std::string option = args[i];  // value() moves i on
    try {
      if (args[i] == "--seed") seed = std::stoull(value());
      else if (args[i] == "--count") count = std::stoi(value());
      else if (args[i] == "--out") out_dir = value();
      else if (args[i] == "--stats") stats = true;
      else if (args[i] == "--first-failure") first_failure = true;
      else if (args[i] == "--budget") budget = std::stoll(value());
      else if (args[i] == "--backends") backends = value();
      else if (args[i] == "--engine-threads") threads = parse_generated_threads(value());
      else if (args[i] == "--swarm") policy.swarm_percent = parse_percent(option, value());
      else if (args[i] == "--stale-headers") policy.stale_header_percent = parse_percent(option, value());
      else if (args[i] == "--max-steps") policy.max_steps = parse_max_steps(value());
      else if (args[i] == "--messages") messages.enabled = true;
      else if (args[i] == "--templates") messages.enabled = true, messages.templates_file = value();
      else throw UsageError("generate: unknown option '" + args[i] + "'");
    } catch (const std::logic_error&) {
      throw UsageError("generate: " + option + " needs a number");
    }
  }
  if (count < 0) throw UsageError("generate: --count must not be negative");
  if (messages.enabled && !stats) throw UsageError("generate: --messages and --templates go with --stats");
  if (first_failure && !stats) throw UsageError("generate: --first-failure goes with --stats");
  if (stats) {
    Options o;
    if (!backends.empty()) o = parse_options({"--backends", backends}, {"--backends"});
    std::vector<std::string> names = backend_pair(o);
    check_backend_names(names);
    return coverage_main(seed, count, budget, names, threads, messages, policy, first_failure);
  }
  if (!out_dir.empty()) {  // --out DIR creates DIR (and its parents)
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) {
      std::fprintf(stderr, "stridecheck generate: cannot create %s: %s\n", out_dir.c_str(), ec.message().c_str());
      return kExitUsage;
    }
  }
  crash_trail::enable();  // an engine crash while generating still leaves a program (on stderr)
  for (int k = 0; k < count; ++k) {
    const unsigned long long s = seed + static_cast<uint64_t>(k);
    Choices choices = Choices::from_seed(s);
    Program p = generate_program(choices, policy);
    set_generated_threads(p, choices, threads);
    std::string text = "# generated from seed " + std::to_string(s) + "\n" + print_program(p);
    if (out_dir.empty()) {
      std::printf("%s\n", text.c_str());
      continue;
    }
    const std::string path = out_dir + "/gen-" + std::to_string(s) + ".prog";
    std::ifstream exists(path);
    if (exists) {  // never overwrite what is there
      std::fprintf(stderr, "stridecheck generate: %s exists; not overwritten\n", path.c_str());
      return kExitUsage;
    }
    std::ofstream out(path);
    out << text;
    if (!out) {
      std::fprintf(stderr, "stridecheck generate: cannot write %s\n", path.c_str());
      return kExitUsage;
    }
  }
  return kExitOk;
}

}  // namespace sc::tool
