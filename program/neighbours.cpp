#include "program/neighbours.h"

#include <algorithm>
#include <deque>
#include <random>
#include <set>

#include "program/ops.h"
#include "program/printer.h"

namespace sc {
namespace {

// splitmix64: the variant seeds, independent of the order sites are visited in.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Candidate {
  NeighbourKind kind = NeighbourKind::Argument;
  std::string_view klass;  // argument: a class of the site's domain (static storage)
  Validity validity = Validity::Valid;
  std::string op;          // sibling: the new op
  size_t ordinal = 0;      // its place in the site's full list (the variant's seed)
};

// "d0", "d1", ...: names no step of `p` binds.
class FreshNames {
 public:
  explicit FreshNames(const Program& p) {
    for (const Step& s : p.steps) used_.insert(s.outputs.begin(), s.outputs.end());
  }
  std::string next() {
    for (;;) {
      std::string n = "d" + std::to_string(k_++);
      if (used_.insert(n).second) return n;
    }
  }

 private:
  std::set<std::string> used_;
  int k_ = 0;
};

std::vector<std::string> fresh_outputs(const Step& s, FreshNames& names) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.outputs.size(); ++i) out.push_back(names.next());
  return out;
}

// The sites of `p`: each step's parameters and keyword arguments with a
// domain, then its structure.
std::vector<NeighbourSite> sites_of(const Program& p) {
  std::vector<NeighbourSite> sites;
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const Step& s = p.steps[i];
    if (const OpDomain* dom = find_domain(s.op)) {
      for (size_t k = 0; k < dom->params.size(); ++k)
        sites.push_back({i, s.op, std::string(dom->params[k].param), false, k, dom->params[k].domain});
      for (size_t k = 0; k < dom->kwargs.size(); ++k)
        if (dom->kwargs[k].domain != Domain::SetByShape)
          sites.push_back({i, s.op, std::string(dom->kwargs[k].param), true, k, dom->kwargs[k].domain});
    }
    sites.push_back({i, s.op, "", false, 0, Domain::Self});
  }
  return sites;
}

// Steps applied to their own first result: a tensor input and a result to read.
bool can_reapply(const Step& s) {
  const OpSpec* spec = find_op(s.op);
  return spec && !spec->params.empty() && spec->params[0].kind == ParamKind::Tensor && !s.outputs.empty() &&
         !s.args.empty() && std::holds_alternative<Name>(s.args[0]);
}

// The step with op swapped for `op`, arguments cut to op's parameter count;
// nothing when they do not fit op's signature.
std::optional<Step> swapped(const Step& s, const std::string& op) {
  Step c = s;
  c.op = op;
  const OpSpec* spec = find_op(op);
  if (!spec) return std::nullopt;
  if (c.args.size() > spec->params.size()) c.args.resize(spec->params.size());
  if (check_signature(c)) return std::nullopt;
  return c;
}

std::vector<Candidate> candidates_of(const Program& p, const NeighbourSite& site) {
  std::vector<Candidate> out;
  if (!site.param.empty()) {
    for (const DomainClass& c : domain_classes(site.domain))
      out.push_back({NeighbourKind::Argument, c.name, c.validity, "", out.size()});
    return out;
  }
  const Step& s = p.steps[site.step];
  if (p.steps.size() > 1) out.push_back({NeighbourKind::Drop, {}, Validity::Valid, "", out.size()});
  out.push_back({NeighbourKind::Duplicate, {}, Validity::Valid, "", out.size()});
  if (can_reapply(s)) out.push_back({NeighbourKind::Reapply, {}, Validity::Valid, "", out.size()});
  for (const std::string& op : op_family(s.op))
    if (swapped(s, op)) out.push_back({NeighbourKind::Sibling, {}, Validity::Valid, op, out.size()});
  return out;
}

