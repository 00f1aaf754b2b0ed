// End-to-end checks of the stridecheck tool (tools/): exit statuses, the
// summary lines CI parses, record keeping the user's text, malformed programs.
// Runs build/bin/stridecheck beside this test binary with engine backends only,
// so it needs no LibTorch; skipped when the tool is not built.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

#include "tests/program/tool_test_util.h"

namespace {
namespace fs = std::filesystem;
using Result = sc::testing::ToolResult;

Result run(const std::string& args) { return sc::testing::run_tool(args); }

class Cli : public sc::testing::ToolTest {
 protected:
  void SetUp() override {
    ToolTest::SetUp();
    if (!IsSkipped()) fs::create_directories(dir_ / "sub");
  }
};

const char* kEngineTwice = "--backends engine:cpu,engine:cpu";

TEST_F(Cli, ReplayPassesAndPrintsTheSummaryLines) {
  write("sub/a.prog", "a = arange 6\nb = zeros [2,3] dtype=int32\n");
  write("b.prog", "x = ones [4]\n");
  write("ignored.txt", "not a program\n");
  Result r = run(std::string("replay ") + kEngineTwice + " " + dir_.string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\n2 passed, 0 failed\nundefined: 0, skipped: 0, known: 0\n"), std::string::npos) << r.out;
}

// An empty program (or one with comments only) has nothing to compare: skipped, never passed.
TEST_F(Cli, EmptyProgramIsSkippedNotPassed) {
  write("empty.prog", "");
  write("comments.prog", "# only a comment\n\n");
  Result r = run(std::string("replay ") + kEngineTwice + " " + dir_.string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\n0 passed, 0 failed\nundefined: 0, skipped: 2, known: 0\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the program has no steps: nothing to compare"), std::string::npos) << r.out;
}

// --max-steps N: programs of up to N drawn steps after the first (2N for a
// swarm program); the default draws at most 16.
TEST_F(Cli, GenerateMaxStepsMakesLongPrograms) {
  auto longest = [](const std::string& text) {
    size_t most = 0, steps = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("# generated", 0) == 0) steps = 0;
      else if (!line.empty() && line[0] != '#') most = std::max(most, ++steps);
    }
    return most;
  };
  Result plain = run("generate --seed 7 --count 30");
  Result long_ones = run("generate --seed 7 --count 30 --max-steps 300");
  ASSERT_EQ(long_ones.status, 0) << long_ones.out;
  // A drawn step may bring a few set-up lines (a stale header's), so lines
  // bound the steps only loosely.
  EXPECT_LT(longest(plain.out), 60u);
  EXPECT_GT(longest(long_ones.out), 150u);
  EXPECT_EQ(run("generate --max-steps 0").status, 2);
}

TEST_F(Cli, GenerateOutCreatesTheFolder) {
  const std::string out = (dir_ / "new" / "deeper").string();
  Result r = run("generate --seed 3 --count 2 --out " + out);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "new" / "deeper" / "gen-3.prog")) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "new" / "deeper" / "gen-4.prog")) << r.out;
}

