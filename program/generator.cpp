#include "program/generator.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "engine/error.h"
#include "program/budget.h"
#include "program/engine_ops.h"
#include "program/ops.h"

namespace sc {

Choices Choices::from_bytes(const uint8_t* data, size_t size) {
  std::vector<uint32_t> v;
  v.reserve(size / 2 + 1);
  for (size_t i = 0; i + 1 < size; i += 2) v.push_back(static_cast<uint32_t>(data[i]) << 8 | data[i + 1]);
  if (size % 2) v.push_back(data[size - 1]);
  return Choices(std::move(v));
}

Choices Choices::from_seed(uint64_t seed, size_t count) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> v(count);
  for (auto& x : v) x = static_cast<uint32_t>(rng());
  return Choices(std::move(v));
}

uint32_t Choices::below(uint32_t n) {
  if (n <= 1 || pos_ >= values_.size()) return 0;
  return values_[pos_++] % n;
}

int64_t Choices::between(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  uint32_t r = below(span > 0xffffffffu ? 0xffffffffu : static_cast<uint32_t>(span));
  return lo + static_cast<int64_t>(r);
}

bool Choices::percent(int p) { return static_cast<int>(below(100)) < p; }

namespace {

using engine::Tensor;

struct Value {
  std::string name;
  Tensor tensor;
};

class Generator {
 public:
  Generator(Choices& c, const GeneratorPolicy& p) : c_(c), p_(p) {
    for (const OpSpec& s : all_ops())
      if (p_.ops.empty() || std::find(p_.ops.begin(), p_.ops.end(), s.name) != p_.ops.end())
        by_category_[static_cast<int>(s.category)].push_back(&s);
  }

  Program run() {
    Program prog;
    prog.source_name = "<generated>";
    emit(prog, creation());
    int steps = static_cast<int>(c_.between(1, p_.max_steps));
    for (int i = 0; i < steps && !c_.exhausted(); ++i) {
      if (env_.empty()) {
        emit(prog, creation());
        continue;
      }
      std::optional<Step> s = next_step();
      if (s) emit(prog, std::move(*s));
    }
    return prog;
  }

 private:
  // ---- drawing helpers -----------------------------------------------------
  int64_t size_draw() { return c_.between(0, p_.max_dim_size) == 0 && c_.percent(70) ? 1 : c_.between(0, p_.max_dim_size); }
  bool wild() { return c_.percent(p_.wild_percent); }
  const Value& pick() { return env_[c_.below(static_cast<uint32_t>(env_.size()))]; }
  // A dim of a rank-r tensor, negative half the time; out of range when wild.
  int64_t dim(int64_t r) {
    if (wild()) return c_.between(-r - 2, r + 1);
    if (r == 0) return c_.percent(50) ? 0 : -1;
    int64_t d = c_.between(0, r - 1);
    return c_.percent(30) ? d - r : d;
  }
  int64_t wrap(int64_t d, int64_t r) const { return d < 0 ? d + std::max<int64_t>(r, 1) : d; }
  int64_t size_at(const Tensor& t, int64_t d) const {
    int64_t w = wrap(d, t.dim());
    return (w >= 0 && w < t.dim()) ? t.sizes[w] : 1;
  }
  Number int_num(int64_t v) { return Number::integer(v); }
  List int_list(const std::vector<int64_t>& v) {
    List l;
    for (int64_t x : v) l.items.push_back(Number::integer(x));
    return l;
  }
  Number scalar() {
    static const double floats[] = {0.5, -1.5, 2.0, 3.25, -0.0, 1e-3};
    static const int64_t ints[] = {0, 1, 2, -3, 7, 100};
    switch (c_.below(5)) {
      case 0: return Number::floating(floats[c_.below(6)]);
      case 1: return Number::boolean(c_.percent(50));
      default: return Number::integer(ints[c_.below(6)]);
    }
  }
  Ident dtype() {
    static const char* names[] = {"float32", "float64", "float16", "bfloat16", "int64",
                                  "int32",   "int16",   "int8",    "uint8",    "bool"};
    return Ident{names[c_.below(10)]};
  }
  std::vector<int64_t> shape(int rank) {
    std::vector<int64_t> s(static_cast<size_t>(rank));
    for (auto& x : s) x = size_draw();
    return s;
  }
  // A random factorisation of n into up to max_rank factors, sometimes with a -1.
  std::vector<int64_t> factor_shape(int64_t n) {
    std::vector<int64_t> out;
    int rank = static_cast<int>(c_.between(0, p_.max_rank));
    int64_t rest = n;
    for (int i = 0; i + 1 < rank; ++i) {
      std::vector<int64_t> divisors;
      for (int64_t d = 1; d <= rest && d <= 12; ++d)
        if (rest == 0 || rest % d == 0) divisors.push_back(d);
      if (rest == 0) divisors.push_back(0);
      int64_t f = divisors[c_.below(static_cast<uint32_t>(divisors.size()))];
      out.push_back(f);
      if (f != 0) rest /= f;
    }
    out.push_back(rest);
    if (rank == 0 && n != 1) out = {n};
    if (!out.empty() && c_.percent(25)) out[c_.below(static_cast<uint32_t>(out.size()))] = -1;
    if (wild()) out.push_back(c_.between(-2, 3));
    return out;
  }
  std::vector<int64_t> distinct_dims(int64_t r) {
    std::vector<int64_t> all(static_cast<size_t>(r));
    std::iota(all.begin(), all.end(), 0);
    std::vector<int64_t> out;
    for (int64_t d : all)
      if (c_.percent(50)) out.push_back(c_.percent(30) ? d - r : d);
    if (wild()) out.push_back(dim(r));
    return out;
  }
  std::vector<int64_t> permutation(int64_t r) {
    std::vector<int64_t> p(static_cast<size_t>(r));
    std::iota(p.begin(), p.end(), 0);
    for (int64_t i = r - 1; i > 0; --i) std::swap(p[i], p[c_.between(0, i)]);
    if (wild() && r > 0) p[c_.below(static_cast<uint32_t>(r))] = c_.between(-r, r);
    return p;
  }

