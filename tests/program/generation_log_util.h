// What the generator's log says it drew (program/generator.h, GenerationLog),
// for the tests that check a class is drawn and makes what it is for.
#pragma once

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
