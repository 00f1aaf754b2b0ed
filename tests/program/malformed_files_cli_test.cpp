// Every tool that reads a program file answers a malformed one the same way:
// "file:line:col: message" and exit status 2, never a crash, and the file as
// it was (record writes into its files; it must not touch one it cannot
// parse). Malformed: bytes that are no text, a line with an unknown op, lists
// nested past what the language has, and (with --against-recorded) a `#>`
// recording that does not parse, reported at its line of the file.
// Engine backends only where a tool takes --backends.
#include <string>
#include <vector>

#include "tests/program/tool_test_util.h"

namespace {
namespace fs = std::filesystem;
using Result = sc::testing::ToolResult;

Result run(const std::string& args) { return sc::testing::run_tool(args); }

class MalformedFiles : public sc::testing::ToolTest {};  // write(): ToolTest's

const char* kEngineTwice = "--backends engine:cpu,engine:cpu";

TEST_F(MalformedFiles, EveryToolGivesTheirPositionAndExitsTwo) {
  struct File {
    std::string name, text, position;  // position: ":line:col:"
  };
  const std::vector<File> files = {
      {"garbage.prog", std::string("a\x01\xaf\xff\x00 = ]]", 10), ":1:2:"},
      {"unknown_op.prog", "a = zeros [2]\nb = frobnicate a\n", ":2:5:"},
      {"nested.prog", "a = tensor " + std::string(5000, '[') + "1" + std::string(5000, ']') + "\n", ":1:13:"},
  };
  const std::string tool = sc::testing::stridecheck_tool().string();
  const std::vector<std::string> commands = {
      std::string("replay ") + kEngineTwice,
      std::string("run ") + kEngineTwice,
      "record --backend engine:cpu",
      std::string("minimize ") + kEngineTwice,
      std::string("signature ") + kEngineTwice,
      std::string("repro --as python --no-run ") + kEngineTwice,
      std::string("exercise ") + kEngineTwice,
      std::string("neighbours --print ") + kEngineTwice,
      std::string("versions --other ") + tool + " " + kEngineTwice,
  };
  for (const File& f : files) {
    const std::string path = write(f.name, f.text);
    for (const std::string& command : commands) {
      Result r = run(command + " " + path);
      EXPECT_EQ(r.status, 2) << command << " " << f.name << "\n" << r.out;
      EXPECT_NE(r.out.find(path + f.position), std::string::npos) << command << " " << f.name << "\n" << r.out;
      EXPECT_EQ(sc::testing::read_file(path), f.text) << command << " changed " << f.name;
    }
  }
}

// A recording that does not parse is the file's error, at the `#>` line:
// here its third recorded line (file line 5), an integer past int64.
TEST_F(MalformedFiles, AMalformedRecordingIsReportedAtItsLine) {
  const std::string path = write("recorded.prog", "a = arange 6\nb = view a [2,3]\n");
  ASSERT_EQ(run("record --backend engine:cpu " + path).status, 0);
  std::string text = sc::testing::read_file(path);
  const size_t sizes = text.find("sizes=[6]");
  ASSERT_NE(sizes, std::string::npos) << text;
  text.replace(sizes, 9, "sizes=[99999999999999999999]");
  write("recorded.prog", text);
  for (const char* command : {"replay --against-recorded --backends engine:cpu", "run --against-recorded --backends engine:cpu"}) {
    Result r = run(std::string(command) + " " + path);
    EXPECT_EQ(r.status, 2) << command << "\n" << r.out;
    EXPECT_NE(r.out.find(path + ":5:1: expected an integer, got '99999999999999999999'"), std::string::npos)
        << command << "\n" << r.out;
  }
}

}  // namespace