  // ---- steps -----------------------------------------------------------------
  Step make(std::string op, std::vector<Arg> args, std::vector<KwArg> kwargs = {}) {
    Step s;
    s.op = std::move(op);
    s.args = std::move(args);
    s.kwargs = std::move(kwargs);
    return s;
  }

  Step creation() {
    std::vector<KwArg> kw;
    if (c_.percent(p_.other_dtype_percent)) kw.push_back({"dtype", dtype(), {}});
    int rank = static_cast<int>(c_.between(0, p_.max_rank));
    switch (c_.below(6)) {
      case 0: return make("arange", {int_num(c_.between(0, 24))}, kw);
      case 1: return make("zeros", {int_list(shape(rank))}, kw);
      case 2: return make("ones", {int_list(shape(rank))}, kw);
      case 3: return make("full", {int_list(shape(rank)), scalar()}, kw);
      case 4: {
        if (c_.percent(20)) return make("tensor", {scalar()}, kw);
        List l;
        int n = static_cast<int>(c_.between(0, 6));
        for (int i = 0; i < n; ++i) l.items.push_back(scalar());
        return make("tensor", {l}, kw);
      }
      default: {
        std::vector<int64_t> s = shape(rank), st(s.size());
        for (auto& x : st) x = c_.between(0, 12);
        return make("empty_strided", {int_list(s), int_list(st)}, kw);
      }
    }
  }

  std::optional<Step> next_step() {
    int weights[5] = {p_.weight_creation, p_.weight_view, p_.weight_copy, p_.weight_inplace,
                      p_.weight_elementwise};
    int total = 0;
    for (int i = 0; i < 5; ++i) total += by_category_[i].empty() ? 0 : weights[i];
    if (total == 0) return std::nullopt;
    int r = static_cast<int>(c_.below(static_cast<uint32_t>(total)));
    int cat = 0;
    for (; cat < 5; ++cat) {
      int w = by_category_[cat].empty() ? 0 : weights[cat];
      if (r < w) break;
      r -= w;
    }
    if (cat == static_cast<int>(OpCategory::Creation)) return creation();
    const auto& ops = by_category_[cat];
    const OpSpec* spec = ops[c_.below(static_cast<uint32_t>(ops.size()))];
    return op_step(*spec);
  }

  KwArg kw(std::string key, Arg v) { return KwArg{std::move(key), std::move(v), {}}; }

  Ident format(const Tensor& t) {
    static const char* names[] = {"preserve", "contiguous", "channels_last", "channels_last_3d"};
    if (!wild()) {
      if (t.dim() == 4 && c_.percent(50)) return Ident{"channels_last"};
      if (t.dim() == 5 && c_.percent(50)) return Ident{"channels_last_3d"};
      return Ident{names[c_.below(2)]};
    }
    return Ident{names[c_.below(4)]};
  }

  Arg other_operand(const Tensor& self) {
    if (c_.percent(50)) return scalar();
    return Name{pick().name};
  }

