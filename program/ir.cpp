#include "program/ir.h"

#include <charconv>

namespace sc {

bool Number::operator==(const Number& o) const {
  if (kind != o.kind) return false;
  if (kind == Kind::Float) return f == o.f || (f != f && o.f != o.f);  // NaN == NaN here
  return i == o.i;
}

const KwArg* Step::kwarg(std::string_view key) const {
  for (const KwArg& k : kwargs)
    if (k.key == key) return &k;
  return nullptr;
}

std::vector<std::string> Step::inputs() const {
  std::vector<std::string> names;
  for (const Arg& a : args)
    if (auto* n = std::get_if<Name>(&a)) names.push_back(n->id);
  for (const KwArg& k : kwargs)
    if (auto* n = std::get_if<Name>(&k.value)) names.push_back(n->id);
  return names;
}

bool Step::same_as(const Step& o) const {
  return outputs == o.outputs && op == o.op && args == o.args && kwargs == o.kwargs;
}

bool Program::same_as(const Program& o) const {
  if (steps.size() != o.steps.size() || engine_threads != o.engine_threads) return false;
  for (size_t i = 0; i < steps.size(); ++i)
    if (!steps[i].same_as(o.steps[i])) return false;
  return true;
}

std::optional<int> parse_engine_thread_count(std::string_view digits) {
  int n = 0;
  const char* end = digits.data() + digits.size();
  auto [p, ec] = std::from_chars(digits.data(), end, n);
  if (digits.empty() || ec != std::errc() || p != end || n < 1 || n > kMaxEngineThreads) return std::nullopt;
  return n;
}

}  // namespace sc
