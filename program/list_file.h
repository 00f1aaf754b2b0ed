#pragma once
// The lists kept beside a corpus (known_divergences.txt, excuses.txt): each is
// found in a program's folder or the nearest folder above it, read whole, and
// its entries name programs by their path relative to the list's folder.
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sc {

// One line of a list: its number (from 1), the entry (the text before '#')
// and the reason (the text after it, trimmed).
struct ListLine {
  int number = 0;
  std::string_view entry;
  std::string reason;
};
// Calls f on every line of text, in order (an empty last line included).
void for_each_list_line(std::string_view text, const std::function<void(const ListLine&)>& f);
// The entry's whitespace-separated fields.
std::vector<std::string> list_fields(std::string_view entry);
// s without leading and trailing blanks (space, tab, CR).
std::string trim_blanks(std::string_view s);
// "<file>:<line>: <what>".
std::runtime_error list_error(const std::string& file, int line, const std::string& what);

// The file's text; throws "<file>: cannot read the <what>".
std::string read_list_file(const std::string& file, const std::string& what);

// The folder holding `file` ("." for a bare name): what its entries are relative to.
std::string list_root(const std::string& file);

// `name` in the program's folder or the nearest folder above, or nullopt.
std::optional<std::string> find_list_file_above(const std::string& program_path, const std::string& name);

// The program's path relative to root, normalised and '/'-separated, or
// nullopt when either path cannot be made absolute.
std::optional<std::string> path_relative_to(const std::string& program_path, const std::string& root);

// Does an entry's path name the program (both normalised, the program's
// relative to root)? False when either path cannot be made absolute.
bool names_program(const std::string& entry_path, const std::string& program_path, const std::string& root);

// An entry's LibTorch version glob (fnmatch) matches the oracle's version.
bool version_matches(const std::string& glob, std::string_view version);

}  // namespace sc
