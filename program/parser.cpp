// The text format of DESIGN.md "The program language".
//
// Grammar, one line at a time (`#` starts a comment anywhere; `#>` lines are
// recorded observations, kept verbatim in Program::recorded):
//
//   line    := [outputs '='] op arg* kwarg* | directive
//   directive := '#!' 'engine-threads' digits      (1..256, once: Program::engine_threads)
//   outputs := name (',' name)*
//   arg     := number | list | name | ident        (ident: `none`)
//   list    := '[' [number (',' number)*] ']'
//   kwarg   := key '=' (number | list | name | ident)
//   number  := ['-'] digits ['.' digits*] [('e'|'E') ['+'|'-'] digits] | ['-'] 'inf' | 'nan'
//            | 'true' | 'false'
//
// The parser reads bytes, never assumes UTF-8 outside comments, and reports the
// first error as "file:line:col: message" (col of the offending token).
#include "program/parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "program/ops.h"

namespace sc {

ParseError::ParseError(std::string f, int l, int c, std::string m)
    : file(std::move(f)), line(l), col(c), message(std::move(m)) {
  text = file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + message;
}

namespace {

// Words that read as values, never as program names.
bool is_reserved(std::string_view w) {
  return w == "none" || w == "true" || w == "false" || w == "inf" || w == "nan";
}

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string describe_byte(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u == 0) return "NUL byte";
  if (u >= 0x21 && u < 0x7f) return std::string("unexpected character '") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", u);
  return std::string("unexpected byte '") + buf + "'";
}

struct Token {
  enum class Kind { Word, Number, LBracket, RBracket, Comma, Equals } kind;
  std::string_view text;
  int col = 0;  // 1-based
  Number number;
};

class LineParser {
 public:
  LineParser(std::string_view line, int line_no, const std::string& file)
      : line_(line), line_no_(line_no), file_(file) {}

  [[noreturn]] void fail(int col, std::string message) const {
    throw ParseError(file_, line_no_, col, std::move(message));
  }

  // Splits the code part of the line into tokens; sets `comment` to the
  // trailing `# ...` text (verbatim) if any.
  std::vector<Token> tokenize(std::string& comment) {
    std::vector<Token> out;
    size_t i = 0;
    const size_t n = line_.size();
    while (i < n) {
      char c = line_[i];
      int col = static_cast<int>(i) + 1;
      if (c == ' ' || c == '\t') {
        ++i;
      } else if (c == '#') {
        comment = std::string(line_.substr(i));
        for (char d : comment)
          if (d == '\0') fail(col, "NUL byte in comment");
        break;
      } else if (c == '[') {
        out.push_back({Token::Kind::LBracket, line_.substr(i, 1), col, {}});
        ++i;
      } else if (c == ']') {
        out.push_back({Token::Kind::RBracket, line_.substr(i, 1), col, {}});
        ++i;
      } else if (c == ',') {
        out.push_back({Token::Kind::Comma, line_.substr(i, 1), col, {}});
        ++i;
      } else if (c == '=') {
        out.push_back({Token::Kind::Equals, line_.substr(i, 1), col, {}});
        ++i;
      } else if (is_digit(c) || c == '-' || c == '+' || c == '.') {
        i = lex_number(i, out);
      } else if (is_ident_start(c)) {
        size_t j = i;
        while (j < n && is_ident_char(line_[j])) ++j;
        Token t{Token::Kind::Word, line_.substr(i, j - i), col, {}};
        if (t.text == "true" || t.text == "false") {
          t.kind = Token::Kind::Number;
          t.number = Number::boolean(t.text == "true");
        } else if (t.text == "inf" || t.text == "nan") {
          t.kind = Token::Kind::Number;
          t.number = Number::floating(t.text == "inf" ? std::numeric_limits<double>::infinity()
                                                      : std::numeric_limits<double>::quiet_NaN());
        }
        out.push_back(t);
        i = j;
      } else {
        fail(col, describe_byte(c));
      }
    }
    return out;
  }