// The variant a candidate stands for; nullopt when it gives none. *varied:
// the varied (or inserted) step's index in the variant.
std::optional<Program> materialize(const Program& p, const NeighbourSite& site, const Candidate& c, uint64_t seed,
                                   const GeneratorPolicy& gp, size_t* varied) {
  *varied = site.step;
  switch (c.kind) {
    case NeighbourKind::Argument: {
      Choices choices = Choices::from_seed(seed, 1024);
      auto v = redraw_parameter(p, Redraw{site.step, site.kwarg, site.index, c.klass}, choices, gp);
      if (v) *varied = site.step + (v->steps.size() - p.steps.size());  // preparation steps come first
      return v;
    }
    case NeighbourKind::Drop: {
      // The step and every step that reads what it binds, directly or not
      // (a name used before it is assigned does not parse).
      std::set<std::string> gone(p.steps[site.step].outputs.begin(), p.steps[site.step].outputs.end());
      Program v = p;
      v.steps.clear();
      for (size_t i = 0; i < p.steps.size(); ++i) {
        const Step& s = p.steps[i];
        bool reads_gone = false;
        s.for_each_input([&](const std::string& n) { reads_gone |= gone.count(n) > 0; });
        if (i == site.step || (i > site.step && reads_gone)) {
          gone.insert(s.outputs.begin(), s.outputs.end());
          continue;
        }
        v.steps.push_back(s);
      }
      if (v.steps.empty()) return std::nullopt;
      *varied = std::min(site.step, v.steps.size() - 1);
      return v;
    }
    case NeighbourKind::Duplicate:
    case NeighbourKind::Reapply: {
      Program v = p;
      FreshNames names(p);
      Step again = p.steps[site.step];
      if (c.kind == NeighbourKind::Reapply) again.args[0] = Name{again.outputs[0]};
      again.outputs = fresh_outputs(again, names);
      v.steps.insert(v.steps.begin() + static_cast<long>(site.step) + 1, std::move(again));
      *varied = site.step + 1;
      return v;
    }
    case NeighbourKind::Sibling: {
      auto s = swapped(p.steps[site.step], c.op);
      if (!s) return std::nullopt;
      Program v = p;
      v.steps[site.step] = std::move(*s);
      return v;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view neighbour_kind_name(NeighbourKind k) {
  switch (k) {
    case NeighbourKind::Argument: return "argument";
    case NeighbourKind::Drop: return "drop";
    case NeighbourKind::Duplicate: return "duplicate";
    case NeighbourKind::Reapply: return "reapply";
    case NeighbourKind::Sibling: return "sibling";
  }
  return "?";
}

std::string Neighbour::description() const {
  const std::string at = "step " + std::to_string(step + 1) + " (" + op + ")";
  switch (kind) {
    case NeighbourKind::Argument:
      return at + " " + param + ": '" + klass + "' (" + std::string(validity_name(validity)) + ")";
    case NeighbourKind::Drop: return "drop " + at;
    case NeighbourKind::Duplicate: return "duplicate " + at;
    case NeighbourKind::Reapply: return "reapply " + at + " to its result";
    case NeighbourKind::Sibling: return at + " -> " + param;
  }
  return at;
}

std::vector<Neighbour> derive_neighbours(const Program& program, const NeighbourPolicy& policy, NeighbourPlan* plan) {
  Program base = program;
  base.recorded.clear();
  NeighbourPlan local;
  NeighbourPlan& pl = plan ? *plan : local;
  pl = NeighbourPlan{};
  pl.sites = sites_of(base);

  std::mt19937_64 rng(mix(policy.seed ^ mix(pl.sites.size())));
  auto below = [&](size_t n) { return n <= 1 ? size_t{0} : static_cast<size_t>(rng() % n); };
  auto shuffle = [&](auto& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  };
  std::vector<std::deque<Candidate>> queues(pl.sites.size());
  for (size_t i = 0; i < pl.sites.size(); ++i) {
    std::vector<Candidate> c = candidates_of(base, pl.sites[i]);
    pl.candidates += c.size();
    shuffle(c);
    queues[i].assign(c.begin(), c.end());
  }
  std::vector<size_t> order(pl.sites.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  shuffle(order);

  std::set<std::string> seen{print_program(base, /*with_comments=*/false)};
  std::vector<Neighbour> out;
  const size_t want = policy.count ? policy.count : pl.candidates;
  // Round robin: in its turn a site gives its next candidate that makes a
  // new program (an argument class drawing the value the program has, or
  // an earlier variant's, is drawn again with other choices, twice).
  for (bool any = true; any && out.size() < want;) {
    any = false;
    for (size_t si : order) {
      if (out.size() >= want) break;
      while (!queues[si].empty()) {
        any = true;
        const Candidate c = queues[si].front();
        queues[si].pop_front();
        const NeighbourSite& site = pl.sites[si];
        std::optional<Program> v;
        size_t varied = 0;
        uint64_t seed = 0;
        bool none = false;
        for (int attempt = 0; attempt < (c.kind == NeighbourKind::Argument ? 3 : 1); ++attempt) {
          seed = mix(policy.seed ^ mix((si * 1000003 + c.ordinal) * 8 + static_cast<uint64_t>(attempt)));
          v = materialize(base, site, c, seed, policy.generator, &varied);
          none = !v;
          if (!v || seen.insert(print_program(*v, /*with_comments=*/false)).second) break;
          v.reset();
          ++pl.repeats;
        }
        if (!v) {
          pl.not_applicable += none;
          continue;
        }
        Neighbour n;
        n.kind = c.kind;
        n.step = site.step;
        n.op = site.op;
        n.param = c.kind == NeighbourKind::Sibling ? c.op : site.param;
        n.klass = std::string(c.klass);
        n.validity = c.validity;
        n.site = si;
        n.seed = seed;
        if (varied < v->steps.size()) v->steps[varied].trailing_comment = "neighbour: " + n.description();
        n.program = std::move(*v);
        out.push_back(std::move(n));
        break;
      }
    }
  }
  return out;
}

}  // namespace sc
