#pragma once
// The program IR: one step per line, SSA names, positional arguments in the
// order of the LibTorch C++ method of the same name, keyword arguments.
// See DESIGN.md "The program language". Parser: program/parser.h; printer:
// program/printer.h; op signatures: program/ops.h.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sc {

struct SourcePos {
  int line = 0;  // 1-based; 0 when the step was built in memory
  int col = 0;   // 1-based
};

// An integer or floating literal; `1` and `1.0` differ (LibTorch's Scalar keeps the kind).
// `true` / `false` are Bool literals.
struct Number {
  enum class Kind : uint8_t { Int, Float, Bool } kind = Kind::Int;
  int64_t i = 0;   // Int, Bool (0/1)
  double f = 0.0;  // Float
  static Number integer(int64_t v) { return {Kind::Int, v, 0.0}; }
  static Number floating(double v) { return {Kind::Float, 0, v}; }
  static Number boolean(bool v) { return {Kind::Bool, v ? 1 : 0, 0.0}; }
  bool is_int() const { return kind == Kind::Int; }
  bool is_float() const { return kind == Kind::Float; }
  bool is_bool() const { return kind == Kind::Bool; }
  double as_double() const { return kind == Kind::Float ? f : static_cast<double>(i); }
  bool operator==(const Number& o) const;
};

// A reference to a program value (an SSA name).
struct Name {
  std::string id;
  bool operator==(const Name&) const = default;
};
// A bare identifier used as a value: dtype and memory-format names, `none`.
struct Ident {
  std::string id;
  bool operator==(const Ident&) const = default;
};
// [a,b,c]; elements are numbers (lists of names are not part of the language).
struct List {
  std::vector<Number> items;
  bool operator==(const List&) const = default;
};

using Arg = std::variant<Number, List, Name, Ident>;

struct KwArg {
  std::string key;
  Arg value;
  SourcePos pos;
  bool operator==(const KwArg& o) const { return key == o.key && value == o.value; }
};

struct Step {
  std::vector<std::string> outputs;  // names bound by this step (may be empty)
  std::string op;
  std::vector<Arg> args;
  std::vector<KwArg> kwargs;
  // Comment lines directly above the step, and a trailing `# ...` on its line
  // (kept so that printing a parsed file keeps what a person wrote).
  std::vector<std::string> leading_comments;
  std::string trailing_comment;
  SourcePos pos;
  std::vector<SourcePos> arg_pos;  // one per args entry when parsed from text

  const KwArg* kwarg(std::string_view key) const;
  // The program values this step reads (Name args and Name kwargs), in order.
  std::vector<std::string> inputs() const;
  // f(name) for each of inputs(), in the same order, without copying them.
  template <class F>
  void for_each_input(F&& f) const {
    for (const Arg& a : args)
      if (const auto* n = std::get_if<Name>(&a)) f(n->id);
    for (const KwArg& k : kwargs)
      if (const auto* n = std::get_if<Name>(&k.value)) f(n->id);
  }
  // Equality of meaning: outputs, op, args and kwargs (not positions or comments).
  bool same_as(const Step& o) const;
};

struct Program {
  std::vector<Step> steps;
  std::vector<std::string> trailing_comments;  // comment lines after the last step
  // Recorded observations (`#>` lines written by `stridecheck record`), verbatim.
  std::vector<std::string> recorded;
  std::string source_name;  // file name for messages; "" for in-memory programs
  // `#! engine-threads N` (1..256): the engine's CPU kernels run this program
  // on N threads with every loop split (engine::cpu::ScopedThreads); 0: the
  // runner's setting (one thread unless --engine-threads says otherwise). The
  // searches draw it per program (Note [Searched engine threads],
  // program/engine_threads.h). No trace may depend on it.
  int engine_threads = 0;

  bool same_as(const Program& o) const;
};

// The engine thread counts a program line (`#! engine-threads N`), a tool's
// `--engine-threads N` and `generate --engine-threads N` accept.
inline constexpr int kMaxEngineThreads = 256;

// `digits` as an engine thread count: the whole text in decimal digits,
// 1..kMaxEngineThreads; nullopt otherwise. The one reader of a thread count.
std::optional<int> parse_engine_thread_count(std::string_view digits);

}  // namespace sc
