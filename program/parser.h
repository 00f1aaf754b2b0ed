#pragma once
// The text format of DESIGN.md. A malformed program gets a ParseError with
// file, line and column; it never crashes.
#include <string>
#include <string_view>

#include "program/ir.h"

namespace sc {

struct ParseError : std::exception {
  ParseError(std::string file, int line, int col, std::string message);
  const char* what() const noexcept override { return text.c_str(); }
  std::string file;
  int line = 0, col = 0;
  std::string message;
  std::string text;  // "file:line:col: message"
};

// Parses and checks a program: syntax, op signatures (program/ops.h), SSA
// (each name assigned once, used only after it is assigned). Throws ParseError.
Program parse_program(std::string_view text, std::string source_name = "<string>");
// Reads and parses a file; an unreadable file is a ParseError at line 0.
Program parse_file(const std::string& path);

}  // namespace sc
