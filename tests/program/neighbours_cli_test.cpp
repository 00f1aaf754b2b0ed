// End-to-end checks of `stridecheck neighbours` (tools/neighbours.cpp) with
// engine backends only, so they need no LibTorch; skipped when the tool is
// not built. (The ctest neighbours/corpus_sample runs it against LibTorch.)
#include <algorithm>
#include <filesystem>
#include <regex>

#include "tests/program/tool_test_util.h"

namespace {
namespace fs = std::filesystem;
using Result = sc::testing::ToolResult;

Result run(const std::string& args) { return sc::testing::run_tool(args); }

class NeighboursCli : public sc::testing::ToolTest {};

const char* kEngineTwice = "--backends engine:cpu,engine:cpu";
const char* kProgram = "a = arange 24\nb = view a [2,3,4]\nc = narrow b 2 1 2\nadd_ c 1\n";

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_F(NeighboursCli, PrintsTheSameVariantsForTheSameSeed) {
  write("p.prog", kProgram);
  const std::string file = (dir_ / "p.prog").string();
  Result a = run("neighbours --print --per-program 25 --seed 4 " + file);
  ASSERT_EQ(a.status, 0) << a.out;
  EXPECT_EQ(count_of(a.out, "# neighbour "), 25u) << a.out;
  EXPECT_EQ(run("neighbours --print --per-program 25 --seed 4 " + file).out, a.out);
  EXPECT_NE(run("neighbours --print --per-program 25 --seed 5 " + file).out, a.out);
  Result threads = run("neighbours --print --per-program 25 --seed 4 --engine-threads random " + file);
  EXPECT_EQ(count_of(threads.out, "#! engine-threads "), 25u) << threads.out;
}

TEST_F(NeighboursCli, RunsEveryVariantAndVariesEverySite) {
  write("p.prog", kProgram);
  Result r = run(std::string("neighbours ") + kEngineTwice + " --per-program 200 --stats " + (dir_ / "p.prog").string());
  EXPECT_EQ(r.status, 0) << r.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("variants: ([0-9]+) \\(")));
  EXPECT_GT(std::stoi(m[1]), 40) << r.out;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("sites varied: ([0-9]+) of ([0-9]+) \\(every site\\)"))) << r.out;
  EXPECT_EQ(m[1], m[2]);
  EXPECT_NE(r.out.find("verdicts: pass "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("narrow        start"), std::string::npos) << r.out;  // the --stats table
  EXPECT_EQ(r.out.find("failing variants"), std::string::npos) << r.out;
}

// A failing variant is written as a program of its own, never over a file; a
// run killed by --timeout is a failure (here every run is, so each variant fails).
TEST_F(NeighboursCli, WritesEachFailingVariantWithoutOverwriting) {
  write("p.prog", kProgram);
  const std::string out = (dir_ / "found").string();
  const std::string args = std::string("neighbours ") + kEngineTwice + " --quiet --timeout 0.000001 --per-program 3 --out " +
                           out + " " + (dir_ / "p.prog").string();
  Result r = run(args);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("failing variants (3;"), std::string::npos) << r.out;
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 3) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "found" / "p-s0-n0.prog")) << r.out;
  const std::string first = sc::testing::read_file(dir_ / "found" / "p-s0-n0.prog");
  EXPECT_EQ(first.rfind("# neighbour 0 of ", 0), 0u) << first;
  EXPECT_EQ(run(args).status, 1);
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 6);
  EXPECT_EQ(sc::testing::read_file(dir_ / "found" / "p-s0-n0.prog"), first);
  EXPECT_TRUE(fs::exists(dir_ / "found" / "p-s0-n0-2.prog"));
}

TEST_F(NeighboursCli, MalformedProgramsAndBadOptionsExitTwo) {
  write("bad.prog", "a = arange 4\nb = view x [2]\n");
  Result r = run(std::string("neighbours ") + kEngineTwice + " " + (dir_ / "bad.prog").string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("bad.prog:2:"), std::string::npos) << r.out;
  EXPECT_EQ(run("neighbours").status, 2);
  EXPECT_EQ(run("neighbours --per-program -1 x.prog").status, 2);
  EXPECT_EQ(run("neighbours --engine-threads 0 x.prog").status, 2);
  EXPECT_EQ(run("neighbours --frobnicate x.prog").status, 2);
}

}  // namespace
