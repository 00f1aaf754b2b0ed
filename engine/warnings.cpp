#include "engine/warnings.h"

namespace sc::engine {
namespace {
thread_local std::vector<std::string> pending;
}

void warn(std::string message) { pending.push_back(std::move(message)); }

std::vector<std::string> take_warnings() {
  std::vector<std::string> out;
  out.swap(pending);
  return out;
}

}  // namespace sc::engine
