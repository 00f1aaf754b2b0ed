#include "program/known_divergences.h"

#include <stdexcept>

#include "program/list_file.h"

namespace sc {

namespace {
// signature "<failure signature>" <version glob>
KnownDivergence parse_signature_entry(const std::string& line, const std::string& reason, const std::string& file,
                                      int line_no) {
  auto fail = [&](const std::string& what) { return list_error(file, line_no, what); };
  size_t open = line.find('"');
  size_t close = open == std::string::npos ? open : line.find('"', open + 1);
  if (line.substr(0, open).find_first_not_of(" \t", 9) != std::string::npos || close == std::string::npos)
    throw fail("expected 'signature \"<failure signature>\" <libtorch version glob> # reason'");
  std::string sig = line.substr(open + 1, close - open - 1);
  const std::vector<std::string> f = list_fields(line.substr(close + 1));
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
  for_each_list_line(text, [&](const ListLine& line) {
    const std::string entry = trim_blanks(line.entry);
    if (entry.rfind("signature", 0) == 0) {
      k.entries.push_back(parse_signature_entry(entry, line.reason, file, line.number));
      return;
    }
    const std::vector<std::string> f = list_fields(line.entry);
    if (f.empty()) return;
    if (f.size() != 2)
      throw list_error(file, line.number, "expected '<corpus-relative path> <libtorch version glob> # reason'");
    if (line.reason.empty()) throw list_error(file, line.number, "every entry needs a reason after '#'");
    k.entries.push_back({f[0], "", f[1], line.reason, line.number});
  });
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