  size_t lex_number(size_t i, std::vector<Token>& out) {
    const size_t n = line_.size();
    const size_t start = i;
    const int col = static_cast<int>(i) + 1;
    bool negative = false;
    if (line_[i] == '-' || line_[i] == '+') {
      negative = line_[i] == '-';
      ++i;
      if (line_.substr(i, 3) == "inf" && (i + 3 == n || !is_ident_char(line_[i + 3]))) {
        out.push_back({Token::Kind::Number, line_.substr(start, i + 3 - start), col,
                       Number::floating(negative ? -std::numeric_limits<double>::infinity()
                                                 : std::numeric_limits<double>::infinity())});
        return i + 3;
      }
    }
    if (i >= n || !is_digit(line_[i])) fail(col, "malformed number: expected a digit after the sign");
    bool is_float = false;
    while (i < n && is_digit(line_[i])) ++i;
    if (i < n && line_[i] == '.') {
      is_float = true;
      ++i;
      while (i < n && is_digit(line_[i])) ++i;
    }
    if (i < n && (line_[i] == 'e' || line_[i] == 'E')) {
      is_float = true;
      ++i;
      if (i < n && (line_[i] == '+' || line_[i] == '-')) ++i;
      if (i >= n || !is_digit(line_[i])) fail(col, "malformed number: expected exponent digits");
      while (i < n && is_digit(line_[i])) ++i;
    }
    if (i < n && (is_ident_char(line_[i]) || line_[i] == '.')) {
      size_t j = i;
      while (j < n && (is_ident_char(line_[j]) || line_[j] == '.')) ++j;
      fail(col, "malformed number '" + std::string(line_.substr(start, j - start)) + "'");
    }
    std::string_view text = line_.substr(start, i - start);
    std::string_view body = text;
    if (!body.empty() && body[0] == '+') body.remove_prefix(1);
    Token t{Token::Kind::Number, text, col, {}};
    if (is_float) {
      double v = 0;
      auto [p, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
      if (ec == std::errc::result_out_of_range) {
        // from_chars reports underflow too; only overflow is an error (denormals and 0 are fine).
        if (std::strtod(std::string(body).c_str(), nullptr) == HUGE_VAL ||
            std::strtod(std::string(body).c_str(), nullptr) == -HUGE_VAL)
          fail(col, "number '" + std::string(text) + "' is out of the float64 range");
        v = std::strtod(std::string(body).c_str(), nullptr);
      } else if (ec != std::errc() || p != body.data() + body.size()) {
        fail(col, "malformed number '" + std::string(text) + "'");
      }
      t.number = Number::floating(v);
    } else {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
      if (ec == std::errc::result_out_of_range)
        fail(col, "integer '" + std::string(text) + "' is out of the int64 range");
      if (ec != std::errc() || p != body.data() + body.size())
        fail(col, "malformed number '" + std::string(text) + "'");
      t.number = Number::integer(v);
    }
    out.push_back(t);
    return i;
  }

  std::string_view line_;
  int line_no_;
  const std::string& file_;
};

class ProgramParser {
 public:
  ProgramParser(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  Program parse() {
    Program p;
    p.source_name = file_;
    std::vector<std::string> pending;  // comment and blank lines above the next step
    size_t pos = 0;
    int line_no = 0;
    while (pos < text_.size()) {
      size_t nl = text_.find('\n', pos);
      size_t end = nl == std::string_view::npos ? text_.size() : nl;
      std::string_view line = text_.substr(pos, end - pos);
      pos = nl == std::string_view::npos ? text_.size() : nl + 1;
      ++line_no;
      while (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF, and stray CRs (parser_fuzzer: one stripped per cycle broke the round trip)
      size_t first = line.find_first_not_of(" \t");
      if (first == std::string_view::npos) {
        pending.emplace_back();
        continue;
      }
      if (line.substr(first, 2) == "#>") {
        for (size_t k = 0; k < line.size(); ++k)
          if (line[k] == '\0') throw ParseError(file_, line_no, static_cast<int>(k) + 1, "NUL byte in comment");
        p.recorded.emplace_back(line);
        continue;
      }
      if (line.substr(first, 2) == "#!") {
        parse_directive(line, first, line_no, p);
        continue;
      }
      LineParser lp(line, line_no, file_);
      std::string comment;
      std::vector<Token> toks = lp.tokenize(comment);
      if (toks.empty()) {
        pending.push_back(std::string(line));
        continue;
      }
      Step s = parse_step(lp, toks, line_no);
      s.trailing_comment = comment;
      s.leading_comments = std::move(pending);
      pending.clear();
      check_step(lp, s, line_no);
      p.steps.push_back(std::move(s));
    }
    p.trailing_comments = std::move(pending);
    return p;
  }

 private:
  // `#! engine-threads N`: the engine thread count the program runs with.
  void parse_directive(std::string_view line, size_t first, int line_no, Program& p) {
    auto fail = [&](size_t at, const std::string& m) {
      throw ParseError(file_, line_no, static_cast<int>(std::min(at, line.size())) + 1, m);
    };
    constexpr std::string_view kKey = "engine-threads";
    const size_t key = line.find_first_not_of(" \t", first + 2);
    if (key == std::string_view::npos || line.substr(key, kKey.size()) != kKey)
      fail(key == std::string_view::npos ? line.size() : key, "unknown directive: expected '#! engine-threads N'");
    const size_t value = line.find_first_not_of(" \t", key + kKey.size());
    const size_t end = value == std::string_view::npos ? line.size() : line.find_first_of(" \t", value);
    const std::string_view digits = line.substr(value == std::string_view::npos ? line.size() : value,
                                                end == std::string_view::npos ? std::string_view::npos : end - value);
    const std::optional<int> n = parse_engine_thread_count(digits);
    if (value == key + kKey.size() || !n)
      fail(value == std::string_view::npos ? line.size() : value,
           "engine-threads takes a thread count 1.." + std::to_string(kMaxEngineThreads));
    if (end != std::string_view::npos && line.find_first_not_of(" \t", end) != std::string_view::npos)
      fail(line.find_first_not_of(" \t", end), "unexpected text after the engine-threads count");
    if (p.engine_threads != 0) fail(first, "engine-threads is given twice");
    p.engine_threads = *n;
  }

  Step parse_step(LineParser& lp, const std::vector<Token>& toks, int line_no) {
    using K = Token::Kind;
    Step s;
    size_t i = 0;
    // Outputs: word (',' word)* '=' at the start of the line.
    {
      size_t j = 0;
      bool binding = false;
      while (j < toks.size() && toks[j].kind == K::Word) {
        if (j + 1 < toks.size() && toks[j + 1].kind == K::Comma) {
          j += 2;
          continue;
        }
        binding = j + 1 < toks.size() && toks[j + 1].kind == K::Equals;
        break;
      }
      if (binding) {
        for (size_t k = 0; k <= j; k += 2) {
          const Token& t = toks[k];
          if (is_reserved(t.text)) lp.fail(t.col, "'" + std::string(t.text) + "' is a reserved word, not a name");
          for (const std::string& o : s.outputs)
            if (o == t.text) lp.fail(t.col, "'" + o + "' is bound twice on this line");
          s.outputs.emplace_back(t.text);
          output_cols_.push_back(t.col);
        }
        i = j + 2;
        if (i >= toks.size()) lp.fail(toks[j + 1].col + 1, "expected an operation after '='");
      } else if (toks[0].kind == K::Number && toks.size() > 1 && toks[1].kind == K::Equals) {
        lp.fail(toks[0].col, "'" + std::string(toks[0].text) + "' cannot be assigned: a name starts with a letter or '_'");
      }
    }
    const Token& op = toks[i];
    if (op.kind != K::Word) lp.fail(op.col, "expected an operation name, got '" + std::string(op.text) + "'");
    s.op = std::string(op.text);
    s.pos = {line_no, op.col};
    ++i;
    const OpSpec* spec = find_op(s.op);
    while (i < toks.size()) {
      const Token& t = toks[i];
      if (t.kind == K::Word && i + 1 < toks.size() && toks[i + 1].kind == K::Equals) {
        KwArg kw;
        kw.key = std::string(t.text);
        kw.pos = {line_no, t.col};
        i += 2;
        if (i >= toks.size()) lp.fail(toks[i - 1].col + 1, "expected a value after '" + kw.key + "='");
        bool tensor_kw = false;
        if (spec)
          for (const KwSpec& k : spec->kwargs)
            if (k.key == kw.key && k.kind == KwKind::Tensor) tensor_kw = true;
        kw_value_cols_.push_back(toks[i].col);
        kw.value = parse_value(lp, toks, i, tensor_kw);
        s.kwargs.push_back(std::move(kw));
        continue;
      }
      if (t.kind == K::Equals) lp.fail(t.col, "unexpected '='");
      if (!s.kwargs.empty()) lp.fail(t.col, "positional argument after keyword arguments");
      s.arg_pos.push_back({line_no, t.col});
      s.args.push_back(parse_value(lp, toks, i, true));
    }
    return s;
  }

  // A value at toks[i]; advances i. Words are Names (or Idents when !as_name, and `none`).
  Arg parse_value(LineParser& lp, const std::vector<Token>& toks, size_t& i, bool as_name) {
    using K = Token::Kind;
    const Token& t = toks[i];
    switch (t.kind) {
      case K::Number:
        ++i;
        return t.number;
      case K::Word:
        ++i;
        if (t.text == "none" || !as_name) return Ident{std::string(t.text)};
        return Name{std::string(t.text)};
      case K::LBracket: {
        List l;
        ++i;
        bool expect_item = true;
        while (true) {
          if (i >= toks.size()) lp.fail(t.col, "unterminated list: missing ']'");
          const Token& e = toks[i];
          if (e.kind == K::RBracket) {
            if (expect_item && !l.items.empty()) lp.fail(e.col, "expected a number after ','");
            ++i;
            return l;
          }
          if (expect_item) {
            if (e.kind == K::Number) {
              l.items.push_back(e.number);
            } else if (e.kind == K::LBracket) {
              lp.fail(e.col, "lists hold numbers only (no nested lists)");
            } else if (e.kind == K::Word) {
              lp.fail(e.col, "lists hold numbers only, got '" + std::string(e.text) + "'");
            } else {
              lp.fail(e.col, "expected a number or ']', got '" + std::string(e.text) + "'");
            }
            expect_item = false;
          } else {
            if (e.kind != K::Comma) lp.fail(e.col, "expected ',' or ']' in list, got '" + std::string(e.text) + "'");
            expect_item = true;
          }
          ++i;
        }
      }
      default:
        lp.fail(t.col, "unexpected '" + std::string(t.text) + "'");
    }
  }

  void check_step(LineParser& lp, const Step& s, int line_no) {
    if (auto e = check_signature(s)) {
      int col = s.pos.col;
      if (e->arg_index >= 1000) {
        size_t k = static_cast<size_t>(e->arg_index - 1000);
        if (k < s.kwargs.size()) col = s.kwargs[k].pos.col;
      } else if (e->arg_index >= 0 && static_cast<size_t>(e->arg_index) < s.arg_pos.size()) {
        col = s.arg_pos[static_cast<size_t>(e->arg_index)].col;
      }
      lp.fail(col, e->message);
    }
    for (size_t a = 0; a < s.args.size(); ++a)
      if (auto* n = std::get_if<Name>(&s.args[a])) check_use(lp, n->id, s.arg_pos[a].col);
    for (size_t k = 0; k < s.kwargs.size(); ++k)
      if (auto* n = std::get_if<Name>(&s.kwargs[k].value)) check_use(lp, n->id, kw_value_cols_[k]);
    for (size_t o = 0; o < s.outputs.size(); ++o) {
      auto it = bound_.find(s.outputs[o]);
      if (it != bound_.end())
        lp.fail(output_cols_[o], "'" + s.outputs[o] + "' is already assigned on line " + std::to_string(it->second) +
                                     " (names are assigned once)");
    }
    for (const std::string& o : s.outputs) bound_[o] = line_no;
    output_cols_.clear();
    kw_value_cols_.clear();
  }

  void check_use(LineParser& lp, const std::string& name, int col) {
    if (!bound_.count(name)) lp.fail(col, "'" + name + "' is used before it is assigned");
  }

  std::string_view text_;
  std::string file_;
  std::unordered_map<std::string, int> bound_;  // name -> line
  std::vector<int> output_cols_;    // columns of the current step's outputs
  std::vector<int> kw_value_cols_;  // columns of the current step's keyword values
};

}  // namespace

Program parse_program(std::string_view text, std::string source_name) {
  return ProgramParser(text, std::move(source_name)).parse();
}

Program parse_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ParseError(path, 0, 0, "is a directory, not a program file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, 0, "cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw ParseError(path, 0, 0, "cannot read the file");
  return parse_program(ss.str(), path);
}

}  // namespace sc
