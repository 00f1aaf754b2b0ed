#pragma once
// The stridecheck command-line tool: one file per subcommand (replay.cpp,
// run.cpp, record.cpp, decode.cpp, minimize.cpp, signature.cpp, repro.cpp, serve.cpp, versions.cpp, neighbours.cpp), shared option parsing in options.cpp, main.cpp
// dispatches.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "program/compare.h"
#include "program/findings/signature.h"
#include "program/generator.h"

namespace sc::tool {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;  // usage errors, unreadable or malformed programs

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string device = "cpu";
  std::vector<std::string> backends;  // --backends A,B (or --backend A for record)
  int64_t budget_bytes = int64_t{1} << 30;
  int64_t trace_budget_bytes = int64_t{1} << 30;  // --trace-budget, taken wherever --budget is
  double timeout_s = 60;
  bool quiet = false;
  bool against_recorded = false;
  std::string semantics;   // --semantics VERSION: the PyTorch the engine imitates (engine/version_profile.h)
  std::string known_file;  // --known FILE; default: known_divergences.txt found above each program
  int engine_threads = 0;  // --engine-threads N: the engine's CPU kernels split every loop over N threads (0: one)
  std::vector<std::string> paths;
};

// Parses the arguments after the subcommand. `allowed` lists the flags this
// subcommand takes ("--device", "--backends", ...). Throws UsageError.
Options parse_options(const std::vector<std::string>& args, const std::vector<std::string>& allowed);

// The two backends to compare: --backends, else engine:<device> and libtorch:<device>.
std::vector<std::string> backend_pair(const Options&);
// Throws UsageError when a backend's implementation is not registered.
void check_backend_names(const std::vector<std::string>& names);

// Runs `program` on the two named backends (or the first against the
// recording, with --against-recorded) and diffs the traces.
Comparison compare_program(const Program& program, const Options& o, const std::vector<std::string>& names,
                           bool record_contents,
                           std::function<void(const std::string&, size_t)> on_step = {});

// "LibTorch 1.13.1" when the oracle is built in, else "" .
std::string oracle_version();
// "LibTorch 1.13.0 (Debian package ...)" -> "1.13.0", what known-divergence
// globs match (a backend's version, or oracle_version()).
std::string strip_libtorch(std::string v);
// Applies --semantics (a UsageError when unreadable): the engine's profile.
void apply_semantics(const Options&);
// Applies --engine-threads: N threads, and every loop split (the parallel
// threshold at one element), so that a corpus of small programs runs the
// engine's parallel kernel paths; their bytes must not change.
void apply_engine_threads(const Options&);
// "engine semantics: PyTorch 2.15 (...)" for report headers, with the note when
// the version asked for has no profile of its own.
std::string semantics_text(const Options&);
// Against a recording, without --semantics: the engine imitates the PyTorch the
// recording was made with ("#> trace libtorch:cpu \"LibTorch 2.15.0 (...)\"");
// unchanged when the program has no recording or names no readable version.
void imitate_recorded_version(const Program&);
// With --against-recorded: a malformed recording (`#>` lines, RecordingError)
// as a ParseError at its line of the file `path` (replay and run report it as
// they report a malformed program: file:line:col, exit 2). No recording: nothing.
void check_recording(const Program&, const std::string& path);
// Lines for --version and report headers.
std::string version_text();
std::string help_text();

// A program's failure signature (program/findings/signature.h) on the two
// backends, computed in a forked child so a crash or hang is a signature too.
IsolatedSignature signature_in_child(const Program& program, const Options& o, const std::vector<std::string>& names);

// Program files to run: files as given, folders searched recursively for
// *.prog, sorted (a missing file is reported as unreadable when it is parsed).
std::vector<std::string> collect_programs(const std::vector<std::string>& paths);

int replay_main(const std::vector<std::string>& args);
int run_main(const std::vector<std::string>& args);
int record_main(const std::vector<std::string>& args);
int decode_main(const std::vector<std::string>& args);
int generate_main(const std::vector<std::string>& args);
int minimize_main(const std::vector<std::string>& args);
int signature_main(const std::vector<std::string>& args);
int serve_main(const std::vector<std::string>& args);
int versions_main(const std::vector<std::string>& args);
int repro_main(const std::vector<std::string>& args);
int exercise_main(const std::vector<std::string>& args);
int seeds_main(const std::vector<std::string>& args);
int neighbours_main(const std::vector<std::string>& args);  // tools/neighbours.cpp
int exhaust_main(const std::vector<std::string>& args);     // tools/exhaust.cpp
// generate --engine-threads N|random: the engine thread count of each
// generated program (Program::engine_threads): none (the runner's one
// thread), N, or drawn per program from its seed (Note [Searched engine
// threads], program/engine_threads.h).
struct GeneratedThreads {
  bool random = false;
  int fixed = 0;  // 0: none
};
GeneratedThreads parse_generated_threads(const std::string& value);  // "random" or 1..256; else UsageError
// Sets p.engine_threads as `t` says, drawing from `choices` (those p was generated from) when random.
void set_generated_threads(Program& p, Choices& choices, const GeneratedThreads& t);
// generate --stats: the domain coverage report (tools/coverage.cpp); with
// --messages also the error templates each op raised on the oracle side, and
// with --templates FILE the listed ones never reached (tools/message_tally.h).
// stop_at_first_failure (--first-failure): the run ends after the first failing
// program, and the report says which (scripts/plants.sh reads that line).
struct MessageReport {
  bool enabled = false;
  std::string templates_file;  // empty: no list
};
// generate --swarm PERCENT and --stale-headers PERCENT (GeneratorPolicy's
// swarm_percent and stale_header_percent): 0..100; else UsageError naming option.
int parse_percent(const std::string& option, const std::string& value);
int coverage_main(uint64_t seed, int count, int64_t budget_bytes, const std::vector<std::string>& backend_names,
                  const GeneratedThreads& threads = {}, const MessageReport& messages = {},
                  const GeneratorPolicy& policy = {}, bool stop_at_first_failure = false);

}  // namespace sc::tool
