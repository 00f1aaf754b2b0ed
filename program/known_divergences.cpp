#include "program/known_divergences.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "program/list_file.h"

namespace sc {

namespace {
std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return "";
  size_t b = s.find_last_not_of(" \t\r");
  return std::string(s.substr(a, b - a + 1));
}

// signature "<failure signature>" <version glob>
KnownDivergence parse_signature_entry(const std::string& line, const std::string& reason, const std::string& file,
                                      int line_no) {
  auto fail = [&](const std::string& what) {
    return std::runtime_error(file + ":" + std::to_string(line_no) + ": " + what);
  };
  size_t open = line.find('"');
  size_t close = open == std::string::npos ? open : line.find('"', open + 1);
  if (line.substr(0, open).find_first_not_of(" \t", 9) != std::string::npos || close == std::string::npos)
    throw fail("expected 'signature \"<failure signature>\" <libtorch version glob> # reason'");
  std::string sig = line.substr(open + 1, close - open - 1);
  std::istringstream rest{line.substr(close + 1)};
  std::vector<std::string> f;
  for (std::string w; rest >> w;) f.push_back(w);
  if (sig.empty() || f.size() != 1)
    throw fail("expected 'signature \"<failure signature>\" <libtorch version glob> # reason'");
  if (reason.empty()) throw fail("every entry needs a reason after '#'");
  return {"", sig, f[0], reason, line_no};
}

}  // namespace

KnownDivergences parse_known_divergences(std::string_view text, const std::string& file, const std::string& root) {
  KnownDivergences k;
  k.file = file;
  k.root = root;
  int line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    std::string reason;
    size_t hash = line.find('#');
    if (hash != std::string_view::npos) {
      reason = trim(line.substr(hash + 1));
      line = line.substr(0, hash);
    }
    if (trim(line).rfind("signature", 0) == 0) {
      k.entries.push_back(parse_signature_entry(trim(line), reason, file, line_no));
      continue;
    }
    std::istringstream fields{std::string(line)};
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.empty()) continue;
    if (f.size() != 2)
      throw std::runtime_error(file + ":" + std::to_string(line_no) +
                               ": expected '<corpus-relative path> <libtorch version glob> # reason'");
    if (reason.empty())
      throw std::runtime_error(file + ":" + std::to_string(line_no) + ": every entry needs a reason after '#'");
    k.entries.push_back({f[0], "", f[1], reason, line_no});
  }
  return k;
}

KnownDivergences read_known_divergences(const std::string& file) {
  return parse_known_divergences(read_list_file(file, "known divergences file"), file, list_root(file));
}

std::optional<std::string> find_known_divergences_file(const std::string& program_path) {
  return find_list_file_above(program_path, "known_divergences.txt");
}

const KnownDivergence* KnownDivergences::find(const std::string& program_path, std::string_view version) const {
  for (const KnownDivergence& e : entries)
    if (!e.path.empty() && names_program(e.path, program_path, root) && version_matches(e.version_glob, version))
      return &e;
  return nullptr;
}

const KnownDivergence* KnownDivergences::find_signature(std::string_view signature, std::string_view version) const {
  for (const KnownDivergence& e : entries)
    if (!e.signature.empty() && e.signature == signature &&
        version_matches(e.version_glob, version))
      return &e;
  return nullptr;
}

}  // namespace sc
