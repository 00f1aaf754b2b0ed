#include "program/excuses.h"

#include <algorithm>
#include <stdexcept>

#include "program/list_file.h"

namespace sc {

namespace {

int64_t flags_set(const std::vector<uint8_t>& mask) {
  return std::count_if(mask.begin(), mask.end(), [](uint8_t f) { return f != 0; });
}

// "name=N" -> N; nullopt when the field is not that name or N is not a count.
std::optional<int64_t> count_field(const std::string& field, std::string_view name) {
  if (field.size() <= name.size() + 1 || field.compare(0, name.size(), name) != 0 || field[name.size()] != '=')
    return std::nullopt;
  const std::string digits = field.substr(name.size() + 1);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 18) return std::nullopt;
  return std::stoll(digits);
}

}  // namespace

std::string excuses_text(const Excuses& e) {
  return "steps=" + std::to_string(e.steps) + " undefined=" + std::to_string(e.undefined) +
         " nan_choice=" + std::to_string(e.nan_choice) + (e.refused ? " refused=" + std::to_string(e.refused) : "");
}

Excuses count_excuses(const Trace& t) {
  Excuses e;
  for (const StepObs& s : t.steps) {
    e.steps += s.undefined ? 1 : 0;
    e.refused += s.outcome == Outcome::Refused ? 1 : 0;
    for (const StorageObs& so : s.storages) {
      e.undefined += flags_set(so.undefined);
      e.nan_choice += flags_set(so.nan_choice);
    }
  }
  return e;
}

ExcuseList parse_excuse_list(std::string_view text, const std::string& file, const std::string& root) {
  ExcuseList list;
  list.file = file;
  list.root = root;
  for_each_list_line(text, [&](const ListLine& line) {
    const std::vector<std::string> f = list_fields(line.entry);
    if (f.empty()) return;
    std::optional<int64_t> s, u, n, r = 0;
    if (f.size() == 5 || f.size() == 6)
      s = count_field(f[2], "steps"), u = count_field(f[3], "undefined"), n = count_field(f[4], "nan_choice");
    if (f.size() == 6) r = count_field(f[5], "refused");
    if (!s || !u || !n || !r)
      throw list_error(file, line.number,
                       "expected '<corpus-relative path> <libtorch version glob> steps=S undefined=U nan_choice=N "
                       "[refused=R] # reason'");
    if (line.reason.empty()) throw list_error(file, line.number, "every entry needs a reason after '#'");
    list.entries.push_back({f[0], f[1], Excuses{*s, *u, *n, *r}, line.reason, line.number});
  });
  return list;
}

ExcuseList read_excuse_list(const std::string& file) {
  return parse_excuse_list(read_list_file(file, "excuse list"), file, list_root(file));
}

std::optional<std::string> find_excuse_list_file(const std::string& program_path) {
  return find_list_file_above(program_path, "excuses.txt");
}

const ExcuseEntry* ExcuseList::find(const std::string& program_path, std::string_view version) const {
  for (const ExcuseEntry& e : entries)
    if (names_program(e.path, program_path, root) && version_matches(e.version_glob, version)) return &e;
  return nullptr;
}

std::string check_excuses(const ExcuseList* list, const std::string& program_path, std::string_view version,
                          const Excuses& found) {
  const ExcuseEntry* e = list ? list->find(program_path, version) : nullptr;
  if (!e && !found.any()) return "";
  if (e && e->excuses == found) return "";
  std::string where = list ? list->file : "an excuses.txt above it";
  std::string rel = program_path;
  if (list)
    if (auto r = path_relative_to(program_path, list->root)) rel = *r;
  if (!e)
    return "the engine excuses " + excuses_text(found) + " (bytes or steps the diff does not compare, steps it refused), and " + where +
           " does not list it: if LibTorch's result there is truly undefined, list it as\n  " + rel + " " +
           std::string(version) + " " + excuses_text(found) + "  # <reason>";
  if (!found.any())
    return "listed at " + where + ":" + std::to_string(e->line) + " (" + excuses_text(e->excuses) +
           "), but the engine excuses nothing now: remove the entry";
  return "the engine excuses " + excuses_text(found) + ", " + where + ":" + std::to_string(e->line) + " pins " +
         excuses_text(e->excuses) + " (more: the engine skips comparisons it made before; fewer: update the entry)";
}

}  // namespace sc
