#include "program/choice_mutator.h"

#include <algorithm>
#include <random>
#include <vector>

namespace sc {

namespace {

using Values = std::vector<uint32_t>;

// Choices::from_bytes: big-endian pairs; an odd last byte is a choice of its own.
Values read_values(const uint8_t* data, size_t size) {
  Values v;
  for (size_t i = 0; i + 1 < size; i += 2) v.push_back(static_cast<uint32_t>(data[i]) << 8 | data[i + 1]);
  if (size % 2) v.push_back(data[size - 1]);
  return v;
}

size_t write_values(const Values& v, uint8_t* data, size_t max_size) {
  size_t n = std::min(v.size(), max_size / 2);
  for (size_t i = 0; i < n; ++i) {
    data[2 * i] = static_cast<uint8_t>(v[i] >> 8);
    data[2 * i + 1] = static_cast<uint8_t>(v[i] & 0xff);
  }
  return 2 * n;
}

struct Unit {
  size_t begin, end;
  size_t size() const { return end - begin; }
};

// The generator's draw units over v (non-empty ones), in order. Whatever lies
// after the last one was not read.
std::vector<Unit> units_of(const Values& v, const GeneratorPolicy& policy) {
  Choices choices(v);
  GenerationLog log;
  generate_program(choices, policy, &log);
  std::vector<size_t> b = log.unit_starts;
  b.push_back(choices.used());
  std::vector<Unit> units;
  for (size_t i = 0; i + 1 < b.size(); ++i)
    if (b[i + 1] > b[i]) units.push_back({b[i], b[i + 1]});
  return units;
}

class Mutator {
 public:
  Mutator(Values& v, std::vector<Unit> units, uint32_t seed, const GeneratorPolicy& policy)
      : v_(v), units_(std::move(units)), rng_(seed), policy_(policy) {}

  ChoiceMutationResult run() {
    if (units_.empty()) return insert();
    switch (below(7)) {
      case 0: return erase();
      case 1: return duplicate();
      case 2: return insert();
      case 3: return replace();
      case 4: return swap();
      case 5: return longer();
      default: return argument();
    }
  }

