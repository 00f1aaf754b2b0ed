#include "program/backend.h"

#include <map>
#include <stdexcept>

namespace sc {
namespace {
std::map<std::string, BackendFactory>& registry() {
  static std::map<std::string, BackendFactory> r;
  return r;
}
}  // namespace

void register_backend(std::string implementation, BackendFactory f) {
  registry()[std::move(implementation)] = std::move(f);
}

std::vector<std::string> registered_implementations() {
  std::vector<std::string> names;
  for (auto& [k, v] : registry()) names.push_back(k);
  return names;
}

std::unique_ptr<Backend> make_backend(std::string_view name) {
  register_engine_backend();
  auto colon = name.find(':');
  std::string impl(name.substr(0, colon));
  std::string device = colon == std::string_view::npos ? "cpu" : std::string(name.substr(colon + 1));
  auto it = registry().find(impl);
  if (it == registry().end()) {
    std::string known;
    for (auto& k : registered_implementations()) known += (known.empty() ? "" : ", ") + k;
    throw std::invalid_argument("unknown backend '" + std::string(name) + "' (known: " + known + ")");
  }
  return it->second(device);
}

}  // namespace sc
