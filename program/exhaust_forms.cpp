#include "program/exhaust_forms.h"

#include <algorithm>
#include <set>

#include "engine/dtype.h"
#include "program/int_edges.h"
#include "program/ops.h"
#include "program/printer.h"

namespace sc {
namespace {

using namespace int_edges;  // kI64Min, kI64Max, k2p31, k2p62

Number I(int64_t v) { return Number::integer(v); }

// The integers an element of an integer list (or an integer) is set to:
// dims around [-rank, rank-1], sizes around -1 and 0, and the int64 edges
// (below -2^62 2.x holds a SymInt on the heap).
std::vector<int64_t> edges(size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  std::set<int64_t> s = {-r - 2, -r - 1, -r, -1, 0, 1, r - 1, r, r + 1,
                         kI64Min, -k2p62 - 1, -k2p62, k2p31, k2p62, kI64Max};
  return {s.begin(), s.end()};
}

bool is_kind(const OpSpec& spec, size_t i, ParamKind k) { return i < spec.params.size() && spec.params[i].kind == k; }

class Forms {
 public:
  Forms(const Step& step, size_t rank) : step_(step), spec_(*find_op(step.op)), rank_(rank) {}

  std::vector<SurfaceForm> all() {
    const bool has_self = !spec_.params.empty() && spec_.params[0].kind == ParamKind::Tensor;
    for (size_t i = has_self ? 1 : 0; i < spec_.params.size(); ++i) param(i);
    keywords();
    if (has_self) operands();
    return std::move(out_);
  }

 private:
  void add(Step s, std::string what) {
    if (s.same_as(step_)) return;
    out_.push_back({std::move(s), std::move(what)});
  }
  std::string name(size_t i) const { return std::string(spec_.params[i].name); }

  // The step with argument i set to v (the omitted ones before it written
  // out at their defaults).
  Step with_arg(size_t i, Arg v) const {
    Step s = step_;
    for (size_t k = s.args.size(); k < i; ++k) s.args.push_back(*spec_.params[k].default_value);
    if (i < s.args.size()) s.args[i] = std::move(v);
    else s.args.push_back(std::move(v));
    return s;
  }

  void param(size_t i) {
    const ParamSpec& p = spec_.params[i];
    const bool given = i < step_.args.size();
    if (!given && p.default_value)
      add(with_arg(i, *p.default_value), name(i) + " written out (" + print_arg(*p.default_value) + ")");
    if (given && (p.kind == ParamKind::OptInt || p.kind == ParamKind::OptScalar))
      add(with_arg(i, Ident{"none"}), name(i) + " none");
    if (!given) return;
    const Arg& a = step_.args[i];
    if (const auto* l = std::get_if<List>(&a)) {
      if (p.kind == ParamKind::Values) return values(i);
      list(i, *l);
    } else if (const auto* n = std::get_if<Number>(&a)) {
      if (n->is_int() && (p.kind == ParamKind::Int || p.kind == ParamKind::OptInt || p.kind == ParamKind::IntOrIntList))
        for (int64_t v : edges(rank_)) add(with_arg(i, I(v)), name(i) + " = " + std::to_string(v));
      if (p.kind == ParamKind::IntOrIntList) {
        add(with_arg(i, List{{*n}}), name(i) + " as a one-element list");
        add(with_arg(i, List{{*n, *n}}), name(i) + " as a list of it twice");
      }
      if (p.kind == ParamKind::Scalar || p.kind == ParamKind::OptScalar || p.kind == ParamKind::ScalarOrTensor)
        for (const Number& v : {Number::floating(0.0), Number::floating(1.0), Number::floating(-1.0), I(-1), I(2),
                                Number::boolean(true), Number::boolean(false), Number::floating(0.1)})
          add(with_arg(i, v), name(i) + " = " + print_arg(v));
      if (p.kind == ParamKind::Values) values(i);
    }
  }

  void list(size_t i, const List& l) {
    const std::string n = name(i);
    for (size_t j = 0; j < l.items.size() && j < 6; ++j)
      for (int64_t v : edges(rank_)) {
        List e = l;
        e.items[j] = I(v);
        add(with_arg(i, e), n + "[" + std::to_string(j) + "] = " + std::to_string(v));
      }
    auto edit = [&](const std::string& what, auto f) {
      List e = l;
      f(e.items);
      add(with_arg(i, e), n + " " + what);
    };
    edit("empty", [](std::vector<Number>& v) { v.clear(); });
    if (!l.items.empty()) {
      edit("without its last", [](std::vector<Number>& v) { v.pop_back(); });
      edit("with its first again at the end", [](std::vector<Number>& v) { v.push_back(v.front()); });
      edit("reversed", [](std::vector<Number>& v) { std::reverse(v.begin(), v.end()); });
    }
    for (int64_t extra : {int64_t{0}, int64_t{1}, int64_t{-1}})
      edit("with " + std::to_string(extra) + " appended", [&](std::vector<Number>& v) { v.push_back(I(extra)); });
    edit("with 1 in front", [](std::vector<Number>& v) { v.insert(v.begin(), I(1)); });
    if (is_kind(spec_, i, ParamKind::IntOrIntList) && l.items.size() == 1)
      add(with_arg(i, l.items[0]), n + " as an integer");
  }

