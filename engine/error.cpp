#include "engine/error.h"

#include <cstdio>
#include <cstdlib>

namespace sc::engine {

std::string_view error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::RuntimeError: return "RuntimeError";
    case ErrorKind::IndexError: return "IndexError";
    case ErrorKind::ValueError: return "ValueError";
    case ErrorKind::TypeError: return "TypeError";
    case ErrorKind::NotImplementedError: return "NotImplementedError";
  }
  return "RuntimeError";
}

void assertion_failed(const char* cond, const char* file, int line, const std::string& msg) {
  std::fprintf(stderr, "stridecheck internal assertion failed: %s at %s:%d %s\n", cond, file, line,
               msg.c_str());
  std::abort();
}

}  // namespace sc::engine
