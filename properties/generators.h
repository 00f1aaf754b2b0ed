#pragma once
// RapidCheck generators for the program domain. A program is generated from a
// list of choices (program/generator.h), so RapidCheck shrinks a failing
// program by shrinking the list: fewer, smaller choices are simpler programs.
// Each program also gets an engine thread count, 1..4 (Note [Searched engine
// threads], program/engine_threads.h), drawn by RapidCheck beside the list
// (so it shrinks toward 1 on its own) and printed as the program's first
// line, `#! engine-threads N`.
#include <rapidcheck.h>

#include "program/engine_threads.h"
#include "program/generator.h"
#include "program/printer.h"

namespace sc::properties {

struct GeneratedProgram {
  Program program;
  std::vector<uint32_t> choices;
};

inline rc::Gen<GeneratedProgram> gen_program(GeneratorPolicy policy = {}) {
  return rc::gen::map(rc::gen::pair(rc::gen::container<std::vector<uint32_t>>(rc::gen::arbitrary<uint32_t>()),
                                    rc::gen::inRange(1, kMaxSearchedEngineThreads + 1)),
                      [policy](std::pair<std::vector<uint32_t>, int> drawn) {
                        Choices c(drawn.first);
                        Program p = generate_program(c, policy);
                        p.engine_threads = drawn.second;
                        return GeneratedProgram{std::move(p), std::move(drawn.first)};
                      });
}

}  // namespace sc::properties

namespace rc {
template <>
struct Arbitrary<sc::properties::GeneratedProgram> {
  static Gen<sc::properties::GeneratedProgram> arbitrary() { return sc::properties::gen_program(); }
};
}  // namespace rc

namespace sc::properties {
// RapidCheck prints counterexamples with showValue: print the program text.
inline void showValue(const GeneratedProgram& g, std::ostream& os) { os << "\n" << print_program(g.program); }
}  // namespace sc::properties