  // A literal's values: bool, int and float mixed (the result dtype LibTorch
  // infers), and a 0-d literal of each kind.
  void values(size_t i) {
    const Number t = Number::boolean(true), f = Number::boolean(false), one = I(1), half = Number::floating(0.5);
    const Number z = Number::floating(-0.0), big = I(kI64Max);
    const std::vector<std::pair<std::string, Arg>> v = {
        {"[true, 2]", List{{t, I(2)}}},           {"[1, 0.5]", List{{one, half}}},
        {"[true, 0.5]", List{{t, half}}},         {"[false, 2, 0.5]", List{{f, I(2), half}}},
        {"[0.5, true]", List{{half, t}}},         {"[-0.0, 0]", List{{z, I(0)}}},
        {"[INT64_MAX, 0.5]", List{{big, half}}}, {"[INT64_MIN]", List{{I(kI64Min)}}},
        {"0.0", Number::floating(0.0)},           {"true", t},
        {"-1", I(-1)},                            {"[]", List{}},
    };
    for (const auto& [what, a] : v) add(with_arg(i, a), name(i) + " = " + what);
  }

  // The input (self's name) as the second tensor operand.
  void operands() {
    if (spec_.params.size() < 2 || step_.args.size() < 2 ||
        (spec_.params[1].kind != ParamKind::Tensor && spec_.params[1].kind != ParamKind::ScalarOrTensor))
      return;
    const Arg x = step_.args[0];
    Step same = step_;
    same.args[1] = x;
    add(std::move(same), "self as the other too");
    for (const char* size : {"[]", "[1]"}) {
      Step s = step_;
      s.args[0] = Name{"s0"};
      s.args[1] = x;
      Step make;
      make.outputs = {"s0"};
      make.op = "zeros";
      make.args = {List{}};
      if (size[1] == '1') std::get<List>(make.args[0]).items = {I(1)};
      SurfaceForm f{std::move(s), std::string("the input as the other, self zeros ") + size, {std::move(make)}};
      out_.push_back(std::move(f));
    }
  }

  void keywords() {
    for (const KwSpec& k : spec_.kwargs) {
      if (k.kind == KwKind::MemoryFormat)
        for (const char* f : {"preserve_format", "contiguous_format", "preserve", "contiguous", "channels_last",
                              "channels_last_3d"})
          add(with_kw(std::string(k.key), Ident{f}), std::string("format=") + f);
      if (k.kind == KwKind::DType)
        for (engine::DType d : {engine::DType::Float32, engine::DType::Float64, engine::DType::Float16,
                                engine::DType::BFloat16, engine::DType::Int64, engine::DType::Int32,
                                engine::DType::Int16, engine::DType::Int8, engine::DType::UInt8, engine::DType::Bool}) {
          const std::string dn(engine::dtype_name(d));
          if (step_.op == "view") {
            Step s = step_;
            s.args.resize(1);  // `view x none dtype=D` is not in the language (size is a list)
            s.kwargs = {{"dtype", Ident{dn}, {}}};
            add(std::move(s), "size left out, dtype=" + dn);
          } else {
            add(with_kw("dtype", Ident{dn}), "dtype=" + dn);
          }
        }
      if (k.kind == KwKind::Tensor && !step_.kwarg(k.key))
        for (const Arg& a : step_.args)
          if (const auto* n = std::get_if<Name>(&a)) add(with_kw(std::string(k.key), *n), "out= " + n->id);
    }
    if (step_.kwargs.size() >= 2) {
      Step s = step_;
      std::reverse(s.kwargs.begin(), s.kwargs.end());
      out_.push_back({std::move(s), "keywords in the other order"});
    }
  }

  Step with_kw(const std::string& key, Arg v) const {
    Step s = step_;
    for (KwArg& k : s.kwargs)
      if (k.key == key) {
        k.value = std::move(v);
        return s;
      }
    s.kwargs.push_back({key, std::move(v), {}});
    return s;
  }

  const Step& step_;
  const OpSpec& spec_;
  size_t rank_;
  std::vector<SurfaceForm> out_;
};

}  // namespace

std::vector<SurfaceForm> surface_forms(const Step& step, size_t rank) {
  if (!find_op(step.op)) return {};
  return Forms(step, rank).all();
}

}  // namespace sc