// generate --engine-threads random: each program's first line names its
// engine thread count, 1..4, drawn from its seed after the program (the same
// programs as without it); decode prints the count a fuzzer input draws, and
// the tools run a program on the count it names.
TEST_F(Cli, GenerateAndDecodeNameEachProgramsEngineThreads) {
  Result plain = run("generate --seed 100 --count 40");
  Result drawn = run("generate --seed 100 --count 40 --engine-threads random");
  ASSERT_EQ(drawn.status, 0) << drawn.out;
  EXPECT_EQ(run("generate --seed 100 --count 40 --engine-threads random").out, drawn.out);
  EXPECT_EQ(plain.out.find("#!"), std::string::npos) << plain.out;
  std::istringstream lines(drawn.out);
  std::string line, without;
  int counts[5] = {};
  while (std::getline(lines, line)) {
    if (line.rfind("#! engine-threads ", 0) != 0) {
      without += line + "\n";
      continue;
    }
    const int n = std::stoi(line.substr(18));
    ASSERT_TRUE(n >= 1 && n <= 4) << line;
    ++counts[n];
  }
  EXPECT_EQ(without, plain.out);
  EXPECT_EQ(counts[1] + counts[2] + counts[3] + counts[4], 40);
  for (int n = 1; n <= 4; ++n) EXPECT_GT(counts[n], 0) << n;
  Result two = run("generate --seed 100 --count 3 --engine-threads 2");
  EXPECT_EQ(std::count(two.out.begin(), two.out.end(), '!'), 3) << two.out;
  EXPECT_NE(two.out.find("#! engine-threads 2\n"), std::string::npos) << two.out;
  for (const char* bad : {"0", "Random"})
    EXPECT_EQ(run(std::string("generate --engine-threads ") + bad).status, 2) << bad;

  Result stats = run(std::string("generate --stats ") + kEngineTwice + " --seed 100 --count 8 --engine-threads random");
  EXPECT_EQ(stats.status, 0) << stats.out;
  EXPECT_NE(stats.out.find("engine threads (every loop split): random 1..4 per program, drawn from its seed;"),
            std::string::npos)
      << stats.out;

  const std::string seeds = (dir_ / "seeds").string();
  ASSERT_EQ(run("seeds --seed 100 --count 8 --out " + seeds).status, 0);
  std::string inputs;
  for (int k = 100; k < 108; ++k) inputs += " " + seeds + "/seed-" + std::to_string(k);
  Result d = run("decode" + inputs);
  EXPECT_EQ(d.status, 0) << d.out;
  size_t named = 0;
  for (size_t at = d.out.find("\n#! engine-threads "); at != std::string::npos;
       at = d.out.find("\n#! engine-threads ", at + 1))
    ++named;
  EXPECT_EQ(named, 8u) << d.out;
  Result one = run("decode " + seeds + "/seed-101");
  Result r = run(std::string("run ") + kEngineTwice + " " + write("decoded.prog", one.out));
  EXPECT_NE(r.status, 2) << one.out << r.out;
}

// generate --stale-headers PERCENT: GeneratorPolicy::stale_header_percent
// (Note [Stale headers]); the default 2 draws the same programs as without it.
TEST_F(Cli, GenerateStaleHeadersSetsTheChancePerStep) {
  EXPECT_EQ(run("generate --seed 100 --count 30 --stale-headers 2").out, run("generate --seed 100 --count 30").out);
  const std::string stats = std::string("generate --stats ") + kEngineTwice + " --seed 100 --count 100";
  Result none = run(stats + " --stale-headers 0");
  ASSERT_EQ(none.status, 0) << none.out;
  EXPECT_EQ(none.out.find("stale header"), std::string::npos) << none.out;
  Result many = run(stats + " --stale-headers 40");
  ASSERT_EQ(many.status, 0) << many.out;
  EXPECT_NE(many.out.find("made stale header"), std::string::npos) << many.out;
  Result bad = run("generate --stale-headers 101");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("--stale-headers takes a percentage 0..100, got '101'"), std::string::npos) << bad.out;
  EXPECT_EQ(run("generate --stale-headers").status, 2);
}

