// The stridecheck tool's end-to-end tests: run build/bin/stridecheck (beside
// the test binary) with arguments, and a fresh temporary folder per test for
// the files it reads and writes. Skipped when the tool is not built.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace sc::testing {

inline std::filesystem::path stridecheck_tool() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / "stridecheck";
}

struct ToolResult {
  int status = -1;  // the exit status; -1 when the tool did not exit normally
  std::string out;  // stdout and stderr together
};

inline ToolResult run_tool(const std::string& args) {
  ToolResult r;
  FILE* p = popen((stridecheck_tool().string() + " " + args + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fixture with dir_ = <tmp>/stridecheck_<suite>_<pid>, removed afterwards.
class ToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(stridecheck_tool()))
      GTEST_SKIP() << "stridecheck is not built: " << stridecheck_tool();
    const std::string suite = ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name();
    dir_ = std::filesystem::temp_directory_path() / ("stridecheck_" + suite + "_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  // Writes `text` to dir_/name; returns its path.
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  static std::string read(const std::string& path) { return read_file(path); }
  std::filesystem::path dir_;
};

}  // namespace sc::testing
