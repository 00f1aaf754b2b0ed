#include "program/ops.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "engine/dtype.h"

namespace sc {
namespace {

using K = ParamKind;
using C = OpCategory;

Arg I(int64_t v) { return Number::integer(v); }
Arg none() { return Ident{"none"}; }

ParamSpec self() { return {"self", K::Tensor, std::nullopt}; }

std::vector<OpSpec> build_table() {
  const KwSpec dtype{"dtype", KwKind::DType};
  const KwSpec format{"format", KwKind::MemoryFormat};
  const KwSpec out{"out", KwKind::Tensor};
  std::vector<OpSpec> t = {
      // creation: whole storage filled deterministically (DESIGN.md)
      {"arange", C::Creation, {{"end", K::Int, {}}}, {dtype}},
      {"zeros", C::Creation, {{"size", K::IntList, {}}}, {dtype}},
      {"ones", C::Creation, {{"size", K::IntList, {}}}, {dtype}},
      {"full", C::Creation, {{"size", K::IntList, {}}, {"fill_value", K::Scalar, {}}}, {dtype}},
      {"tensor", C::Creation, {{"values", K::Values, {}}}, {dtype}},
      {"empty_strided", C::Creation, {{"size", K::IntList, {}}, {"stride", K::IntList, {}}}, {dtype}},

      // views
      {"view", C::View, {self(), {"size", K::IntList, none()}}, {dtype}},
      {"view_as", C::View, {self(), {"other", K::Tensor, {}}}, {}},
      {"reshape", C::View, {self(), {"shape", K::IntList, {}}}, {}},
      {"flatten", C::View, {self(), {"start_dim", K::Int, I(0)}, {"end_dim", K::Int, I(-1)}}, {}},
      {"unflatten", C::View, {self(), {"dim", K::Int, {}}, {"sizes", K::IntList, {}}}, {}},
      {"transpose", C::View, {self(), {"dim0", K::Int, {}}, {"dim1", K::Int, {}}}, {}},
      {"t", C::View, {self()}, {}},
      {"mT", C::View, {self()}, {}},
      {"T", C::View, {self()}, {}},
      {"permute", C::View, {self(), {"dims", K::IntList, {}}}, {}},
      {"movedim", C::View, {self(), {"source", K::IntOrIntList, {}}, {"destination", K::IntOrIntList, {}}}, {}},
      {"expand", C::View, {self(), {"size", K::IntList, {}}}, {}},
      {"expand_as", C::View, {self(), {"other", K::Tensor, {}}}, {}},
      {"broadcast_to", C::View, {self(), {"size", K::IntList, {}}}, {}},
      {"unsqueeze", C::View, {self(), {"dim", K::Int, {}}}, {}},
      {"squeeze", C::View, {self(), {"dim", K::OptInt, none()}}, {}},
      {"narrow", C::View, {self(), {"dim", K::Int, {}}, {"start", K::Int, {}}, {"length", K::Int, {}}}, {}},
      {"slice", C::View, {self(), {"dim", K::Int, I(0)}, {"start", K::OptInt, none()}, {"end", K::OptInt, none()}, {"step", K::Int, I(1)}}, {}},
      {"select", C::View, {self(), {"dim", K::Int, {}}, {"index", K::Int, {}}}, {}},
      {"diagonal", C::View, {self(), {"offset", K::Int, I(0)}, {"dim1", K::Int, I(0)}, {"dim2", K::Int, I(1)}}, {}},
      {"unfold", C::View, {self(), {"dimension", K::Int, {}}, {"size", K::Int, {}}, {"step", K::Int, {}}}, {}},
      {"as_strided", C::View, {self(), {"size", K::IntList, {}}, {"stride", K::IntList, {}}, {"storage_offset", K::OptInt, none()}}, {}},
      {"detach", C::View, {self()}, {}},
      {"alias", C::View, {self()}, {}},
      {"split", C::View, {self(), {"split_size", K::IntOrIntList, {}}, {"dim", K::Int, I(0)}}, {}, Results::Many},
      {"chunk", C::View, {self(), {"chunks", K::Int, {}}, {"dim", K::Int, I(0)}}, {}, Results::Many},
      {"unbind", C::View, {self(), {"dim", K::Int, I(0)}}, {}, Results::Many},

      // copies
      {"contiguous", C::Copy, {self()}, {format}},
      {"clone", C::Copy, {self()}, {format}},
      {"to", C::Copy, {self()}, {format, dtype}},
      {"repeat", C::Copy, {self(), {"repeats", K::IntList, {}}}, {}},
      {"index_select", C::Copy, {self(), {"dim", K::Int, {}}, {"index", K::IntList, {}}}, {}},
      {"flip", C::Copy, {self(), {"dims", K::IntList, {}}}, {}},
      {"empty_like", C::Copy, {self()}, {format, dtype}},
      {"zeros_like", C::Copy, {self()}, {format, dtype}},

      // in-place: the first argument is the destination; they return self
      {"add_", C::InPlace, {self(), {"other", K::ScalarOrTensor, {}}}, {}, Results::Self},
      {"sub_", C::InPlace, {self(), {"other", K::ScalarOrTensor, {}}}, {}, Results::Self},
      {"mul_", C::InPlace, {self(), {"other", K::ScalarOrTensor, {}}}, {}, Results::Self},
      {"div_", C::InPlace, {self(), {"other", K::ScalarOrTensor, {}}}, {}, Results::Self},
      {"zero_", C::InPlace, {self()}, {}, Results::Self},
      {"fill_", C::InPlace, {self(), {"value", K::ScalarOrTensor, {}}}, {}, Results::Self},
      {"clamp_", C::InPlace, {self(), {"min", K::OptScalar, none()}, {"max", K::OptScalar, none()}}, {}, Results::Self},
      {"copy_", C::InPlace, {self(), {"src", K::Tensor, {}}}, {}, Results::Self},

      // out-of-place elementwise, with broadcasting, type promotion and out=
      {"add", C::Elementwise, {self(), {"other", K::ScalarOrTensor, {}}}, {out}},
      {"mul", C::Elementwise, {self(), {"other", K::ScalarOrTensor, {}}}, {out}},
      {"neg", C::Elementwise, {self()}, {out}},
  };
  return t;
}

bool is_none_arg(const Arg& a) {
  auto* id = std::get_if<Ident>(&a);
  return id && id->id == "none";
}

std::string kind_words(ParamKind k) {
  switch (k) {
    case K::Tensor: return "a tensor name";
    case K::Int: return "an integer";
    case K::OptInt: return "an integer or none";
    case K::IntList: return "a list of integers like [2,3]";
    case K::IntOrIntList: return "an integer or a list of integers";
    case K::Scalar: return "a number";
    case K::OptScalar: return "a number or none";
    case K::ScalarOrTensor: return "a number or a tensor name";
    case K::Values: return "a number or a list of numbers";
  }
  return "?";
}

bool is_int_list(const Arg& a) {
  auto* l = std::get_if<List>(&a);
  if (!l) return false;
  for (const Number& n : l->items)
    if (!n.is_int()) return false;
  return true;
}
bool is_int(const Arg& a) {
  auto* n = std::get_if<Number>(&a);
  return n && n->is_int();
}

bool matches(ParamKind k, const Arg& a) {
  switch (k) {
    case K::Tensor: return std::holds_alternative<Name>(a);
    case K::Int: return is_int(a);
    case K::OptInt: return is_int(a) || is_none_arg(a);
    case K::IntList: return is_int_list(a);
    case K::IntOrIntList: return is_int(a) || is_int_list(a);
    case K::Scalar: return std::holds_alternative<Number>(a);
    case K::OptScalar: return std::holds_alternative<Number>(a) || is_none_arg(a);
    case K::ScalarOrTensor: return std::holds_alternative<Number>(a) || std::holds_alternative<Name>(a);
    case K::Values: return std::holds_alternative<Number>(a) || std::holds_alternative<List>(a);
  }
  return false;
}

}  // namespace

const std::vector<OpSpec>& all_ops() {
  static const std::vector<OpSpec> table = build_table();
  return table;
}

// Every step asks for its op several times (parser, budget, both backends'
// ArgReaders): the names are spread over 128 buckets by their length and
// three characters (a few instructions; no std::hash over every byte, no
// modulo by a prime), and each bucket holds one or two of them.
namespace {
size_t op_bucket(std::string_view s) {
  if (s.empty()) return 0;
  const size_t h = s.size() * 0x9e3779b1u ^ static_cast<unsigned char>(s[0]) * 0x85ebca6bu ^
                   static_cast<unsigned char>(s[s.size() / 2]) * 0xc2b2ae35u ^
                   static_cast<unsigned char>(s.back()) * 0x27d4eb2fu;
  return (h ^ (h >> 16)) & 127;
}
}  // namespace

bool view_op_may_copy(std::string_view op) { return op == "reshape" || op == "flatten"; }

const OpSpec* find_op(std::string_view op) {
  static const auto buckets = [] {
    std::array<std::vector<const OpSpec*>, 128> b;
    for (const OpSpec& s : all_ops()) b[op_bucket(s.name)].push_back(&s);
    return b;
  }();
  // The interpreter asks for one step's op four times in a row on each side
  // (ArgReader, refuse_out_of_storage, inplace_elements, allocation_estimate):
  // the last answer is kept per thread and checked by name, so a repeat costs
  // one short compare instead of the bucket's hash and scan (callgrind, issue 10).
  thread_local const OpSpec* last = nullptr;
  if (last && last->name == op) return last;
  for (const OpSpec* s : buckets[op_bucket(op)])
    if (s->name == op) return last = s;
  return nullptr;
}

std::optional<FormatArg> parse_format(std::string_view s) {
  if (s == "preserve" || s == "preserve_format") return FormatArg::Preserve;
  if (s == "contiguous" || s == "contiguous_format") return FormatArg::Contiguous;
  if (s == "channels_last") return FormatArg::ChannelsLast;
  if (s == "channels_last_3d") return FormatArg::ChannelsLast3d;
  return std::nullopt;
}

std::string_view format_name(FormatArg f) {
  switch (f) {
    case FormatArg::Preserve: return "preserve";
    case FormatArg::Contiguous: return "contiguous";
    case FormatArg::ChannelsLast: return "channels_last";
    case FormatArg::ChannelsLast3d: return "channels_last_3d";
  }
  return "?";
}

std::optional<SignatureError> check_signature(const Step& s) {
  const OpSpec* spec = find_op(s.op);
  if (!spec) return SignatureError{"unknown operation '" + s.op + "'", -1};
  size_t required = 0;
  for (const ParamSpec& p : spec->params)
    if (!p.default_value) ++required;
  if (s.args.size() < required || s.args.size() > spec->params.size()) {
    std::string want = required == spec->params.size()
                           ? std::to_string(required)
                           : std::to_string(required) + " to " + std::to_string(spec->params.size());
    std::string sig;
    for (const ParamSpec& p : spec->params) sig += std::string(" ") + std::string(p.name);
    return SignatureError{s.op + " takes " + want + " arguments (" + s.op + sig + "), but got " +
                              std::to_string(s.args.size()),
                          s.args.size() > spec->params.size() ? static_cast<int>(spec->params.size()) : -1};
  }
  for (size_t i = 0; i < s.args.size(); ++i) {
    const ParamSpec& p = spec->params[i];
    if (!matches(p.kind, s.args[i]))
      return SignatureError{s.op + ": argument '" + std::string(p.name) + "' must be " + kind_words(p.kind),
                            static_cast<int>(i)};
  }
  for (size_t k = 0; k < s.kwargs.size(); ++k) {
    const KwArg& kw = s.kwargs[k];
    const KwSpec* ks = nullptr;
    for (const KwSpec& c : spec->kwargs)
      if (c.key == kw.key) ks = &c;
    if (!ks) return SignatureError{s.op + " takes no keyword argument '" + kw.key + "'", 1000 + static_cast<int>(k)};
    for (size_t j = 0; j < k; ++j)
      if (s.kwargs[j].key == kw.key)
        return SignatureError{"keyword argument '" + kw.key + "' given twice", 1000 + static_cast<int>(k)};
    const auto* id = std::get_if<Ident>(&kw.value);
    switch (ks->kind) {
      case KwKind::DType:
        if (!id || !engine::parse_dtype(id->id))
          return SignatureError{"dtype= must be one of bool, uint8, int8, int16, int32, int64, float16, "
                                "bfloat16, float32, float64",
                                1000 + static_cast<int>(k)};
        break;
      case KwKind::MemoryFormat:
        if (!id || !parse_format(id->id))
          return SignatureError{"format= must be one of preserve, contiguous, channels_last, channels_last_3d",
                                1000 + static_cast<int>(k)};
        break;
      case KwKind::Tensor:
        if (!std::holds_alternative<Name>(kw.value))
          return SignatureError{kw.key + "= must be a tensor name", 1000 + static_cast<int>(k)};
        break;
    }
  }
  // Op-specific rules.
  if (s.op == "view") {
    bool has_size = s.args.size() >= 2 && !is_none_arg(s.args[1]);
    bool has_dtype = s.kwarg("dtype") != nullptr;
    if (has_size == has_dtype) return SignatureError{"view takes either a shape or dtype=, not both or neither", -1};
  }
  if (s.op == "to" && s.kwargs.empty())
    return SignatureError{"to needs format= or dtype=", -1};
  if (spec->results == Results::One && s.outputs.size() > 1)
    return SignatureError{s.op + " has one result, but " + std::to_string(s.outputs.size()) + " names are bound", -1};
  if (spec->results == Results::Self && s.outputs.size() > 1)
    return SignatureError{s.op + " returns its first argument; bind at most one name", -1};
  return std::nullopt;
}

ArgReader::ArgReader(const Step& step) : step_(step), spec_(find_op(step.op)) {
  if (!spec_) throw std::logic_error("ArgReader: unknown op " + step.op);
}

const Arg& ArgReader::arg(size_t i) const {
  if (i < step_.args.size()) return step_.args[i];
  if (i < spec_->params.size() && spec_->params[i].default_value) return *spec_->params[i].default_value;
  throw std::logic_error("ArgReader: no argument " + std::to_string(i) + " for " + step_.op);
}

bool ArgReader::is_none(size_t i) const { return is_none_arg(arg(i)); }
bool ArgReader::is_tensor(size_t i) const { return std::holds_alternative<Name>(arg(i)); }
const std::string& ArgReader::tensor(size_t i) const { return std::get<Name>(arg(i)).id; }
int64_t ArgReader::int_(size_t i) const { return std::get<Number>(arg(i)).i; }
std::optional<int64_t> ArgReader::opt_int(size_t i) const {
  if (is_none(i)) return std::nullopt;
  return int_(i);
}
bool ArgReader::is_list(size_t i) const { return std::holds_alternative<List>(arg(i)); }
std::vector<int64_t> ArgReader::int_list(size_t i) const {
  const Arg& a = arg(i);
  if (auto* n = std::get_if<Number>(&a)) return {n->i};
  const std::vector<Number>& items = std::get<List>(a).items;
  std::vector<int64_t> v(items.size());  // one allocation (every step reads its lists on both backends)
  for (size_t k = 0; k < items.size(); ++k) v[k] = items[k].i;
  return v;
}
Number ArgReader::scalar(size_t i) const { return std::get<Number>(arg(i)); }
std::vector<Number> ArgReader::values(size_t i) const {
  const Arg& a = arg(i);
  if (auto* n = std::get_if<Number>(&a)) return {*n};
  return std::get<List>(a).items;
}
bool ArgReader::values_is_scalar(size_t i) const { return std::holds_alternative<Number>(arg(i)); }

std::optional<std::string> ArgReader::kw_dtype() const {
  if (const KwArg* k = step_.kwarg("dtype")) return std::get<Ident>(k->value).id;
  return std::nullopt;
}
std::optional<FormatArg> ArgReader::kw_format() const {
  if (const KwArg* k = step_.kwarg("format")) return parse_format(std::get<Ident>(k->value).id);
  return std::nullopt;
}
std::optional<std::string> ArgReader::kw_tensor(std::string_view key) const {
  if (const KwArg* k = step_.kwarg(key)) return std::get<Name>(k->value).id;
  return std::nullopt;
}

const std::vector<std::string>& simpler_ops(std::string_view op) {
  // Arguments are kept, then cut to the simpler op's parameter count (the
  // parser rejects what does not fit).
  static const std::map<std::string, std::vector<std::string>, std::less<>> m = {
      {"reshape", {"view"}},         {"broadcast_to", {"expand"}}, {"expand_as", {"view_as"}},
      {"mT", {"t"}},                 {"T", {"t"}},                 {"movedim", {"transpose"}},
      {"alias", {"detach"}},         {"sub_", {"add_"}},           {"mul_", {"add_"}},
      {"div_", {"add_"}},            {"fill_", {"zero_"}},         {"clamp_", {"zero_"}},
      {"mul", {"add"}},              {"ones", {"zeros"}},          {"full", {"zeros"}},
      {"empty_strided", {"zeros"}},  {"tensor", {"arange"}},       {"clone", {"contiguous"}},
      {"to", {"contiguous"}},        {"empty_like", {"zeros_like"}}, {"split", {"chunk"}},
  };
  static const std::vector<std::string> none;
  auto it = m.find(op);
  return it == m.end() ? none : it->second;
}

std::vector<std::string> op_family(std::string_view op) {
  // The family: op's connected part of the simpler_ops graph, in op table order.
  std::vector<std::string> family{std::string(op)};
  for (bool grew = true; grew;) {
    grew = false;
    for (const OpSpec& s : all_ops()) {
      const std::string name(s.name);
      if (std::find(family.begin(), family.end(), name) != family.end()) continue;
      bool linked = false;
      for (const std::string& f : family) {
        const auto& a = simpler_ops(name);
        const auto& b = simpler_ops(f);
        linked |= std::find(a.begin(), a.end(), f) != a.end() || std::find(b.begin(), b.end(), name) != b.end();
      }
      if (linked) family.push_back(name), grew = true;
    }
  }
  family.erase(family.begin());
  std::vector<std::string> ordered;
  for (const OpSpec& s : all_ops())
    if (std::find(family.begin(), family.end(), std::string(s.name)) != family.end()) ordered.emplace_back(s.name);
  return ordered;
}

}  // namespace sc
