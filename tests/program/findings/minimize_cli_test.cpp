// stridecheck minimize and signature, end to end (engine backends only, so no
// LibTorch is needed): what they say about programs that do not fail, and that
// the input file is never written.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {
namespace fs = std::filesystem;

fs::path tool() { return fs::read_symlink("/proc/self/exe").parent_path() / "stridecheck"; }

struct Result {
  int status = -1;
  std::string out;
};

Result run(const std::string& args) {
  Result r;
  FILE* p = popen((tool().string() + " " + args + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

class MinimizeCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(tool())) GTEST_SKIP() << "stridecheck is not built: " << tool();
    dir_ = fs::temp_directory_path() / ("stridecheck_minimize_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  static std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  fs::path dir_;
};

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
