#pragma once
// RapidCheck generators for the program domain. A program is generated from a
// list of choices (program/generator.h), so RapidCheck shrinks a failing
// program by shrinking the list: fewer, smaller choices are simpler programs.
#include <rapidcheck.h>

#include "program/generator.h"
#include "program/printer.h"

namespace sc::properties {

struct GeneratedProgram {
  Program program;
  std::vector<uint32_t> choices;
};

inline rc::Gen<GeneratedProgram> gen_program(GeneratorPolicy policy = {}) {
  return rc::gen::map(rc::gen::container<std::vector<uint32_t>>(rc::gen::arbitrary<uint32_t>()),
                      [policy](std::vector<uint32_t> v) {
                        Choices c(v);
                        return GeneratedProgram{generate_program(c, policy), std::move(v)};
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
