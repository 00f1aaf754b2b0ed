// LibTorch as a backend: TracedBackend over at::Tensor, the mirror of
// program/engine_backend.cpp. The same interpreter, skip and budget rules and
// Observation building run on both sides; only how a step runs and how a
// tensor's facts are read differ.
#include <ATen/Context.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/ops/empty.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/version.h>

#include <cstring>
#include <mutex>
#include <stdexcept>

#include "engine/version_profile.h"
#include "oracle/oracle.h"
#include "oracle/torch_ops.h"
#include "oracle/torch_runtime.h"
#include "program/ops.h"

namespace sc::oracle {

const TorchOpTable& torch_op_table() {
  static const TorchOpTable table = [] {
    TorchOpTable t;
    add_torch_view_ops(t);
    add_torch_data_ops(t);
    return t;
  }();
  return table;
}

namespace {

Overlap to_overlap(at::MemOverlap o) {
  switch (o) {
    case at::MemOverlap::No: return Overlap::No;
    case at::MemOverlap::Yes: return Overlap::Yes;
    case at::MemOverlap::TooHard: return Overlap::TooHard;
  }
  return Overlap::TooHard;
}

// The storage's bytes as a uint8 tensor header of its own (its own version
// counter, so reading never bumps a program value's version).
at::Tensor storage_as_bytes(const at::Storage& storage, at::Device device) {
  at::Tensor bytes = at::empty({0}, at::TensorOptions().dtype(at::kByte).device(device));
  bytes.set_(storage, 0, {static_cast<int64_t>(storage.nbytes())}, {1});
  return bytes;
}

// Note [SymInt pointers in 1.13]
// LibTorch 1.13 keeps a SymInt in one int64 and reads every value in
// [-2^63, -2^62 - 1] (top bits 10) as a pointer to a symbolic node. A
// contiguous stride whose product wrapped there (zeros of a shape whose
// products overflow int64) is stored as a plain int64, but an op that copies
// the tensor's sym_strides() (transpose of the last dims, mT, clone, ...)
// dereferences it and the process dies (SIGSEGV; generated seed 112966). 2.x
// heap-allocates such ints where it computes them as SymInts, and its zeros
// checks the stride products, but it reads a plain int64 stride the same way
// (sym_strides() of a concrete tensor reinterprets the int64 array): a failed
// out= resize leaves the wrapped contiguous strides that empty_tensor_restride
// wrote before it raised "Stride calculation overflowed" (resize_out in
// engine/elementwise.cpp), and has_internal_overlap of such a tensor (the
// observation of `detach`) crashed the 2.15 oracle (generated seed 2341050's
// program, search215b). A size there crashes the same way: 1.13's view(dtype)
// doubles a last size of 2^62 to -2^63 (float32 -> bfloat16 of zeros
// [3,0,1,2^62]), and reshape's computeStride multiplies the sym_sizes()
// (generated seed 5248151 on 1.13, SIGSEGV in SymInt::operator*). The oracle
// refuses any step whose input tensors hold such a stride, and the reshape and
// flatten steps whose inputs hold such a size (every op of the language was
// run on such a tensor with 1.13: only those two crashed; the others raise or
// pass, and are compared), on every version; the steps that made them are
// compared.
template <class LookupFn>
void refuse_symint_pointer_geometry(const Step& s, const LookupFn& lookup) {
  constexpr int64_t kLowestInt = -(int64_t{1} << 62);
  s.for_each_input([&](const std::string& name) {
    const at::Tensor& t = lookup(name);
    auto refuse = [&](const char* what, int64_t v) {
      throw engine::StepRefused(engine::str_cat(
          "stridecheck oracle: not run: '", name, "' has ", what, " ", v, ", which LibTorch ", TORCH_VERSION,
          " reads as a SymInt pointer (ints below -2^62): ops that copy its ", what,
          "s crash (Note [SymInt pointers in 1.13])"));
    };
    for (int64_t st : t.strides())
      if (st < kLowestInt) refuse("stride", st);
#if !(TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR == 0)
    if (!view_op_may_copy(s.op)) return;  // reshape, flatten
#endif
    // 2.0.1 dies on more of them (transpose of such a size: SIGSEGV,
    // corpus/versions/symint_pointer_sizes.prog): there every op is refused.
    for (int64_t sz : t.sizes())
      if (sz < kLowestInt) refuse("size", sz);
  });
}

// Waits for the device's current stream. CUDA reports kernel errors (a
// device-side assert from an out-of-range index_select, say) at the next
// synchronising call; waiting at the end of each step pins the error on the
// step that caused it. Such an error poisons the CUDA context: every later
// CUDA call in the process fails too (LibTorch's behaviour, not the oracle's).
void synchronize(const at::Device& device) {
  const c10::impl::DeviceGuardImplInterface* impl = c10::impl::getDeviceGuardImpl(device.type());
  impl->getStream(impl->getDevice()).synchronize();
}

// Note [results with symbolic sizes] (LibTorch 2.1+): a view op whose size
// arithmetic runs on SymInts (view(dtype)'s size[-1] * r, say) and passes
// below -2^62 stores a heap-allocated SymInt (LargeNegativeIntSymNodeImpl,
// pytorch#99157): the result "has symbolic sizes/strides", and every read of
// its sizes, strides or storage_offset raises, in C++ and in Python (`.shape`).
// The step's result is unusable, so the step counts as failing with the error
// LibTorch raises when the result is first read; the engine raises the same
// (engine/views/shape_math.cpp, check_concrete_result). Without this the
// exception escaped the observation and ended the whole run. Before 2.9 the
// read does not raise: PyObjectSlot::load_pyobj_interpreter's check formats
// the unset interpreter's name and dies (SIGSEGV, measured with the 2.8.0
// wheel: Change::SymbolicResultReadRaises), so on those versions the oracle
// refuses the step instead of reading.
void read_concrete_geometry(const at::Tensor& t) {
#if TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 9
  if (t.unsafeGetTensorImpl()->has_symbolic_sizes_strides())
    throw engine::StepRefused(engine::str_cat(
        "stridecheck oracle: not run: LibTorch ", TORCH_VERSION,
        " crashes (SIGSEGV: PyObjectSlot::load_pyobj_interpreter with no interpreter set) reading this result, "
        "which has symbolic sizes/strides (Note [results with symbolic sizes])"));
#endif
  (void)t.sizes();
  (void)t.strides();
  (void)t.storage_offset();
}

struct TorchTraits {
  using Tensor = at::Tensor;
  TorchStepContext ctx;
  std::vector<std::string> warnings;

