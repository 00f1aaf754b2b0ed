// The engine as a backend: TracedBackend over engine::Tensor.
#include <cstring>
#include <mutex>

#include "engine/kernels/cpu/parallel.h"
#include "engine/kernels/kernels.h"
#include "engine/layout.h"
#include "engine/overlap.h"
#include "engine/storage.h"
#include "engine/warnings.h"
#include "program/engine_ops.h"
#include "program/heap_policy.h"

#if defined(STRIDECHECK_HAVE_CUDA)
#include "engine/kernels/cuda/kernels.h"
#endif

namespace sc {

engine::Scalar to_scalar(const Number& n) {
  switch (n.kind) {
    case Number::Kind::Int: return engine::Scalar::integer(n.i);
    case Number::Kind::Float: return engine::Scalar::floating(n.f);
    case Number::Kind::Bool: return engine::Scalar::boolean(n.i != 0);
  }
  return engine::Scalar::integer(0);
}

engine::DType dtype_or(const ArgReader& a, engine::DType fallback) {
  if (auto d = a.kw_dtype()) return *engine::parse_dtype(*d);
  return fallback;
}

const EngineOpTable& engine_op_table() {
  static const EngineOpTable table = [] {
    EngineOpTable t;
    add_engine_view_ops(t);
    add_engine_data_ops(t);
    return t;
  }();
  return table;
}

namespace {

struct EngineTraits {
  using Tensor = engine::Tensor;
  EngineStepContext ctx;

  explicit EngineTraits(std::string_view device) {
    ctx.device = device == "cuda" ? engine::Device::CUDA : engine::Device::CPU;
    engine::take_warnings();  // drop anything left by an earlier program
  }

  // The engine's TorchError is caught here, where the op threw it, and
  // returned (Note [Errors cross the interpreter as values]). Not inlined
  // into the interpreter's step, as TorchTraits::apply: the profile split of
  // bench/fuzz_exec_callgrind.sh reads the engine's ops as this function.
  [[gnu::noinline]] Applied<Tensor> apply(const Step& s, const Lookup<Tensor>& lookup) {
    ctx.undefined.reset();
    ctx.refused.reset();
    ctx.error.reset();
    Applied<Tensor> out;
    auto it = engine_op_table().find(s.op);
    if (it == engine_op_table().end()) {
      out.error.emplace(engine::ErrorKind::NotImplementedError,
                        "stridecheck engine: operation '" + s.op + "' is not implemented yet");
      return out;
    }
    ArgReader args(s);
    try {
      out.results = it->second(args, lookup, ctx);
    } catch (engine::TorchError& e) {
      out.error.emplace(std::move(e));
    } catch (engine::StepRefused& e) {
      out.refused = std::move(e.message);
    }
    if (ctx.error) {  // returned rather than thrown (Note [errors returned, not thrown])
      out.results.clear();
      out.error = std::move(ctx.error);
      ctx.error.reset();
    }
    // An op whose very outcome depends on undefined bytes is refused, whatever it did.
    if (ctx.refused) {
      out.results.clear();
      out.error.reset();
      out.refused = "stridecheck engine: not run: " + *ctx.refused;
    }
    return out;
  }

  InputHeader header(const Tensor& t) {
    return InputHeader{t.sizes,          t.strides,           engine::itemsize(t.dtype),
                       t.dtype,          t.storage_offset,    t.storage->nbytes(),
                       engine::is_non_overlapping_and_dense(t)};
  }

  StorageExtent extent(const Tensor& t) {
    return StorageExtent{t.sizes, t.strides, t.storage_offset, engine::itemsize(t.dtype), t.storage->nbytes()};
  }

  TensorFacts facts(const Tensor& t) {
    TensorFacts f;
    f.dtype = std::string(engine::dtype_name(t.dtype));
    f.itemsize = engine::itemsize(t.dtype);
    f.sizes = t.sizes;
    f.strides = t.strides;
    f.storage_offset = t.storage_offset;
    const engine::LayoutFlags flags = engine::layout_flags(t);  // Note [stale layout flags]
    f.contiguous = flags.contiguous;
    f.channels_last = flags.channels_last;
    f.channels_last_3d = flags.channels_last_3d;
    f.non_overlapping_and_dense = flags.non_overlapping_and_dense;
    f.torch_overlap = to_overlap(engine::has_internal_overlap(t, flags.non_overlapping_and_dense));
    return f;
  }

