#include "program/findings/shrink.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "program/ops.h"
#include "program/parser.h"
#include "program/printer.h"

namespace sc {
namespace {

// Integers by simplicity: 0, 1, -1, 2, -2, ...
int64_t int_rank(int64_t v) {
  if (v == INT64_MIN) return INT64_MAX;
  return v > 0 ? 2 * v - 1 : -2 * v;
}

// Simpler integers than v, simplest first.
std::vector<int64_t> simpler_ints(int64_t v) {
  std::vector<int64_t> out;
  for (int64_t c : {int64_t{0}, int64_t{1}, v / 2, v > 0 ? v - 1 : v + 1, -v})
    if (int_rank(c) < int_rank(v) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

std::vector<Number> simpler_numbers(const Number& n) {
  std::vector<Number> out;
  if (n.is_int()) {
    for (int64_t c : simpler_ints(n.i)) out.push_back(Number::integer(c));
  } else if (n.is_bool()) {
    if (n.i) out.push_back(Number::boolean(false));
  } else {
    auto rank = [](double f) { return std::isnan(f) ? 4.0 : std::isinf(f) ? 3.0 : f == 0 ? 0.0 : f == 1 ? 1.0 : 2.0; };
    for (double c : {0.0, 1.0, std::trunc(n.f)})
      if (std::isfinite(c) && (rank(c) < rank(n.f) || (rank(c) == 2.0 && std::fabs(c) < std::fabs(n.f))))
        out.push_back(Number::floating(c));
  }
  return out;
}

// Simpler versions of one argument.
std::vector<Arg> simpler_args(const Arg& a) {
  std::vector<Arg> out;
  if (auto* n = std::get_if<Number>(&a)) {
    for (const Number& c : simpler_numbers(*n)) out.push_back(c);
  } else if (auto* l = std::get_if<List>(&a)) {
    for (size_t k = 0; k < l->items.size(); ++k) {  // one element fewer (a lower rank)
      List c = *l;
      c.items.erase(c.items.begin() + static_cast<long>(k));
      out.push_back(c);
    }
    for (size_t k = 0; k < l->items.size(); ++k)
      for (const Number& x : simpler_numbers(l->items[k])) {
        List c = *l;
        c.items[k] = x;
        out.push_back(c);
      }
  }
  return out;
}

// The steps of `p` without those in `drop`, and without every step that reads
// a name only a dropped step binds (transitively).
Program without_steps(const Program& p, const std::set<size_t>& drop) {
  Program out;
  out.source_name = p.source_name;
  out.engine_threads = p.engine_threads;
  std::set<std::string> gone;
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const Step& s = p.steps[i];
    bool reads_gone = false;
    for (const std::string& in : s.inputs()) reads_gone |= gone.count(in) > 0;
    if (drop.count(i) || reads_gone) {
      gone.insert(s.outputs.begin(), s.outputs.end());
      continue;
    }
    out.steps.push_back(s);
  }
  return out;
}

class Shrinker {
 public:
  Shrinker(const Program& p, const std::function<bool(const Program&)>& test, const ShrinkPolicy& policy)
      : test_(test), policy_(policy) {
    best_.source_name = p.source_name;
    best_.engine_threads = p.engine_threads;  // a run setting, kept (Program::engine_threads)
    best_.steps = p.steps;
    for (Step& s : best_.steps) {
      s.leading_comments.clear();
      s.trailing_comment.clear();
    }
    tried_[print_program(best_, false)] = true;
  }

  ShrinkResult run() {
    const size_t before = best_.steps.size();
    bool progress = true;
    while (progress && !out_of_tests()) {
      progress = false;
      progress |= steps_pass();
      progress |= names_pass();
      progress |= args_pass();
    }
    rename();
    ShrinkResult r;
    r.program = best_;
    r.tests = tests_;
    r.out_of_tests = out_of_tests();
    r.log = std::move(log_);
    r.log.push_back(std::to_string(before) + " -> " + std::to_string(best_.steps.size()) + " steps, " +
                    std::to_string(tests_) + " tests" + (r.out_of_tests ? " (stopped: --max-tests reached)" : ""));
    return r;
  }

 private:
  bool out_of_tests() const { return tests_ >= policy_.max_tests; }

  // Parses the candidate (ops, SSA) and runs the test once per distinct text.
  bool accept(const Program& candidate) {
    if (out_of_tests()) return false;
    std::string text = print_program(candidate, false);
    auto it = tried_.find(text);
    if (it != tried_.end()) return false;
    Program parsed;
    try {
      parsed = parse_program(text, best_.source_name.empty() ? "<minimized>" : best_.source_name);
    } catch (const ParseError&) {
      tried_[text] = false;
      return false;
    }
    ++tests_;
    bool ok = test_(parsed);
    tried_[text] = ok;
    if (ok) best_ = std::move(parsed);
    return ok;
  }

  // ddmin over steps: remove chunks (and what reads them), halving the chunk size.
  bool steps_pass() {
    bool any = false;
    size_t n = 2;
    while (best_.steps.size() >= 2 && !out_of_tests()) {
      const size_t size = best_.steps.size();
      n = std::min(n, size);
      const size_t chunk = (size + n - 1) / n;
      bool removed = false;
      for (size_t start = 0; start < size; start += chunk) {
        std::set<size_t> drop;
        for (size_t k = start; k < std::min(size, start + chunk); ++k) drop.insert(k);
        Program prev = best_;
        if (accept(without_steps(best_, drop))) {
          log_removed(prev);
          removed = any = true;
          n = std::max<size_t>(n - 1, 2);
          break;
        }
      }
      if (removed) continue;
      if (n >= size) break;
      n = std::min(n * 2, size);
    }
    return any;
  }

  // Steps of `prev` that are not in best_ (compared by meaning, in order).
  void log_removed(const Program& prev) {
    size_t j = 0;
    for (const Step& s : prev.steps) {
      if (j < best_.steps.size() && s.same_as(best_.steps[j])) {
        ++j;
        continue;
      }
      log_.push_back("removed step: " + print_step(s));
    }
  }

  bool try_step(size_t i, const Step& replacement) {
    Program c = best_;
    c.steps[i] = replacement;
    std::string before = print_step(best_.steps[i]);
    if (!accept(c)) return false;
    log_.push_back("simplified: " + before + "  ->  " + print_step(best_.steps[i]));
    return true;
  }

  // Inputs replaced by earlier values (the steps between then go unread, and the steps pass removes them).
  bool names_pass() {
    bool any = false;
    for (size_t i = 0; i < best_.steps.size() && !out_of_tests(); ++i) {
      std::vector<std::string> earlier;  // names bound before step i, in order of definition
      for (size_t k = 0; k < i; ++k)
        for (const std::string& o : best_.steps[k].outputs) earlier.push_back(o);
      for (size_t a = 0; a < best_.steps[i].args.size(); ++a) {
        auto* name = std::get_if<Name>(&best_.steps[i].args[a]);
        if (!name) continue;
        const std::string current = name->id;
        for (const std::string& e : earlier) {
          if (e == current) break;  // only values defined before the current one
          Step s = best_.steps[i];
          s.args[a] = Name{e};
          if (try_step(i, s)) {
            any = true;
            break;
          }
        }
      }
    }
    return any;
  }

  // Candidates for one step, simplest change first.
  std::vector<Step> step_candidates(const Step& s) const {
    std::vector<Step> out;
    for (const std::string& op : simpler_ops(s.op)) {
      Step c = s;
      c.op = op;
      if (const OpSpec* spec = find_op(op); spec && c.args.size() > spec->params.size())
        c.args.resize(spec->params.size());
      out.push_back(c);
    }
    for (size_t k = 0; k < s.kwargs.size(); ++k) {
      Step c = s;
      c.kwargs.erase(c.kwargs.begin() + static_cast<long>(k));
      out.push_back(c);
      if (s.kwargs[k].key == "dtype") {
        auto* id = std::get_if<Ident>(&s.kwargs[k].value);
        if (id && id->id != "float32") {
          Step f = s;
          f.kwargs[k].value = Ident{"float32"};
          out.push_back(f);
        }
      }
    }
    if (const OpSpec* spec = find_op(s.op); spec && !s.args.empty() && s.args.size() <= spec->params.size() &&
                                            spec->params[s.args.size() - 1].default_value) {
      Step c = s;
      c.args.pop_back();  // a trailing argument that has a default
      out.push_back(c);
    }
    for (size_t a = 0; a < s.args.size(); ++a)
      for (const Arg& x : simpler_args(s.args[a])) {
        Step c = s;
        c.args[a] = x;
        out.push_back(c);
      }
    return out;
  }

  bool args_pass() {
    bool any = false;
    for (size_t i = 0; i < best_.steps.size() && !out_of_tests(); ++i) {
      bool changed = true;
      while (changed && !out_of_tests()) {  // again from the simplest, after each accepted change
        changed = false;
        for (const Step& c : step_candidates(best_.steps[i]))
          if (try_step(i, c)) {
            changed = any = true;
            break;
          }
      }
    }
    return any;
  }

  // a, b, c, ... in order of definition (skipped when the test disagrees).
  void rename() {
    std::map<std::string, std::string> to;
    size_t next = 0;
    auto fresh = [&next]() {
      std::string n;
      size_t k = next++;
      do {
        n.insert(n.begin(), static_cast<char>('a' + k % 26));
        k = k / 26;
      } while (k-- > 0);
      return n;
    };
    Program c = best_;
    for (Step& s : c.steps) {
      for (Arg& a : s.args)
        if (auto* n = std::get_if<Name>(&a)) n->id = to.at(n->id);
      for (KwArg& k : s.kwargs)
        if (auto* n = std::get_if<Name>(&k.value)) n->id = to.at(n->id);
      for (std::string& o : s.outputs) o = to[o] = fresh();
    }
    if (print_program(c, false) == print_program(best_, false)) return;
    const int budget = policy_.max_tests;
    if (out_of_tests()) policy_.max_tests = tests_ + 1;  // renaming is worth one more test
    if (accept(c)) log_.push_back("renamed values a, b, c, ... in order of definition");
    policy_.max_tests = budget;
  }

  std::function<bool(const Program&)> test_;
  ShrinkPolicy policy_;
  Program best_;
  std::map<std::string, bool> tried_;
  std::vector<std::string> log_;
  int tests_ = 0;
};

}  // namespace

ShrinkResult shrink_program(const Program& program, const std::function<bool(const Program&)>& still_fails,
                            const ShrinkPolicy& policy) {
  return Shrinker(program, still_fails, policy).run();
}

}  // namespace sc
