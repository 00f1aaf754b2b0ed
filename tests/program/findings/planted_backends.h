#pragma once
// Engine backends with one planted bug each, for the reducer's tests (as in
// properties/planted_bug_test.cpp): a finding against them has a known cause,
// so a minimized program can be checked for what it must keep.
#include <csignal>
#include <memory>
#include <string>

#include "program/backend.h"
#include "program/compare.h"

namespace sc::testing {

// The engine, with `mutate(step, obs)` applied to each step's observation.
template <class Mutate>
class PlantedBackend : public Backend {
 public:
  PlantedBackend(std::string name, Mutate mutate) : inner_(make_backend("engine:cpu")), name_(std::move(name)), mutate_(mutate) {}
  std::string name() const override { return name_; }
  std::string version() const override { return "engine with a planted bug"; }
  Trace run(const Program& p, const RunOptions& o) override {
    Trace t = inner_->run(p, o);
    t.backend = name_;
    for (size_t i = 0; i < p.steps.size() && i < t.steps.size(); ++i) mutate_(p.steps[i], t.steps[i], o, name_, i);
    return t;
  }

 private:
  std::unique_ptr<Backend> inner_;
  std::string name_;
  Mutate mutate_;
};

// `t` reports its input's strides unswapped.
inline auto transpose_bug() {
  return PlantedBackend("planted_t:cpu", [](const Step& s, StepObs& obs, const RunOptions&, const std::string&, size_t) {
    if (s.op != "t" || obs.outcome != Outcome::Ok || obs.results.empty()) return;
    auto& st = obs.results[0].strides;
    if (st.size() == 2) std::swap(st[0], st[1]);
  });
}

// `flip` of a tensor with more than one element kills the backend (SIGSEGV).
inline auto flip_crash() {
  return PlantedBackend("planted_flip:cpu", [](const Step& s, StepObs& obs, const RunOptions& o, const std::string& name,
                                              size_t i) {
    if (s.op != "flip" || obs.outcome != Outcome::Ok || obs.results.empty()) return;
    int64_t numel = 1;
    for (int64_t x : obs.results[0].sizes) numel *= x;
    if (numel < 2) return;
    if (o.on_step) o.on_step(name, i);
    std::raise(SIGSEGV);
  });
}

// mul_ by a number other than 1 raises an IndexError instead of running.
inline auto mul_error_bug() {
  return PlantedBackend("planted_mul:cpu", [](const Step& s, StepObs& obs, const RunOptions&, const std::string&, size_t) {
    if (s.op != "mul_" || obs.outcome != Outcome::Ok) return;
    obs = StepObs{};
    obs.outcome = Outcome::Error;
    obs.error_kind = "IndexError";
    obs.error_message = "planted";
  });
}

}  // namespace sc::testing