  std::optional<Step> op_step(const OpSpec& spec) {
    const Value& v = pick();
    const Tensor& t = v.tensor;
    const int64_t r = t.dim();
    Name self{v.name};
    const std::string op(spec.name);
    auto d0 = [&] { return dim(r); };
    if (op == "view" || op == "reshape") {
      if (op == "view" && c_.percent(15)) return make(op, {self}, {kw("dtype", dtype())});
      return make(op, {self, int_list(factor_shape(t.numel()))});
    }
    if (op == "view_as" || op == "expand_as") return make(op, {self, Name{pick().name}});
    if (op == "flatten") {
      if (c_.percent(20)) return make(op, {self});
      return make(op, {self, int_num(d0()), int_num(d0())});
    }
    if (op == "unflatten") {
      int64_t d = d0();
      return make(op, {self, int_num(d), int_list(factor_shape(size_at(t, d)))});
    }
    if (op == "transpose") return make(op, {self, int_num(d0()), int_num(d0())});
    if (op == "t" || op == "mT" || op == "T" || op == "detach" || op == "alias" || op == "zero_" ||
        op == "neg" || op == "empty_like" || op == "zeros_like" || op == "contiguous" || op == "clone") {
      std::vector<KwArg> k;
      if ((op == "contiguous" || op == "clone" || op == "empty_like" || op == "zeros_like") && c_.percent(40))
        k.push_back(kw("format", format(t)));
      if ((op == "empty_like" || op == "zeros_like") && c_.percent(20)) k.push_back(kw("dtype", dtype()));
      if (op == "neg" && env_.size() > 1 && c_.percent(20)) k.push_back(kw("out", Name{pick().name}));
      return make(op, {self}, k);
    }
    if (op == "permute") return make(op, {self, int_list(permutation(r))});
    if (op == "movedim") {
      if (c_.percent(50)) return make(op, {self, int_num(d0()), int_num(d0())});
      std::vector<int64_t> src = distinct_dims(r), dst = permutation(r);
      dst.resize(std::min(dst.size(), src.size()));
      if (wild()) dst.push_back(0);
      return make(op, {self, int_list(src), int_list(dst)});
    }
    if (op == "expand" || op == "broadcast_to") {
      std::vector<int64_t> s;
      int extra = static_cast<int>(c_.between(0, 2));
      for (int i = 0; i < extra; ++i) s.push_back(c_.between(1, 4));
      for (int64_t d = 0; d < r; ++d) {
        int64_t sz = t.sizes[d];
        if (sz == 1 && c_.percent(60)) s.push_back(c_.between(0, 5));
        else s.push_back(c_.percent(30) ? -1 : sz);
      }
      if (wild() && !s.empty()) s[c_.below(static_cast<uint32_t>(s.size()))] = c_.between(-2, 7);
      if (c_.percent(3)) s.insert(s.begin(), 1000000000);  // views never allocate
      return make(op, {self, int_list(s)});
    }
    if (op == "unsqueeze") return make(op, {self, int_num(wild() ? c_.between(-r - 3, r + 2) : c_.between(-r - 1, r))});
    if (op == "squeeze") {
      if (c_.percent(40)) return make(op, {self});
      return make(op, {self, int_num(d0())});
    }
    if (op == "narrow") {
      int64_t d = d0(), s = size_at(t, d);
      int64_t start = c_.between(wild() ? -s - 2 : -s, s);
      int64_t len = c_.between(wild() ? -1 : 0, std::max<int64_t>(0, s - (start < 0 ? start + s : start)) + (wild() ? 2 : 0));
      return make(op, {self, int_num(d), int_num(start), int_num(len)});
    }
    if (op == "slice") {
      int64_t d = d0(), s = size_at(t, d);
      auto bound = [&]() -> Arg {
        if (c_.percent(25)) return Ident{"none"};
        return int_num(c_.between(-s - 2, s + 2));
      };
      int64_t step = wild() ? c_.between(-1, 0) : c_.between(1, 3);
      return make(op, {self, int_num(d), bound(), bound(), int_num(step)});
    }
    if (op == "select") {
      int64_t d = d0(), s = size_at(t, d);
      int64_t idx = wild() ? c_.between(-s - 2, s + 1) : c_.between(-s, std::max<int64_t>(s - 1, -s));
      return make(op, {self, int_num(d), int_num(idx)});
    }
    if (op == "diagonal") return make(op, {self, int_num(c_.between(-3, 3)), int_num(d0()), int_num(d0())});
    if (op == "unfold") {
      int64_t d = d0(), s = size_at(t, d);
      return make(op, {self, int_num(d), int_num(c_.between(wild() ? -1 : 0, s + 1)),
                       int_num(c_.between(wild() ? -1 : 1, 3))});
    }
    if (op == "as_strided") {
      int64_t elems = t.storage->nbytes() / engine::itemsize(t.dtype);
      int rank = static_cast<int>(c_.between(0, 3));
      std::vector<int64_t> s = shape(rank), st(s.size());
      for (auto& x : st) x = c_.between(0, 4);
      std::vector<Arg> args{self, int_list(s), int_list(st)};
      if (c_.percent(50)) args.push_back(int_num(c_.between(0, std::max<int64_t>(0, elems / 2))));
      return make(op, args);
    }
    if (op == "split") {
      int64_t d = d0(), s = size_at(t, d);
      if (c_.percent(50)) return make(op, {self, int_num(c_.between(wild() ? 0 : 1, std::max<int64_t>(1, s))), int_num(d)});
      std::vector<int64_t> parts;
      int64_t left = s;
      while (left > 0) {
        int64_t p = c_.between(0, left);
        parts.push_back(p);
        left -= p;
        if (parts.size() > 6) break;
      }
      if (wild()) parts.push_back(1);
      return make(op, {self, int_list(parts), int_num(d)});
    }
    if (op == "chunk") return make(op, {self, int_num(c_.between(wild() ? 0 : 1, 4)), int_num(d0())});
    if (op == "unbind") return make(op, {self, int_num(d0())});
    if (op == "to") {
      if (c_.percent(50)) return make(op, {self}, {kw("dtype", dtype())});
      return make(op, {self}, {kw("format", format(t))});
    }
    if (op == "repeat") {
      std::vector<int64_t> rep;
      int64_t n = r + c_.between(wild() ? -1 : 0, 1);
      for (int64_t i = 0; i < n; ++i) rep.push_back(c_.between(wild() ? -1 : 0, 3));
      return make(op, {self, int_list(rep)});
    }
    if (op == "index_select") {
      int64_t d = d0(), s = size_at(t, d);
      std::vector<int64_t> idx;
      int64_t n = c_.between(0, 4);
      for (int64_t i = 0; i < n; ++i) idx.push_back(c_.between(wild() ? -s - 1 : 0, wild() ? s : std::max<int64_t>(0, s - 1)));
      return make(op, {self, int_num(d), int_list(idx)});
    }
    if (op == "flip") return make(op, {self, int_list(distinct_dims(r))});
    if (op == "add_" || op == "sub_" || op == "mul_" || op == "div_") return make(op, {self, other_operand(t)});
    if (op == "fill_") {
      if (c_.percent(75)) return make(op, {self, scalar()});
      return make(op, {self, Name{pick().name}});
    }
    if (op == "clamp_") {
      auto bound = [&]() -> Arg { return c_.percent(30) ? Arg(Ident{"none"}) : Arg(scalar()); };
      return make(op, {self, bound(), bound()});
    }
    if (op == "copy_") return make(op, {self, Name{pick().name}});
    if (op == "add" || op == "mul") {
      std::vector<KwArg> k;
      if (c_.percent(15)) k.push_back(kw("out", Name{pick().name}));
      return make(op, {self, other_operand(t)}, k);
    }
    return std::nullopt;  // an op this generator does not know yet
  }

