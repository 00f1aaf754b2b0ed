#pragma once
// A backend runs a program and records its Observation trace. Backends are
// named "<implementation>:<device>": engine:cpu, engine:cuda, libtorch:cpu,
// libtorch:cuda, libtorch:meta.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "program/ir.h"
#include "program/observation.h"

namespace sc {

struct RunOptions {
  // Bytes that creation and copy steps may allocate in all, per backend (DESIGN.md Limits).
  int64_t budget_bytes = int64_t{1} << 30;
  // Elements one in-place step may write (DESIGN.md Limits, wall time): views
  // never allocate, so `fill_` of a stride-0 view of 10^18 elements is
  // legal and would run for hours; such a step is reported, not run.
  int64_t max_step_elements = int64_t{1} << 30;
  // Bytes the Observation trace may hold, per backend (Note [The trace
  // budget], program/traced_backend.h): a program whose trace would pass it
  // stops there, over budget.
  int64_t trace_budget_bytes = int64_t{1} << 30;
  // Record full storage contents after each step (hashes are always recorded).
  bool record_contents = true;
  // Hashes only (record_contents false): after each step read back only the
  // storages it or the next step may write, carry the others' hashes, and
  // read every carried one after the last step; a change found there marks
  // the trace stale (Note [Observing only the storages a step may write],
  // program/traced_backend.h). compare_backends turns it on for hashes-only
  // runs and runs a stale trace again without it.
  bool observe_written_only = false;
  // Called before each step runs (backend name, step index): lets a watchdog
  // name the step a crash or a hang happened in.
  std::function<void(const std::string& backend, size_t step)> on_step;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;     // "engine:cpu"
  virtual std::string version() const = 0;  // "stridecheck engine 0.1.0", "LibTorch 1.13.1"
  virtual Trace run(const Program&, const RunOptions&) = 0;
};

using BackendFactory = std::function<std::unique_ptr<Backend>(std::string_view device)>;

// `implementation` is the part before ':' ("engine", "libtorch").
void register_backend(std::string implementation, BackendFactory);
// Throws std::invalid_argument naming the known backends when `name` is unknown
// or its device is not available.
std::unique_ptr<Backend> make_backend(std::string_view name);
std::vector<std::string> registered_implementations();

// The engine registers itself; the oracle through sc::oracle::register_backends().
void register_engine_backend();
// Why engine:cuda cannot run in this process (no CUDA kernels built, no GPU),
// or nothing when it can. Installs the CUDA kernels where they are built.
std::optional<std::string> engine_cuda_unavailable();

}  // namespace sc
