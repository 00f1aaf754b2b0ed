#pragma once
// Random view-chain programs (Csmith/YARPGen style): the generator, the IR,
// the printer and the shrinker are separate pieces; every random knob is in
// GeneratorPolicy; everything is reproducible from the choice sequence.
//
// Choices are a list of integers, so the same generator is driven by a seed,
// by RapidCheck (which shrinks the list) and by libFuzzer's bytes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/dtype.h"
#include "program/ir.h"

namespace sc {

class Choices {
 public:
  explicit Choices(std::vector<uint32_t> values) : values_(std::move(values)) {}
  static Choices from_bytes(const uint8_t* data, size_t size);
  static Choices from_seed(uint64_t seed, size_t count = 4096);

  // Uniform-ish in [0, n); 0 once the list is exhausted (so shorter lists mean simpler programs).
  uint32_t below(uint32_t n);
  int64_t between(int64_t lo, int64_t hi);  // inclusive
  bool percent(int p);                      // true with probability p/100
  bool exhausted() const { return pos_ >= values_.size(); }
  size_t used() const { return pos_; }

 private:
  std::vector<uint32_t> values_;
  size_t pos_ = 0;
};

struct GeneratorPolicy {
  int max_steps = 16;          // steps after the first creation step
  int max_rank = 4;
  int64_t max_dim_size = 5;    // sizes of created tensors
  int64_t max_bytes = 1 << 20; // steps estimated to allocate more are not generated
  // Relative weights of op categories.
  int weight_creation = 2;
  int weight_view = 12;
  int weight_copy = 3;
  int weight_inplace = 4;
  int weight_elementwise = 2;
  // Elements one generated in-place step may write (bigger ones are left out).
  int64_t max_step_elements = int64_t{1} << 22;
  // Chance (percent) that an empty_like result is written (copy_, zero_,
  // fill_) by the very next step, so that later reads are compared instead of
  // being undefined.
  int write_empty_like_percent = 90;
  // Chance (percent) that a data op's floating result (or in-place self)
  // that holds a NaN is then viewed as the integers of its width, so that
  // its NaN bits are compared (Note [Special-value runs], program/value_draws.h).
  int view_bits_percent = 60;
  // Argument values: drawn from each parameter's domain (program/domains.cpp),
  // by the weights declared there, the boundary and invalid classes' weights
  // scaled by this percentage (above 100: combinations of rare classes, where
  // most of LibTorch's distinct errors are, come sooner; the message-reach
  // law's one-op search, tests/program/message_reach_test.cpp).
  int boundary_weight_percent = 100;
  // Note [Swarm programs]: the chance (percent) that a program is drawn as
  // swarm testing draws it (Groce et al., "Swarm testing", ISSTA 2012): a
  // random half of the ops (creation ops always kept) and a random half of
  // each domain's classes (program/domains.cpp; all of them where no valid
  // class would be left) are left out for the whole program, and its step
  // count is up to twice max_steps half the time. One program then chains
  // the few ops it kept, with the rarer classes of what it kept, deeper than a
  // program drawing from everything, where a default program spreads its
  // steps thin. Four 16-bit choices pick the subsets (read with the first
  // creation step, in its draw unit); all four 0 (an exhausted, short fuzzer
  // input) is the default program. 0 (the default: the property, the fuzz
  // target and the laws draw as before) turns it off and draws no choice;
  // `stridecheck generate --swarm PERCENT` sets it.
  int swarm_percent = 0;
  // Note [Check order]: after a parameter of a step drew an invalid class,
  // each later parameter of that step is drawn from its domain's boundary and
  // invalid classes this often (percent; its declared weights otherwise).
  // Which of two errors LibTorch raises is its check order (empty_strided:
  // negative sizes before the sizes/strides rank; full: the size checks
  // before the value's conversion), seen only when two arguments are wrong
  // at once; independent draws make that the product of two small weights.
  int second_invalid_percent = 30;
  // Note [Stale headers] (program/generator.cpp): the chance (percent), at
  // each step, that the step is instead a failed out= resize made on purpose
  // (a numel or stride overflow, a storage size past INT64_MAX, a size past
  // the budget, a negative size that passes; into a fresh tensor, a view, a
  // 0-d or channels-last out) followed by 1..4 steps of any op family that
  // read the header it leaves (as self, as the other operand, as out= again,
  // and through views of it). A swarm program keeps or drops it as an op. 0,
  // or a policy naming its ops (the message-reach law's one-op search), turns
  // it off and draws no choice.
  int stale_header_percent = 2;
  // Ops to draw from; empty means every op of program/ops.h.
  std::vector<std::string> ops;
};

// Which domain class (program/domains.h) each written parameter of a step was
// drawn from: the coverage report's input.
struct DrawnClass {
  std::string_view param;  // "size", "dim", "dtype", ...
  std::string_view klass;  // "negative", "INT64_MAX", ...
};
struct GenerationLog {
  std::vector<std::vector<DrawnClass>> steps;  // one entry per Program::steps entry
  // Where each draw unit starts in the choice list: the first creation step,
  // the step count, then one unit per step drafted (whether or not it became a
  // step; an empty_like's write belongs to its unit). Choices::used() ends the
  // last one. The structure-aware mutator (program/choice_mutator.h) edits these.
  std::vector<size_t> unit_starts;
};

// A program whose first step creates a tensor; later steps draw their inputs
// from values bound so far (the engine runs the prefix to learn the shapes).
// With `log`, records the domain class of every drawn parameter.
Program generate_program(Choices& choices, const GeneratorPolicy& policy = {}, GenerationLog* log = nullptr);

// One parameter of one step of a given program, and the domain class
// (program/domains.h) to draw its new value from.
struct Redraw {
  size_t step = 0;         // index into Program::steps
  bool kwarg = false;      // a keyword argument (OpDomain::kwargs), else a positional one (OpDomain::params)
  size_t param = 0;        // index into OpDomain::params or OpDomain::kwargs
  std::string_view klass;  // a class of that parameter's domain
};

// The neighbour search's draw (program/neighbours.h): the program with the
// parameter's value drawn from the class as generate_program draws it (the
// same code), knowing what the steps before it bind (the engine runs them, as
// the generator runs its own prefix): the dim the index is relative to, the
// value's layout. A class that needs a value of a layout the program lacks
// makes one by a step of its own, inserted before the step (names vN past the
// program's own). An optional parameter left out is written (the ones before
// it with their defaults). nullopt when the step cannot take the class: its
// input is unbound in the engine (an earlier step raised or is over
// policy.max_bytes), or the result does not fit the op's signature.
std::optional<Program> redraw_parameter(const Program& program, const Redraw& r, Choices& choices,
                                        const GeneratorPolicy& policy = {});

}  // namespace sc
