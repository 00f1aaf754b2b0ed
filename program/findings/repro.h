#pragma once
// Reproductions outside stridecheck: a program (and, when it was run, what
// the two sides said) printed as a standalone PyTorch script or a standalone
// LibTorch C++ file, ready to paste into a bug report. Each step is the same
// call the oracle makes (oracle/torch_*_ops.cpp), followed by the facts it
// produced; at the first difference the script prints the fact the two sides
// disagree on, with each side's value from the stridecheck run as a comment.
// Steps after the first difference are left out.
#include <optional>
#include <string>
#include <vector>

#include "program/compare.h"

namespace sc {

struct ReproStep {
  size_t index = 0;
  // On the oracle's side: ran, raised, skipped (an input is unbound), or not run
  // at all (over budget, too many elements, refused: the script must not run it either).
  enum class Kind { Runs, Raises, Skipped, NotRun } kind = Kind::Runs;
  std::string oracle_said;  // "ok", "RuntimeError: <message>", "skipped", ...
  std::string oracle_kind;  // "ok", the error kind, or the outcome's name
  std::vector<TensorObs> oracle_results;
  std::string other_said;
};

struct ReproPlan {
  std::string source;        // the program's file name
  std::string oracle, other;  // backend names: the oracle is the libtorch side when there is one
  std::string oracle_version;
  std::vector<ReproStep> steps;
  // The first difference, with the values as the oracle and the other side gave them.
  std::optional<Difference> difference;
  std::string oracle_value, other_value;
  std::string verdict;  // "pass", "fail", "undefined", "skipped", or "" when the program was not run
};

// `c` may be null (nothing was run: every step is emitted, none annotated).
ReproPlan plan_repro(const Program& program, const Comparison* c);

// A Python script that needs only `torch`.
std::string python_repro(const Program& program, const ReproPlan& plan);
// A C++ file that needs only LibTorch (ATen); `compile_line` goes into its header comment.
std::string cpp_repro(const Program& program, const ReproPlan& plan, const std::string& compile_line);

// "result 0 strides" -> result index 0 (-1 when the field is not about a result).
int result_index(const std::string& field);
// The program value that holds result `r` of step `s` ("" when none is named).
std::string result_name(const Step& s, int r);
// A finite double as both printers write it: %.17g (round-trips exactly),
// with ".0" added when that reads as an integer.
std::string finite_float_text(double f);

}  // namespace sc
