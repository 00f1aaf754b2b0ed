// stridecheck minimize and signature, end to end (engine backends only, so no
// LibTorch is needed): what they say about programs that do not fail, and that
// the input file is never written.
#include "tests/program/tool_test_util.h"

namespace {
using Result = sc::testing::ToolResult;

Result run(const std::string& args) { return sc::testing::run_tool(args); }

using MinimizeCli = sc::testing::ToolTest;

const char* kEngines = "--backends engine:cpu,engine:cpu";

TEST_F(MinimizeCli, AProgramThatDoesNotFailHasNothingToMinimize) {
  std::string f = write("ok.prog", "a = arange 6\nb = view a [2,3]\n");
  Result r = run(std::string("minimize ") + kEngines + " " + f);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("does not fail (pass on engine:cpu vs engine:cpu): nothing to minimize"), std::string::npos) << r.out;
}

TEST_F(MinimizeCli, NeverWritesItsInput) {
  const std::string text = "a = arange 6\nb = view a [2,3]\n";
  std::string f = write("in.prog", text);
  Result r = run(std::string("minimize ") + kEngines + " " + f + " -o " + f);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("is the input file"), std::string::npos) << r.out;
  EXPECT_EQ(read(f), text);
}

TEST_F(MinimizeCli, AMalformedProgramIsReportedWithItsPosition) {
  std::string f = write("bad.prog", "a = arange 6\nb = view c [2,3]\n");
  Result r = run(std::string("minimize ") + kEngines + " " + f);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("bad.prog:2:10: 'c' is used before it is assigned"), std::string::npos) << r.out;
}

TEST_F(MinimizeCli, SignaturePrintsTheVerdictOfAPassingProgram) {
  std::string f = write("ok.prog", "a = arange 6\nb = view a [2,3]\n");
  Result r = run(std::string("signature ") + kEngines + " " + f);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "pass\t" + f + "\n");
}

}  // namespace
