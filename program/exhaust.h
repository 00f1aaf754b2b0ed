#pragma once
// Domain enumeration (`stridecheck exhaust`): each op of the op table
// (program/ops.h) over a fixed catalogue of small inputs and every class of
// every parameter's domain (program/domains.h), deterministically, where the
// random search (program/generator.h) draws by weight and the neighbour
// search (program/neighbours.h) edits hand-written programs. A rule that
// needs one combination (a layout x a dtype pair x a boundary value) is then
// met by construction, not by luck.
//
// Note [The exhaust catalogue]: the inputs are views of one base tensor of
// 24 elements holding its dtype's edges (NaN, +-inf, -0.0, 0.5, the finite
// limits and the smallest subnormal, 2^31, 2^63 and values past them, the
// integer dtypes' min and max and one within and past, 255/256), in the
// layouts the view and data ops branch on: contiguous 1-d to 4-d, 0-d, size
// 0 (also with a stride-0 dim), size 1, transposed, stride 0 (expanded), a storage offset,
// channels_last, overlapping (as_strided), non-dense (a sliced dim), size-1
// dims with odd strides (also dense and transposed: clone's preserve rule
// keeps exact strides there), N111 (every stride 1: channels_last-like yet
// ambiguous, so contiguous), contiguous and channels_last at once
// (TensorIterator's fast set-up), a 9x16 transposed slice of 288
// elements (the copy kernels' tiled path), and extreme headers
// (Note [Extreme layouts]). View ops take every layout in float32 (`view`
// every dtype: its dtype= reinterprets); data ops every layout in every
// dtype (ExhaustPolicy::phase 1: every layout in float32, the other dtypes
// in five layouts: 1-d, 0-d, size 0, transposed, tiled; phase 4 the rest,
// and the four stale headers added last in every dtype, so that phase 1
// stays as plants were measured on it).
// Creation ops take each dtype with each of its scalar edges
// (full's value, also beside a wrong size: check order; the literal's
// values one at a time and each dtype's edges as another's literal).
//
// Note [Extreme layouts]: headers no small tensor has, on which LibTorch's
// overflow checks fire, and which only the random search's multi-step
// programs made before (88 of the 384 listed 2.15 error templates were never
// met by the enumeration, `stridecheck exercise --templates`; 53 with them):
//  - empty views whose sizes multiply past int64: [0,4,2^62,4] (contiguous
//    strides overflow in clone, contiguous, empty_like, to, out= resizes),
//    [0,INT64_MAX] (repeat's and flatten's products);
//  - an empty view at storage offset INT64_MAX - 1 (select, narrow, unbind,
//    chunk move the offset past int64: "Tensor: invalid storage offset");
//  - stale headers, x the out= of a resize that raised half way (Note [Stale
//    headers], program/generator.cpp): sizes [3,-1,0] with a stale numel,
//    contiguous strides past INT64_MAX over numel 0, sizes [2] at an offset
//    whose bytes pass INT64_MAX in a storage never grown; sizes
//    [2^32,2^32] over [4,6]'s strides with numel 24 (the view ops'
//    setStorage bounds check; over a 0-d x, strides 0: a new tensor's numel
//    overflows), a stride wrapped to -2^62+4 (as_strided's
//    negative stride check; below -2^62 LibTorch 2.15 is not run), sizes
//    [2,2] at an offset whose bytes pass INT64_MAX (the bounds check
//    overflowing with the strides);
//  - a size-1 dim of stride 2^62 or INT64_MAX, which contiguity, overlap and
//    the storage size ignore: a rule that reads that stride shows.
//
// Note [Exhaust combinations]: for each (op, input) every parameter (and
// keyword) is varied alone, the others at their first valid class (optional
// ones left out): each class of its domain, drawn by the generator's own
// per-class draw (redraw_parameter), and for integer and scalar parameters
// every boundary value written out (dims -rank-2..rank+1, indices and
// lengths -size-2..size+2 of the dim, INT64 and 2^31 / 2^62 edges; scalars at
// the input dtype's min and max, one within and one past, NaN, +-inf, -0.0,
// 0.5, 2^31, 2^63). The self parameter is varied by its domain's classes too
// (the generator makes a value of each layout class), each also with every
// class of each other parameter. On a few inputs (rank
// 2 float32, 0-d float32, 1-d int64) the classes of all parameters are
// combined: the whole cartesian product when it has at most
// ExhaustPolicy::product_cap programs, else every pair of parameters (check
// order: which of two wrong arguments raises first). Binary data ops (add_,
// sub_, mul_, div_, fill_, copy_, add, mul) also take every dtype pair: self
// 1-d or 0-d of one dtype, the other 0-d (two values), 1-d or size 1 of
// another. After a step with results, the first is written through
// (`add_ r true`: 1 more, or true, in every dtype; `fill_` after empty_like),
// so a view that should have been a copy, or the reverse, shows in the base's
// storage.
//
// Note [Exhaust chains] (ExhaustPolicy::depth 2): a planted mistake in how a
// view of a view composes its strides and offset, in the version counter a
// view shares with its base, or in the overlap rules between two views of one
// storage (aten/src/ATen/MemoryOverlap.cpp: has_internal_overlap's stride-0
// dim, get_overlap_status's Full only for the same byte range *and* strides,
// Partial otherwise, TooHard for a view that is not non-overlapping and dense;
// TensorIterator's assert_no_internal_overlap on each output and
// assert_no_partial_overlap of each input against it unless it is the output
// itself; copy_'s early return for the same tensor or the same data, which
// still bumps the version) needs two steps on one storage, which the single
// step above never makes. So each op with a tensor input also runs on
// chain inputs: a view op (each view op of the table, at its first valid
// classes and at each valid class of each parameter alone) applied to five
// float32 layouts (contiguous 3-d, transposed, non-dense, stride 0,
// overlapping), kept where the engine runs it; the second op's valid and
// boundary classes, each alone, then the write through its result (so
// view-of-view write-through, and the versions of the base, the first view
// and the second, after each step, are compared). And the two-operand data
// ops (add_, sub_, mul_, div_, copy_, fill_; add, mul and neg with out=) run
// on overlapping pairs (program/exhaust_overlap.h): two views of one storage
// in each relation those rules tell apart, in every dtype, in each order
// (and each with itself).
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/dtype.h"
#include "program/generator.h"
#include "program/ir.h"

