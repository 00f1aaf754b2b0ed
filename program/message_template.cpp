#include "program/message_template.h"

#include <array>
#include <cctype>

#include "program/list_file.h"

namespace sc {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

// The element type names LibTorch's messages print: ScalarType names
// (toString(ScalarType)), c10::Scalar's checked_convert names, caffe2::TypeMeta
// names. Multi-word ones first, so "signed char" is one type.
constexpr std::array<std::string_view, 36> kTypeNames = {
    "unsigned char", "signed char", "short int", "long int", "c10::BFloat16", "at::BFloat16", "c10::Half",
    "at::Half",      "ComplexHalf", "ComplexFloat", "ComplexDouble", "BFloat16", "Bool", "Byte",
    "Char",          "Short",       "Int",          "Long",          "Half",     "Float", "Double",
    "uint8_t",       "int8_t",      "int16_t",      "int64_t",       "bool",     "int",   "float",
    "double",        "short",       "long",         "uint8",         "int8",     "int16", "int32",
    "int64"};
// Lower-case C++ names are ordinary words too ("an int that cannot be
// represented"): they count as types only right after these phrases.
constexpr std::array<std::string_view, 3> kTypeContexts = {"converted to type ", "representable range of ",
                                                           "desired output type "};
// Backend type names (expand's message prints CPUFloatType): a prefix, a
// ScalarType name, "Type".
constexpr std::array<std::string_view, 3> kBackendPrefixes = {"CPU", "CUDA", "Meta"};

// A number at s[i] (not inside a name): its length, or 0.
size_t number_at(std::string_view s, size_t i) {
  if (i > 0 && (ident_char(s[i - 1]) || s[i - 1] == '.')) return 0;
  size_t j = i;
  if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
  for (std::string_view word : {"inf", "nan"})
    if (s.substr(j, 3) == word && (j + 3 == s.size() || !ident_char(s[j + 3]))) return j + 3 - i;
  const size_t digits_from = j;
  while (j < s.size() && digit(s[j])) ++j;
  if (j < s.size() && s[j] == '.' && j + 1 < s.size() && digit(s[j + 1])) {
    ++j;
    while (j < s.size() && digit(s[j])) ++j;
  }
  if (j == digits_from) return 0;
  if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
    size_t k = j + 1;
    if (k < s.size() && (s[k] == '-' || s[k] == '+')) ++k;
    if (k < s.size() && digit(s[k])) {
      while (k < s.size() && digit(s[k])) ++k;
      j = k;
    }
  }
  return j - i;
}

// A type name at s[i] (a whole word; lower-case ones only after a context): its length, or 0.
size_t type_at(std::string_view s, size_t i, const std::string& out) {
  if (i > 0 && ident_char(s[i - 1])) return 0;
  for (std::string_view prefix : kBackendPrefixes) {
    if (s.substr(i, prefix.size()) != prefix) continue;
    for (std::string_view t : kTypeNames)
      if (std::isupper(static_cast<unsigned char>(t[0])) && s.substr(i + prefix.size(), t.size()) == t &&
          s.substr(i + prefix.size() + t.size(), 4) == "Type")
        return prefix.size() + t.size() + 4;
  }
  bool in_context = false;
  for (std::string_view c : kTypeContexts)
    if (out.size() >= c.size() && std::string_view(out).substr(out.size() - c.size()) == c) in_context = true;
  for (std::string_view t : kTypeNames) {
    if (s.substr(i, t.size()) != t) continue;
    const size_t end = i + t.size();
    // "FloatTensor" (torch.FloatTensor) is a type; "Float16" or "Integer" is not.
    if (end < s.size() && ident_char(s[end]) && s.substr(end, 6) != "Tensor") continue;
    if (std::islower(static_cast<unsigned char>(t[0])) && !in_context) continue;
    return s.substr(end, 6) == "Tensor" ? t.size() + 6 : t.size();
  }
  return 0;
}

}  // namespace

std::string message_template(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '\n') {
      out += "\\n";
      ++i;
    } else if (const size_t n = number_at(s, i)) {
      out += 'N';
      i += n;
    } else if (const size_t t = type_at(s, i, out)) {
      out += 'T';
      i += t;
    } else {
      out += s[i++];
    }
  }
  // [N, N, N], [N] and [] -> [..]
  std::string lists;
  lists.reserve(out.size());
  for (size_t i = 0; i < out.size();) {
    if (out[i] == '[') {
      size_t j = i + 1;
      bool only_numbers = true;
      while (j < out.size() && out[j] != ']') {
        if (out[j] != 'N' && out[j] != ',' && out[j] != ' ') only_numbers = false;
        ++j;
      }
      if (j < out.size() && only_numbers) {
        lists += "[..]";
        i = j + 1;
        continue;
      }
    }
    lists += out[i++];
  }
  return lists;
}

std::vector<ErrorTemplate> parse_error_templates(std::string_view text, const std::string& file) {
  std::vector<ErrorTemplate> out;
  for_each_list_line(text, [&](const ListLine& l) {
    std::string entry = trim_blanks(l.entry);
    if (entry.empty()) return;
    constexpr std::string_view kCorpusOnly = "corpus-only ", kRare = "rare ", kEngineOnly = "engine-only ";
    const bool corpus_only = entry.starts_with(kCorpusOnly);
    const bool rare = entry.starts_with(kRare);
    const bool engine_only = entry.starts_with(kEngineOnly);
    if (corpus_only) entry = trim_blanks(entry.substr(kCorpusOnly.size()));
    if (rare) entry = trim_blanks(entry.substr(kRare.size()));
    if (engine_only) entry = trim_blanks(entry.substr(kEngineOnly.size()));
    const size_t a = entry.find_first_of(" \t");
    const size_t b = a == std::string::npos ? a : entry.find_first_not_of(" \t", a);
    const size_t c = b == std::string::npos ? b : entry.find_first_of(" \t", b);
    if (c == std::string::npos) throw list_error(file, l.number, "expected `op kind template  # reason`");
    ErrorTemplate t;
    t.op = entry.substr(0, a);
    t.kind = entry.substr(b, c - b);
    t.text = trim_blanks(entry.substr(c));
    t.reason = l.reason;
    t.line = l.number;
    t.corpus_only = corpus_only;
    t.rare = rare;
    t.engine_only = engine_only;
    if (!t.kind.ends_with("Error")) throw list_error(file, l.number, "'" + t.kind + "' is not an error kind");
    out.push_back(std::move(t));
  });
  return out;
}

std::vector<ErrorTemplate> read_error_templates(const std::string& file) {
  return parse_error_templates(read_list_file(file, "error template list"), file);
}

}  // namespace sc
