#pragma once
// Prints a program in the text format; parse_program(print_program(p)) is p.
#include <string>

#include "program/ir.h"

namespace sc {

std::string print_arg(const Arg&);
std::string print_step(const Step&);  // one line, without comments
std::string print_program(const Program&, bool with_comments = true);

}  // namespace sc
