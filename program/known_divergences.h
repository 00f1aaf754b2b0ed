#pragma once
// Known divergences (STYLE lesson 10): a plain text file, one entry a line,
//   <corpus-relative path> <LibTorch version glob>  # reason
// or, for a cause rather than a file (any program whose failure signature it
// is, program/findings/signature.h; what campaigns match their findings with),
//   signature "<failure signature>" <LibTorch version glob>  # reason
// A failing program listed for the oracle's version counts as "known", not
// failed; a listed program that passes is reported so the entry is removed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sc {

struct KnownDivergence {
  std::string path;          // relative to the folder holding the file, '/'-separated; "" for a signature entry
  std::string signature;     // a signature entry's signature; "" for a path entry
  std::string version_glob;  // fnmatch pattern: "1.13.*", "*"
  std::string reason;
  int line = 0;
};

struct KnownDivergences {
  std::string file;  // where the list was read from ("" when none)
  std::string root;  // the folder paths are relative to
  std::vector<KnownDivergence> entries;

  // The entry for `program_path` (any path; made relative to root) at `version`, if any.
  const KnownDivergence* find(const std::string& program_path, std::string_view version) const;
  // The signature entry for `signature` at `version`, if any.
  const KnownDivergence* find_signature(std::string_view signature, std::string_view version) const;
};

// Parses the text; throws std::runtime_error "file:line: message" on a malformed line.
KnownDivergences parse_known_divergences(std::string_view text, const std::string& file, const std::string& root);
// Reads `file` (root = its folder); throws std::runtime_error when unreadable or malformed.
KnownDivergences read_known_divergences(const std::string& file);
// The nearest known_divergences.txt in `program_path`'s folder or a folder above it.
std::optional<std::string> find_known_divergences_file(const std::string& program_path);

}  // namespace sc
