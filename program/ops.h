#pragma once
// The operation table: every op of the language with its parameters in the
// order of the LibTorch C++ method, their kinds and defaults. The parser checks
// steps against it; both backends read arguments through ArgReader, so a
// default is written once, here. Grow the table; never change an entry's meaning.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "program/ir.h"

namespace sc {

enum class OpCategory { Creation, View, Copy, InPlace, Elementwise };

enum class ParamKind {
  Tensor,          // a Name
  Int,             // integer Number
  OptInt,          // integer Number or `none`
  IntList,         // [a,b,...] of integers
  IntOrIntList,    // integer or integer list (split, movedim)
  Scalar,          // any Number
  OptScalar,       // any Number or `none` (clamp_)
  ScalarOrTensor,  // a Number or a Name (add_, add, fill_)
  Values,          // a Number (0-d tensor) or a List of Numbers (tensor)
};

enum class KwKind { DType, MemoryFormat, Tensor };

struct ParamSpec {
  std::string_view name;
  ParamKind kind;
  std::optional<Arg> default_value;  // absent: required
};

struct KwSpec {
  std::string_view key;
  KwKind kind;
};

enum class Results { One, Self, Many };

struct OpSpec {
  std::string_view name;
  OpCategory category;
  std::vector<ParamSpec> params;
  std::vector<KwSpec> kwargs;
  Results results = Results::One;
};

// nullptr when `op` is not in the language.
const OpSpec* find_op(std::string_view op);
// reshape and flatten: view ops that copy (clone, then view) when no view of
// the input fits, so they may read its elements.
bool view_op_may_copy(std::string_view op);
const std::vector<OpSpec>& all_ops();

// Op families: ops whose arguments mean the same things, one a simpler or a
// sibling form of another (reshape and view, sub_ and add_, mT and t).
// simpler_ops(op): the simpler ones, in the order the shrinker tries them
// (program/findings/shrink.h; empty when none). op_family(op): every other op
// of op's family (the neighbour search swaps op for each, program/neighbours.h).
const std::vector<std::string>& simpler_ops(std::string_view op);
std::vector<std::string> op_family(std::string_view op);

// Memory formats accepted by format=.
enum class FormatArg { Preserve, Contiguous, ChannelsLast, ChannelsLast3d };
std::optional<FormatArg> parse_format(std::string_view);
std::string_view format_name(FormatArg);

// Checks a step against its OpSpec: arity, kinds, kwargs, and the op's own
// rules (view needs a shape or dtype=). Returns an error message and the index
// of the offending argument (-1: the op itself; >= 1000: kwarg index + 1000).
struct SignatureError {
  std::string message;
  int arg_index = -1;
};
std::optional<SignatureError> check_signature(const Step&);

// Typed, default-filled access to a checked step's arguments.
class ArgReader {
 public:
  explicit ArgReader(const Step& step);
  // With the step's OpSpec already looked up (find_op(step.op), not null).
  ArgReader(const Step& step, const OpSpec* spec) : step_(step), spec_(spec) {}
  const Step& step() const { return step_; }
  size_t size() const { return spec_->params.size(); }
  bool given(size_t i) const { return i < step_.args.size(); }
  bool is_none(size_t i) const;  // `none` given or defaulted
  bool is_tensor(size_t i) const;
  const std::string& tensor(size_t i) const;  // the Name
  int64_t int_(size_t i) const;
  std::optional<int64_t> opt_int(size_t i) const;
  std::vector<int64_t> int_list(size_t i) const;  // an integer is a one-element list
  bool is_list(size_t i) const;
  Number scalar(size_t i) const;
  std::vector<Number> values(size_t i) const;  // Values: the numbers
  bool values_is_scalar(size_t i) const;       // Values given as one Number (a 0-d tensor)
  // kwargs
  std::optional<std::string> kw_dtype() const;  // as written (parse with engine::parse_dtype)
  std::optional<FormatArg> kw_format() const;
  std::optional<std::string> kw_tensor(std::string_view key) const;

 private:
  const Arg& arg(size_t i) const;
  const Step& step_;
  const OpSpec* spec_;
};

}  // namespace sc