namespace sc {

// One input of the catalogue: steps binding `x` (and what it views).
struct ExhaustInput {
  std::string name;    // "float32 transposed"
  std::string layout;  // "transposed"
  engine::DType dtype = engine::DType::Float32;
  std::vector<Step> steps;
  std::vector<int64_t> sizes;  // x's sizes
};

// The catalogue, in a fixed order: every layout in float32, then the other dtypes.
const std::vector<ExhaustInput>& exhaust_inputs();
// A layout aimed at one rule, given only to the ops that have it: the
// non-contiguous stale header only to reshape and flatten (a few dozen cases,
// not thousands across the data ops' dtypes and forms).
bool exhaust_aimed_elsewhere(std::string_view op, const ExhaustInput& in);
// The 24 edge values of a dtype's base tensor (Note [The exhaust catalogue]).
std::vector<Number> dtype_edge_values(engine::DType d);

// What one varied slot was given: a domain class, or a value written out.
struct ExhaustChoice {
  std::string param;  // "dim", "dtype", "self", ... ("other dtype" for dtype pairs)
  std::string klass;  // a class of the parameter's domain, or "= VALUE"
};

struct ExhaustCase {
  Program program;
  std::string op;
  std::string input;  // the catalogue input ("" for creation ops)
  std::vector<ExhaustChoice> choices;
  // Other combinations that gave this very program (a class drawing the
  // value another class or a written-out value gave): not run again.
  std::vector<std::vector<ExhaustChoice>> also;
  size_t op_step = 0;  // the op's step in program
  // "float32 transposed; dim 'negative', start = 3"
  std::string description() const;
};

struct ExhaustPolicy {
  uint64_t seed = 140000000;  // the per-class draws' choices (each case's own, from its description)
  size_t product_cap = 150;   // Note [Exhaust combinations]
  int depth = 2;              // 1: one step on the catalogue; 2: also Note [Exhaust chains]
  // The cases in four phases, each op's in this order: 1 one step on the
  // catalogue (data ops' other dtypes in five layouts), 2 the overlapping
  // pairs and 3 the chains (depth 2; the pairs first: a few thousand cases
  // aimed at the overlap rules), 4 one step, data ops' other dtypes in the
  // other layouts. 0: phases 1-4; k: phase k alone (the tool runs phase 1 of
  // every op, then 2, 3, 4). Phases 5-7 run only when named (kExhaustPhases):
  // 5 the language's surface forms (Note [Exhaust surface forms],
  // program/exhaust_forms.h), 6 resized out= (Note [Exhaust resized out=],
  // program/exhaust_out.h: a few thousand cases, so before), 7 the deep chains
  // (Note [Exhaust deep chains], program/exhaust_deep.h).
  int phase = 0;
  bool wide = false;          // chains: every second-step class on every chain (Note [Exhaust chains]), every op on every three-step chain
  // The redraws' engine runs: steps estimated over max_bytes are not drawn against.
  GeneratorPolicy generator = [] {
    GeneratorPolicy g;
    g.max_bytes = int64_t{1} << 28;
    return g;
  }();
};

// The phases a plain run makes (ExhaustPolicy::phase 0), and all of them.
constexpr int kExhaustDefaultPhases = 4;
constexpr int kExhaustPhases = 7;

struct ExhaustPlan {
  size_t combinations = 0;    // combinations tried
  size_t not_applicable = 0;  // that gave no program (redraw_parameter's nullopt)
  size_t repeats = 0;         // that gave a program an earlier one of the op gave
};

// The five float32 layouts chains start from (Note [Exhaust chains]; the
// deep chains take them in other dtypes too).
inline constexpr const char* kExhaustChainLayouts[] = {"contiguous 3-d", "transposed", "non-dense", "stride 0",
                                                       "overlapping"};

// A list of inputs made once per seed and kept for the process, under a lock
// (the enumeration asks from several threads): get(seed, build) returns the
// list build(out) filled the first time that seed was asked for.
class ExhaustInputsPerSeed {
 public:
  template <class Build>
  const std::vector<ExhaustInput>& get(uint64_t seed, Build&& build) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = made_.find(seed);
    if (it != made_.end()) return it->second;
    std::vector<ExhaustInput>& out = made_[seed];
    build(out);
    return out;
  }

 private:
  std::mutex mu_;
  std::map<uint64_t, std::vector<ExhaustInput>> made_;
};

// The chain inputs (Note [Exhaust chains]): x bound by a view op's step on a
// catalogue input (bound as x0), sizes as the engine ran it. Made once per seed.
const std::vector<ExhaustInput>& exhaust_chain_inputs(const ExhaustPolicy& policy = {});
// The first steps of chains on `base` (its x renamed x0): each view op at its
// first valid classes (layout `first`) and each valid class alone (layout
// `classes`; none when empty), kept where the engine runs them.
std::vector<ExhaustInput> exhaust_view_steps_on(const ExhaustInput& base, const ExhaustPolicy& policy,
                                                const std::string& first, const std::string& classes);

// The cases of one op, deterministic for the policy; duplicates dropped.
std::vector<ExhaustCase> exhaust_op(const std::string& op, const ExhaustPolicy& policy = {},
                                    ExhaustPlan* plan = nullptr);

}  // namespace sc
