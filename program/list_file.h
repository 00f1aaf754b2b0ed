#pragma once
// The lists kept beside a corpus (known_divergences.txt, excuses.txt): each is
// found in a program's folder or the nearest folder above it, read whole, and
// its entries name programs by their path relative to the list's folder.
#include <optional>
#include <string>
#include <string_view>

namespace sc {

// The file's text; throws "<file>: cannot read the <what>".
std::string read_list_file(const std::string& file, const std::string& what);

// The folder holding `file` ("." for a bare name): what its entries are relative to.
std::string list_root(const std::string& file);

// `name` in the program's folder or the nearest folder above, or nullopt.
std::optional<std::string> find_list_file_above(const std::string& program_path, const std::string& name);

// Does an entry's path name the program (both normalised, the program's
// relative to root)? False when either path cannot be made absolute.
bool names_program(const std::string& entry_path, const std::string& program_path, const std::string& root);

// An entry's LibTorch version glob (fnmatch) matches the oracle's version.
bool version_matches(const std::string& glob, std::string_view version);

}  // namespace sc