 private:
  size_t below(size_t n) { return n <= 1 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  uint32_t fresh_value() { return static_cast<uint32_t>(below(65536)); }
  Values fresh(size_t n) {
    Values f(n);
    for (auto& x : f) x = fresh_value();
    return f;
  }
  // Steps' units (after the creation and the step count) when there are any.
  size_t step_unit() { return units_.size() > 2 ? 2 + below(units_.size() - 2) : below(units_.size()); }
  // A unit boundary to insert at: before a step unit, or at the end of the read part.
  size_t boundary(size_t* index) {
    size_t first = std::min<size_t>(units_.size(), 2);
    *index = first + below(units_.size() - first + 1);
    return *index < units_.size() ? units_[*index].begin : units_.back().end;
  }
  size_t typical_length() { return units_[step_unit()].size(); }

  ChoiceMutationResult result(ChoiceMutation kind, size_t unit, size_t begin, size_t end) {
    return {0, kind, unit, begin, end};
  }

  ChoiceMutationResult erase() {
    size_t u = step_unit();
    v_.erase(v_.begin() + static_cast<long>(units_[u].begin), v_.begin() + static_cast<long>(units_[u].end));
    return result(ChoiceMutation::Delete, u, units_[u].begin, units_[u].end);
  }
  ChoiceMutationResult duplicate() {
    Unit src = units_[step_unit()];
    Values copy(v_.begin() + static_cast<long>(src.begin), v_.begin() + static_cast<long>(src.end));
    size_t index;
    size_t at = boundary(&index);
    v_.insert(v_.begin() + static_cast<long>(at), copy.begin(), copy.end());
    return result(ChoiceMutation::Duplicate, index, at, at);
  }
  ChoiceMutationResult insert() {
    size_t n = units_.empty() ? 8 + below(24) : std::max<size_t>(1, typical_length());
    size_t index = 0, at = 0;
    if (!units_.empty()) at = boundary(&index);
    Values f = fresh(n);
    v_.insert(v_.begin() + static_cast<long>(at), f.begin(), f.end());
    return result(ChoiceMutation::Insert, index, at, at);
  }
  ChoiceMutationResult replace() {
    size_t u = step_unit();
    Unit r = units_[u];
    Values f = fresh(std::max<size_t>(1, below(2 * r.size() + 2)));
    v_.erase(v_.begin() + static_cast<long>(r.begin), v_.begin() + static_cast<long>(r.end));
    v_.insert(v_.begin() + static_cast<long>(r.begin), f.begin(), f.end());
    return result(ChoiceMutation::Replace, u, r.begin, r.end);
  }
  ChoiceMutationResult swap() {
    if (units_.size() < 4) return argument();  // fewer than two step units
    size_t a = step_unit(), b = step_unit();
    if (a == b) return argument();
    if (a > b) std::swap(a, b);
    Unit ua = units_[a], ub = units_[b];
    Values head(v_.begin(), v_.begin() + static_cast<long>(ua.begin));
    Values out = head;
    out.insert(out.end(), v_.begin() + static_cast<long>(ub.begin), v_.begin() + static_cast<long>(ub.end));
    out.insert(out.end(), v_.begin() + static_cast<long>(ua.end), v_.begin() + static_cast<long>(ub.begin));
    out.insert(out.end(), v_.begin() + static_cast<long>(ua.begin), v_.begin() + static_cast<long>(ua.end));
    out.insert(out.end(), v_.begin() + static_cast<long>(ub.end), v_.end());
    v_ = std::move(out);
    return result(ChoiceMutation::Swap, a, ua.begin, ub.end);
  }
  ChoiceMutationResult argument() {
    size_t u = below(units_.size());
    size_t at = units_[u].begin + below(units_[u].size());
    switch (below(4)) {
      case 0: v_[at] = (v_[at] + 1) & 0xffff; break;
      case 1: v_[at] = (v_[at] + 0xffff) & 0xffff; break;
      default: v_[at] = fresh_value(); break;
    }
    return result(ChoiceMutation::Argument, u, at, at + 1);
  }
  // The most steps the policy allows (Choices::between(1, max_steps)), and
  // fresh choices after the read part for them.
  ChoiceMutationResult longer() {
    if (units_.size() < 2) return insert();
    v_[units_[1].begin] = static_cast<uint32_t>(std::max(policy_.max_steps, 1) - 1);
    Values f = fresh(16 + below(64));
    v_.insert(v_.begin() + static_cast<long>(units_.back().end), f.begin(), f.end());
    return result(ChoiceMutation::Longer, 1, units_[1].begin, units_[1].begin + 1);
  }

  Values& v_;
  std::vector<Unit> units_;
  std::mt19937 rng_;
  const GeneratorPolicy& policy_;
};

}  // namespace

const char* mutation_name(ChoiceMutation m) {
  switch (m) {
    case ChoiceMutation::Delete: return "delete";
    case ChoiceMutation::Duplicate: return "duplicate";
    case ChoiceMutation::Insert: return "insert";
    case ChoiceMutation::Replace: return "replace";
    case ChoiceMutation::Swap: return "swap";
    case ChoiceMutation::Argument: return "argument";
    case ChoiceMutation::Longer: return "longer";
  }
  return "?";
}

ChoiceMutationResult mutate_choices(uint8_t* data, size_t size, size_t max_size, uint32_t seed,
                                    const GeneratorPolicy& policy) {
  Values v = read_values(data, size);
  Mutator m(v, units_of(v, policy), seed, policy);
  ChoiceMutationResult r = m.run();
  r.size = write_values(v, data, max_size);
  return r;
}

}  // namespace sc
