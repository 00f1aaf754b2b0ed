#pragma once
// Error messages as templates: what a LibTorch check says, without the values
// it was given. Two messages from one check (TORCH_CHECK, c10 conversion,
// type promotion) share a template; messages from distinct checks do not. The
// message-reach report (`stridecheck generate --stats --messages`, `stridecheck
// exercise --messages`) counts templates per op, and the checked-in list
// corpus/error_templates.txt names every template of every op that the
// generator must reach (tests/program/message_reach_test.cpp).
//
//   numbers (-3, 2.5, 1e+10, inf, nan) not inside a name   -> N
//   a bracketed list of numbers ([2, -1], [], [3])           -> [..]
//   a ScalarType or C++ element type name (Float, Long,
//   int64_t, c10::Half, torch.FloatTensor, CPUFloatType,
//   signed char)                                             -> T
//   a line break                                             -> \n
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sc {

std::string message_template(std::string_view message);

// One entry of the checked-in list: an op, an error kind, a template, and the
// reason written after '#' (where in LibTorch the check is, how it is reached).
struct ErrorTemplate {
  std::string op;
  std::string kind;  // "RuntimeError", "IndexError", ...
  std::string text;  // as message_template writes it
  std::string reason;
  int line = 0;
  // Written `corpus-only op kind template`: the generator does not reach it
  // yet; a hand-made program of the corpus does.
  bool corpus_only = false;
  // Written `rare op kind template`: the generator reaches it, but seldom
  // (one of the law's two searches, or neither): not asserted by the law.
  bool rare = false;
  // Written `engine-only op kind template`: the generator raises it only on
  // the engine's side, at steps the oracle refuses to run on that LibTorch
  // (they would crash it or corrupt its heap), so no generated program
  // compares it (a hand-made one may, where LibTorch raises it otherwise):
  // neither asserted by the law nor expected from the oracle side of a sweep.
  bool engine_only = false;
};

// Parses the list: one entry a line, `[corpus-only|rare|engine-only] op kind template  #
// reason`; blank and comment lines are skipped. Throws std::runtime_error "<file>:<line>: ...".
std::vector<ErrorTemplate> parse_error_templates(std::string_view text, const std::string& file);
std::vector<ErrorTemplate> read_error_templates(const std::string& file);

}  // namespace sc
