// Prints programs in the text format of DESIGN.md. Floats print as the
// shortest text that reads back to the same double, and always look like
// floats (`1.0`, `1e+20`, `inf`, `nan`), so `1` and `1.0` stay distinct.
#include "program/printer.h"

#include <charconv>
#include <cmath>

namespace sc {
namespace {

std::string print_number(const Number& n) {
  switch (n.kind) {
    case Number::Kind::Bool: return n.i ? "true" : "false";
    case Number::Kind::Int: return std::to_string(n.i);
    case Number::Kind::Float: {
      if (std::isnan(n.f)) return "nan";
      if (std::isinf(n.f)) return n.f < 0 ? "-inf" : "inf";
      char buf[64];
      auto [p, ec] = std::to_chars(buf, buf + sizeof buf, n.f);
      std::string s(buf, p);
      if (s.find_first_of(".e") == std::string::npos) s += ".0";
      return s;
    }
  }
  return "?";
}

// A comment line as written, or made one: text that does not start with `#`
// (after blanks) gets "# " in front, so printed programs always parse.
std::string comment_line(const std::string& c) {
  size_t first = c.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  if (c[first] == '#') return c;
  return "# " + c;
}

}  // namespace

std::string print_arg(const Arg& a) {
  if (auto* n = std::get_if<Number>(&a)) return print_number(*n);
  if (auto* l = std::get_if<List>(&a)) {
    std::string s = "[";
    for (size_t i = 0; i < l->items.size(); ++i) s += (i ? "," : "") + print_number(l->items[i]);
    return s + "]";
  }
  if (auto* n = std::get_if<Name>(&a)) return n->id;
  return std::get<Ident>(a).id;
}

std::string print_step(const Step& s) {
  std::string line;
  for (size_t i = 0; i < s.outputs.size(); ++i) line += (i ? ", " : "") + s.outputs[i];
  if (!s.outputs.empty()) line += " = ";
  line += s.op;
  for (const Arg& a : s.args) line += " " + print_arg(a);
  for (const KwArg& k : s.kwargs) line += " " + k.key + "=" + print_arg(k.value);
  return line;
}

std::string print_program(const Program& p, bool with_comments) {
  std::string out;
  if (p.engine_threads > 0) out += "#! engine-threads " + std::to_string(p.engine_threads) + "\n";
  for (const Step& s : p.steps) {
    if (with_comments)
      for (const std::string& c : s.leading_comments) out += comment_line(c) + "\n";
    out += print_step(s);
    if (with_comments && !s.trailing_comment.empty()) out += "  " + comment_line(s.trailing_comment);
    out += "\n";
  }
  if (with_comments) {
    for (const std::string& c : p.trailing_comments) out += comment_line(c) + "\n";
    for (const std::string& r : p.recorded) out += r + "\n";
  }
  return out;
}

}  // namespace sc