  explicit TorchTraits(std::string_view device) {
    ensure_torch_runtime();
    ctx.device = at::Device(std::string(device));
  }

  // Errors become TorchError with LibTorch's kind and message, caught once
  // here and returned (Note [Errors cross the interpreter as values]); a step's
  // warnings are collected while it runs. Autograd stays on (no InferenceMode),
  // so views are tracked and version counters count. Not inlined into the
  // interpreter's step: the unwinder's personality routine scans the
  // call-site table of the frame that catches, and step's is long (callgrind:
  // inlined, the 149 LibTorch throws per 64 generated programs cost 0.28 M
  // instructions more).
  [[gnu::noinline]] Applied<Tensor> apply(const Step& s, const Lookup<Tensor>& lookup) {
    Applied<Tensor> out;
    auto it = torch_op_table().find(s.op);
    if (it == torch_op_table().end()) {
      out.error.emplace(engine::ErrorKind::NotImplementedError,
                        "stridecheck oracle: operation '" + s.op + "' is not mapped onto LibTorch");
      return out;
    }
    WarningCapture capture(warnings);
    try {
      refuse_symint_pointer_geometry(s, lookup);
      ArgReader args(s);
      out.results = it->second(args, lookup, ctx);
      if (ctx.device.is_cuda()) synchronize(ctx.device);
      for (const Tensor& t : out.results) read_concrete_geometry(t);
    } catch (const c10::Error& e) {
      out.results.clear();
      out.error.emplace(as_torch_error(e));
    } catch (engine::TorchError& e) {
      out.results.clear();
      out.error.emplace(std::move(e));
    } catch (engine::StepRefused& e) {
      out.results.clear();
      out.refused = std::move(e.message);
    } catch (const std::exception& e) {
      out.results.clear();
      out.error.emplace(as_torch_error(e));
    }
    return out;
  }

  InputHeader header(const Tensor& t) {
    return InputHeader{engine::Shape(t.sizes().begin(), t.sizes().end()),
                       engine::Shape(t.strides().begin(), t.strides().end()), static_cast<int64_t>(t.element_size()),
                       to_engine_dtype(t.scalar_type()), t.storage_offset(), static_cast<int64_t>(t.storage().nbytes()),
                       t.is_non_overlapping_and_dense()};
  }

  StorageExtent extent(const Tensor& t) {
    return StorageExtent{engine::Shape(t.sizes().begin(), t.sizes().end()),
                         engine::Shape(t.strides().begin(), t.strides().end()), t.storage_offset(),
                         static_cast<int64_t>(t.element_size()), static_cast<int64_t>(t.storage().nbytes())};
  }

