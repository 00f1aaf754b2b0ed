// What the generator's log says it drew (program/generator.h, GenerationLog),
// for the tests that check a class is drawn and makes what it is for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "program/generator.h"

namespace sc::testing {

// The class drawn for `param` in one step's draws, or none.
inline std::optional<std::string_view> klass(const std::vector<DrawnClass>& drawn, std::string_view param) {
  for (const DrawnClass& d : drawn)
    if (d.param == param) return d.klass;
  return std::nullopt;
}

// The steps of `p` that run `op` with `param` drawn from class `k`.
inline std::vector<size_t> steps_drawing(const Program& p, const GenerationLog& log, std::string_view op,
                                         std::string_view param, std::string_view k) {
  std::vector<size_t> out;
  for (size_t i = 0; i < p.steps.size() && i < log.steps.size(); ++i)
    if (p.steps[i].op == op && klass(log.steps[i], param) == k) out.push_back(i);
  return out;
}

// Generates the program of each seed in [0, seeds) under `policy` and calls
// fn(seed, program, log): the loop of the tests that read what was drawn.
template <class Fn>
void for_each_generated(const GeneratorPolicy& policy, uint64_t seeds, Fn&& fn) {
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    Choices c = Choices::from_seed(seed);
    GenerationLog log;
    const Program p = generate_program(c, policy, &log);
    fn(seed, p, log);
  }
}

}  // namespace sc::testing