TEST_F(Cli, MalformedProgramIsExitTwoWithPosition) {
  std::string p = write("bad.prog", "a = arange 6\nb = view a [2,3\n");
  write("good.prog", "a = arange 6\n");
  Result r = run(std::string("replay ") + kEngineTwice + " " + dir_.string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(p + ":2:12: unterminated list"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n1 passed, 1 failed\n"), std::string::npos) << r.out;
}

TEST_F(Cli, UsageErrorsAreExitTwo) {
  EXPECT_EQ(run("replay").status, 2);
  EXPECT_EQ(run("frobnicate").status, 2);
  EXPECT_EQ(run("replay --backends nope:cpu,engine:cpu x.prog").status, 2);
  EXPECT_EQ(run("replay --timeout -1 x.prog").status, 2);
  // Every tool reads a thread count the one way (parse_engine_thread_count).
  Result threads = run("replay --engine-threads 257 x.prog");
  EXPECT_EQ(threads.status, 2);
  EXPECT_NE(threads.out.find("--engine-threads takes a thread count 1..256, got '257'"), std::string::npos)
      << threads.out;
  threads = run("generate --engine-threads 0");
  EXPECT_EQ(threads.status, 2);
  EXPECT_NE(threads.out.find("--engine-threads takes a thread count 1..256 or 'random', got '0'"), std::string::npos)
      << threads.out;
  EXPECT_EQ(run("--help").status, 0);
  Result v = run("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_NE(v.out.find("stridecheck " STRIDECHECK_VERSION), std::string::npos) << v.out;
}

TEST_F(Cli, TimeoutKillsTheChildAndFails) {
  std::string body = "a = zeros [2048,2048]\n";
  for (int i = 0; i < 40; ++i) body += "b" + std::to_string(i) + " = clone a\n";
  write("slow.prog", body);
  Result r = run(std::string("replay --timeout 0.3 ") + kEngineTwice + " " + dir_.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("timed out"), std::string::npos) << r.out;
  // The report names the step the child was in when it was killed.
  EXPECT_NE(r.out.find(" at step "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("slow.prog:"), std::string::npos) << r.out;
}

TEST_F(Cli, RecordKeepsTheTextAndReplaysAgainstTheRecording) {
  const std::string text = "# keep me\r\na = arange 6   # six\r\n\r\nb = ones [2]\r\n#> stale line\r\n# end";
  std::string p = write("r.prog", text);
  Result r = run("record --backend engine:cpu " + p);
  ASSERT_EQ(r.status, 0) << r.out;
  std::string after = read(p);
  EXPECT_EQ(after.rfind("# keep me\r\na = arange 6   # six\r\n\r\nb = ones [2]\r\n# end\r\n#> trace engine:cpu ", 0), 0u)
      << after;
  EXPECT_EQ(after.find("stale"), std::string::npos);
  r = run("replay --against-recorded " + p);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("1 passed, 0 failed"), std::string::npos) << r.out;
  // Recording twice gives the same file.
  ASSERT_EQ(run("record --backend engine:cpu " + p).status, 0);
  EXPECT_EQ(read(p), after);
}

// --engine-threads N splits every engine loop over N threads: the trace
// (results, versions, every storage's bytes) is the one-thread recording's,
// and a corrupted recording still fails (the option compares, it does not skip).
TEST_F(Cli, EngineThreadsReplayMatchesTheOneThreadRecording) {
  std::string p = write("t.prog",
                        "a = arange 5000\nb = view a [50,100]\nc = t b\nd = contiguous c\ne = add c b\n"
                        "f = neg e\nmul_ c 3\ng = to d dtype=float16\nh = zeros [100,50] dtype=int8\n"
                        "copy_ h c\nfill_ b 7\ni = clone c format=preserve\nclamp_ d 10 40\n");
  ASSERT_EQ(run("record --backend engine:cpu " + p).status, 0);
  Result r = run("replay --against-recorded --engine-threads 3 " + p);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("1 passed, 0 failed"), std::string::npos) << r.out;
  std::string text = read(p);
  size_t at = text.find("fill_ b 7");
  ASSERT_NE(at, std::string::npos);
  std::ofstream(p, std::ios::binary) << text.replace(at, 9, "fill_ b 8");
  r = run("replay --against-recorded --engine-threads 3 " + p);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(run("replay --engine-threads 0 " + p).status, 2);
  EXPECT_EQ(run("replay --engine-threads x " + p).status, 2);
}

TEST_F(Cli, KnownDivergenceThatPassesIsReported) {
  write("known_divergences.txt", "sub/ok.prog *  # was broken once\n");
  write("sub/ok.prog", "a = arange 3\n");
  Result r = run(std::string("replay ") + kEngineTwice + " " + dir_.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("known divergence now passes: remove it from known_divergences.txt"), std::string::npos) << r.out;
}

}  // namespace

// stridecheck versions: the same backend in two server processes finds no
// difference; a right side that dies on every program is one class, reduced
// to the empty program (which also kills it) and written to --out.
TEST_F(Cli, VersionsFindsNothingBetweenTwoEqualServers) {
  write("sub/a.prog", "a = arange 6\nb = view a [2,3]\nc = view b [-2,3]\n");
  Result r = run(std::string("versions ") + kEngineTwice + " --seed 5 --count 20 --quiet " + dir_.string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("programs: 21 (1 files, 20 generated from seed 5)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ndifference classes: 0\n"), std::string::npos) << r.out;
}

TEST_F(Cli, VersionsReportsADyingServerAsOneReducedClass) {
  write("a.prog", "a = arange 6\nb = view a [2,3]\nc = transpose b 0 1\n");
  Result r = run(std::string("versions ") + kEngineTwice + " --other /bin/false --quiet --out " + (dir_ / "out").string() +
                 " " + (dir_ / "a.prog").string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("difference classes: 1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("engine:cpu crashed: exited with status N"), std::string::npos) << r.out;
  std::vector<fs::path> written;
  for (const auto& e : fs::directory_iterator(dir_ / "out")) written.push_back(e.path());
  ASSERT_EQ(written.size(), 1u) << r.out;
  EXPECT_EQ(written[0].filename().string().rfind("001-server_ok_engine_cpu_crashed", 0), 0u) << written[0];
  std::string prog = read(written[0].string());
  EXPECT_EQ(prog.rfind("# class: (server) ok | engine:cpu crashed: exited with status N\n", 0), 0u) << prog;
  // Every program makes /bin/false "crash": no step is left.
  EXPECT_EQ(std::count(prog.begin(), prog.end(), '\n'), std::count(prog.begin(), prog.end(), '#')) << prog;
  EXPECT_EQ(run("versions --count -1").status, 2);
  EXPECT_EQ(run("versions --other /nonexistent --count 1").status, 2);
}

// The message-reach report: per op, each error template with its count and
// first program; with --templates, the list's entries no program reached.
TEST_F(Cli, MessagesReportTemplatesPerOpAndTheListsUnreachedEntries) {
  write("p.prog", "a = arange 6\nb = view a [4]\nc = view a [5]\nd = select a 0 9\n");
  write("list.txt",
        "view RuntimeError shape '[..]' is invalid for input of size N  # InferSize.h\n"
        "select IndexError select(): index N out of range for tensor of size [..] at dimension N\n"
        "rare t RuntimeError t() expects a tensor with <= N dimensions, but self is ND\n");
  const std::string list = (dir_ / "list.txt").string();
  Result r = run(std::string("exercise ") + kEngineTwice + " --templates " + list + " " + (dir_ / "p.prog").string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("error templates raised on the engine:cpu side: 2 distinct"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("view          RuntimeError                2  shape '[..]' is invalid for input of size N"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("listed templates never reached: 1 of 3\n  line 3: t "), std::string::npos) << r.out;

  Result g = run(std::string("generate --stats --messages ") + kEngineTwice + " --seed 100 --count 30");
  EXPECT_EQ(g.status, 0) << g.out;
  EXPECT_NE(g.out.find("error templates raised on the engine:cpu side: "), std::string::npos) << g.out;
  EXPECT_EQ(run("generate --messages --count 2").status, 2);  // goes with --stats
  EXPECT_EQ(run(std::string("exercise --templates ") + (dir_ / "missing.txt").string() + " " + list).status, 2);
}
