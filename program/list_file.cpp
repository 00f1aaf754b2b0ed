#include "program/list_file.h"

#include <fnmatch.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sc {
namespace fs = std::filesystem;

std::string read_list_file(const std::string& file, const std::string& what) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file + ": cannot read the " + what);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string list_root(const std::string& file) {
  std::string root = fs::path(file).parent_path().string();
  return root.empty() ? "." : root;
}

std::optional<std::string> find_list_file_above(const std::string& program_path, const std::string& name) {
  std::error_code ec;
  fs::path dir = fs::absolute(program_path, ec).parent_path();
  if (ec) return std::nullopt;
  while (true) {
    fs::path candidate = dir / name;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

bool names_program(const std::string& entry_path, const std::string& program_path, const std::string& root) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::absolute(program_path, ec), fs::absolute(root, ec), ec).lexically_normal();
  if (ec) return false;
  return fs::path(entry_path).lexically_normal().generic_string() == rel.generic_string();
}

bool version_matches(const std::string& glob, std::string_view version) {
  return fnmatch(glob.c_str(), std::string(version).c_str(), 0) == 0;
}

}  // namespace sc