  // Runs `s` on the engine to learn its results' headers, names them, and
  // appends it to the program.
  void emit(Program& prog, Step s) {
    const OpSpec* spec = find_op(s.op);
    if (!spec || check_signature(s)) return;
    auto lookup_header = [&](const std::string& n) {
      for (const Value& v : env_)
        if (v.name == n) return InputHeader{v.tensor.sizes, v.tensor.strides, engine::itemsize(v.tensor.dtype)};
      return InputHeader{};
    };
    auto est = allocation_estimate(s, lookup_header);
    if (est && est->bytes > p_.max_bytes) return;

    std::vector<Tensor> results;
    bool ok = true;
    try {
      EngineStepContext ctx;
      Lookup<Tensor> lookup = [&](const std::string& n) -> const Tensor& {
        for (const Value& v : env_)
          if (v.name == n) return v.tensor;
        throw std::logic_error("generator: unbound " + n);
      };
      auto it = engine_op_table().find(s.op);
      if (it == engine_op_table().end()) ok = false;
      else results = it->second(ArgReader(s), lookup, ctx);
    } catch (const engine::TorchError&) {
      ok = false;
    }
    size_t names = spec->results == Results::Many ? (ok ? results.size() : 2)
                   : spec->results == Results::Self ? (c_.percent(20) ? 1 : 0)
                                                    : 1;
    names = std::min<size_t>(names, 4);
    for (size_t i = 0; i < names; ++i) {
      std::string n = "v" + std::to_string(next_name_++);
      s.outputs.push_back(n);
      if (ok && i < results.size()) env_.push_back({n, results[i]});
    }
    prog.steps.push_back(std::move(s));
  }

  Choices& c_;
  const GeneratorPolicy& p_;
  std::vector<const OpSpec*> by_category_[5];
  std::vector<Value> env_;
  int next_name_ = 0;
};

}  // namespace

Program generate_program(Choices& choices, const GeneratorPolicy& policy) {
  return Generator(choices, policy).run();
}

}  // namespace sc