  // TracedBackend asks this on the header itself (traced_backend.h, observe).
  engine::MemOverlap exact_internal_overlap(const Tensor& t) { return engine::exact_internal_overlap(t.sizes, t.strides); }

  uintptr_t identity(const Tensor& t) { return static_cast<uintptr_t>(t.id); }
  uintptr_t storage_identity(const Tensor& t) { return reinterpret_cast<uintptr_t>(t.storage.get()); }
  std::optional<uintptr_t> base_identity(const Tensor& t) {
    if (!t.base_id) return std::nullopt;
    return static_cast<uintptr_t>(*t.base_id);
  }
  int64_t version(const Tensor& t) { return t.version().value; }

  StorageObs storage_contents(const Tensor& t) {
    StorageObs s;
    const engine::Storage& st = *t.storage;
    s.nbytes = st.nbytes();
    s.bytes = engine_storage_bytes(st);
    s.undefined = ByteMask::shared(st.undefined_snapshot());
    s.nan_choice = ByteMask::shared(st.nan_choice_snapshot());
    return s;
  }

  StorageInPlace storage_in_place(const Tensor& t) {
    StorageInPlace s;
    const engine::Storage& st = *t.storage;
    if (st.device() != engine::Device::CPU) return s;
    s.readable = true;
    s.data = reinterpret_cast<const uint8_t*>(st.data());
    s.nbytes = st.nbytes();
    s.undefined = st.undefined_snapshot();
    s.nan_choice = st.nan_choice_snapshot();
    return s;
  }

  std::vector<std::string> take_warnings() { return engine::take_warnings(); }
  std::optional<std::string> take_undefined() {
    auto u = ctx.undefined;
    ctx.undefined.reset();
    return u;
  }

  static std::vector<uint8_t> engine_storage_bytes(const engine::Storage& st);
};

}  // namespace

// Host copy of a storage's bytes: the only place a CUDA storage is read back
// for the Observation.
std::vector<uint8_t> EngineTraits::engine_storage_bytes(const engine::Storage& st) {
  std::vector<uint8_t> out(static_cast<size_t>(st.nbytes()));
  st.read(0, st.nbytes(), reinterpret_cast<std::byte*>(out.data()));
  return out;
}

// Why engine:cuda cannot run here, or nothing when it can.
std::optional<std::string> engine_cuda_unavailable() {
#if defined(STRIDECHECK_HAVE_CUDA)
  engine::cuda::install();
#endif
  if (!engine::cuda_kernels_built())
    return "engine:cuda: this build has no CUDA kernels for the engine (nvcc was not found at configure time, or "
           "STRIDECHECK_WITH_CUDA=OFF)";
  std::string why;
  if (engine::cuda_kernels()->device_count(&why) == 0) return "engine:cuda: no CUDA device available (" + why + ")";
  return std::nullopt;
}

namespace {

// A program's `#! engine-threads N` holds for its run (Program::engine_threads).
static_assert(AnswersExactOverlap<EngineTraits, EngineTraits::Tensor>::value,
              "the engine answers the exact overlap on its own header (traced_backend.h, observe)");

class EngineBackend : public TracedBackend<EngineTraits> {
 public:
  using TracedBackend<EngineTraits>::TracedBackend;
  Trace run(const Program& program, const RunOptions& options) override {
    if (program.engine_threads <= 0) return TracedBackend<EngineTraits>::run(program, options);
    engine::cpu::ScopedThreads threads(program.engine_threads);
    return TracedBackend<EngineTraits>::run(program, options);
  }
};

}  // namespace

void register_engine_backend() {
  static std::once_flag once;
  std::call_once(once, [] {
    // A kernel's unwritten byte reads the same in the search and in triage
    // (Note [Poisoned fresh storage], engine/storage.h).
    engine::set_poison_fresh_storage(true);
    // Each program's storages reuse the memory the last one freed (Note [The
    // harness keeps its heap], program/heap_policy.cpp).
    keep_heap_between_programs();
    register_backend("engine", [](std::string_view device) -> std::unique_ptr<Backend> {
      if (device != "cpu" && device != "cuda")
        throw std::invalid_argument("engine backend has devices cpu and cuda, not '" + std::string(device) + "'");
      if (device == "cuda") {
        if (auto why = engine_cuda_unavailable()) throw std::invalid_argument(*why);
      }
      return std::make_unique<EngineBackend>(
          "engine:" + std::string(device), std::string("stridecheck engine ") + STRIDECHECK_VERSION,
          std::string(device));
    });
  });
}

}  // namespace sc
