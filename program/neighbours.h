#pragma once
// Neighbour search: variants of a given (hand-written) program. Each corpus
// program sits at a point someone cared about (an edge, a regression, a
// version difference); its neighbours are the programs one edit away:
//   argument   one parameter of one step redrawn from one class of its
//              domain (program/domains.h: valid, boundary, invalid), by the
//              generator's own draw (redraw_parameter, program/generator.h);
//              a creation step's shape and dtype= are parameters too
//   drop       one step removed, with the steps that read what it binds
//   duplicate  one step written twice (an in-place step applies twice; a
//              step with results binds fresh names)
//   reapply    one step applied again to its own first result
//   sibling    one step's op swapped for another of its family
//              (op_family, program/ops.h) where the arguments still fit
// Every (step, parameter) pair with a domain is a site, and so is each step's
// structure (drop, duplicate, reapply, siblings). derive_neighbours visits the
// sites round robin in a seeded order, each time taking the next of the
// site's candidates (its domain's classes, in a seeded order), so a small
// count still varies every site once. Everything follows from the seed.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "program/domains.h"
#include "program/generator.h"
#include "program/ir.h"

namespace sc {

enum class NeighbourKind { Argument, Drop, Duplicate, Reapply, Sibling };
std::string_view neighbour_kind_name(NeighbourKind);  // "argument", "drop", ...

struct Neighbour {
  Program program;
  NeighbourKind kind = NeighbourKind::Argument;
  size_t step = 0;          // the varied step's index in the original program
  std::string op;           // the original step's op
  std::string param;        // argument: the parameter ("dim", "dtype"); sibling: the new op
  std::string klass;        // argument: the domain class drawn from
  Validity validity = Validity::Valid;  // argument: the class's validity
  size_t site = 0;          // index into NeighbourPlan::sites
  uint64_t seed = 0;        // the variant's own choices (Choices::from_seed)
  // "step 3 (narrow) start: 'size+1' (invalid)", "step 2 (view) -> reshape", "drop step 4 (add_)".
  std::string description() const;
};

struct NeighbourSite {
  size_t step = 0;
  std::string op;
  std::string param;  // "" for the step's structure
  bool kwarg = false;
  size_t index = 0;   // into OpDomain::params or ::kwargs
  Domain domain = Domain::Self;
};

struct NeighbourPlan {
  std::vector<NeighbourSite> sites;  // every site of the program, in program order
  size_t candidates = 0;             // edits the sites allow in all
  size_t not_applicable = 0;         // candidates tried that gave no program (redraw_parameter's nullopt)
  size_t repeats = 0;                // draws that gave the original or an earlier variant again
};

struct NeighbourPolicy {
  uint64_t seed = 0;
  size_t count = 64;  // variants at most; 0: every candidate
  // For the engine runs of each prefix: budget and step limits. The corpus
  // runs with replay's budget; over max_bytes a prefix step binds nothing.
  GeneratorPolicy generator = [] {
    GeneratorPolicy g;
    g.max_bytes = int64_t{1} << 28;
    return g;
  }();
};

// Variants of `program`, deterministic for policy.seed (recordings dropped;
// the varied step's trailing comment names the edit).
std::vector<Neighbour> derive_neighbours(const Program& program, const NeighbourPolicy& policy,
                                         NeighbourPlan* plan = nullptr);

}  // namespace sc
