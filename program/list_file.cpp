#include "program/list_file.h"

#include <fnmatch.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sc {
namespace fs = std::filesystem;

void for_each_list_line(std::string_view text, const std::function<void(const ListLine&)>& f) {
  int number = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t nl = text.find('\n', pos);
    ListLine line;
    line.number = ++number;
    line.entry = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (const size_t hash = line.entry.find('#'); hash != std::string_view::npos) {
      line.reason = trim_blanks(line.entry.substr(hash + 1));
      line.entry = line.entry.substr(0, hash);
    }
    f(line);
  }
}

std::vector<std::string> list_fields(std::string_view entry) {
  std::istringstream in{std::string(entry)};
  std::vector<std::string> fields;
  for (std::string w; in >> w;) fields.push_back(w);
  return fields;
}

std::string trim_blanks(std::string_view s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return std::string(s.substr(a, b - a + 1));
}

std::runtime_error list_error(const std::string& file, int line, const std::string& what) {
  return std::runtime_error(file + ":" + std::to_string(line) + ": " + what);
}

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

std::optional<std::string> path_relative_to(const std::string& program_path, const std::string& root) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::absolute(program_path, ec), fs::absolute(root, ec), ec).lexically_normal();
  if (ec) return std::nullopt;
  return rel.generic_string();
}

bool names_program(const std::string& entry_path, const std::string& program_path, const std::string& root) {
  const std::optional<std::string> rel = path_relative_to(program_path, root);
  return rel && fs::path(entry_path).lexically_normal().generic_string() == *rel;
}

bool version_matches(const std::string& glob, std::string_view version) {
  return fnmatch(glob.c_str(), std::string(version).c_str(), 0) == 0;
}

}  // namespace sc