  TensorFacts facts(const Tensor& t) {
    TensorFacts f;
    f.dtype = dtype_name(t.scalar_type());
    f.itemsize = static_cast<int64_t>(t.element_size());
    f.sizes = t.sizes().vec();
    f.strides = t.strides().vec();
    f.storage_offset = t.storage_offset();
    f.contiguous = t.is_contiguous();
    f.channels_last = t.is_contiguous(at::MemoryFormat::ChannelsLast);
    f.channels_last_3d = t.is_contiguous(at::MemoryFormat::ChannelsLast3d);
    f.non_overlapping_and_dense = t.is_non_overlapping_and_dense();
    f.torch_overlap = to_overlap(at::has_internal_overlap(t));
    return f;
  }

  uintptr_t identity(const Tensor& t) { return reinterpret_cast<uintptr_t>(t.unsafeGetTensorImpl()); }
  uintptr_t storage_identity(const Tensor& t) {
    return reinterpret_cast<uintptr_t>(t.storage().unsafeGetStorageImpl());
  }
  std::optional<uintptr_t> base_identity(const Tensor& t) {
    if (!t.is_view()) return std::nullopt;
    return reinterpret_cast<uintptr_t>(t._base().unsafeGetTensorImpl());
  }
  int64_t version(const Tensor& t) { return static_cast<int64_t>(t._version()); }

  // Full bytes (copied to the host from CUDA); the meta device has none. The
  // oracle knows no undefined bytes: that is the engine's knowledge. A CUDA
  // context poisoned by an earlier step's kernel error cannot be read: the
  // storage is then reported without contents rather than ending the run.
  StorageObs storage_contents(const Tensor& t) {
    StorageObs s;
    const at::Storage& storage = t.storage();
    s.nbytes = static_cast<int64_t>(storage.nbytes());
    if (t.device().is_meta()) {
      s.has_contents = false;
      return s;
    }
    s.bytes.resize(static_cast<size_t>(s.nbytes));
    if (s.nbytes == 0) return s;
    if (t.device().is_cpu()) {
      std::memcpy(s.bytes.data(), storage.data(), s.bytes.size());
    } else {
      try {
        at::Tensor host = storage_as_bytes(storage, t.device()).cpu();
        std::memcpy(s.bytes.data(), host.data_ptr<uint8_t>(), s.bytes.size());
      } catch (const std::exception&) {
        s.has_contents = false;
        s.bytes.clear();
      }
    }
    return s;
  }

  StorageInPlace storage_in_place(const Tensor& t) {
    StorageInPlace s;
    if (!t.device().is_cpu()) return s;
    const at::Storage& storage = t.storage();
    s.readable = true;
    s.nbytes = static_cast<int64_t>(storage.nbytes());
    s.data = static_cast<const uint8_t*>(storage.data());
    return s;
  }

  std::vector<std::string> take_warnings() {
    std::vector<std::string> out;
    out.swap(warnings);
    return out;
  }
  std::optional<std::string> take_undefined() { return std::nullopt; }
};

std::string backend_version() { return "LibTorch " + libtorch_description(); }

std::unique_ptr<Backend> make_torch_backend(std::string_view device) {
  if (device != "cpu" && device != "meta" && device != "cuda")
    throw std::invalid_argument("libtorch backend has devices cpu, meta and cuda, not '" + std::string(device) + "'");
  if (device == "cuda" && !at::hasCUDA())
    throw std::invalid_argument("libtorch:cuda: no CUDA device available (" + backend_version() + ", built " +
                                (at::globalContext().hasCUDART() ? "with" : "without") + " CUDA)");
  return std::make_unique<TracedBackend<TorchTraits>>("libtorch:" + std::string(device), backend_version(),
                                                      std::string(device));
}

}  // namespace

void register_backends() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_backend("libtorch", make_torch_backend);
    // The engine imitates the PyTorch this oracle is (engine/version_profile.h);
    // `--semantics` may override it afterwards.
    if (auto choice = engine::choose_profile(TORCH_VERSION)) engine::set_profile(*choice);
  });
}

std::string libtorch_version() { return TORCH_VERSION; }

std::string libtorch_description() {
#ifdef STRIDECHECK_TORCH_SOURCE
  return std::string(TORCH_VERSION) + " (" STRIDECHECK_TORCH_SOURCE ")";
#else
  return TORCH_VERSION;
#endif
}

}  // namespace sc::oracle
