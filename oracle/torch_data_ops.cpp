// Oracle: creation, copy, in-place and elementwise ops mapped onto LibTorch.
// Each op is what the same line of Python would run (torch/csrc/utils and
// python_variable_methods), so that LibTorch decides layouts, promotion and errors.
#include <ATen/ScalarOps.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <c10/core/WrapDimMinimal.h>
#include <c10/util/TypeCast.h>
#include <torch/version.h>
#include <ATen/ops/add.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/empty_strided.h>
#include <ATen/ops/flip.h>
#include <ATen/ops/full.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/neg.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>

#include "oracle/torch_ops.h"

namespace sc::oracle {
namespace {

using namespace op_files;


// Python's factory functions (torch.zeros, torch.arange, torch.zeros_like, ...;
// torch/csrc/autograd/generated/variable_factories.h) run the ATen function
// below the ADInplaceOrView key, so the fill inside (zeros = empty + zero_)
// does not bump the new tensor's version: it starts at 0. at::zeros alone
// would start at 1.
template <class F>
T factory(F&& make) {
  at::AutoDispatchBelowADInplaceOrView guard;
  return make();
}

// torch.tensor's dtype inference: any float -> float32 (the default dtype),
// else any int -> int64, else (all bool) bool; [] is float32.
at::ScalarType infer_values_dtype(const std::vector<Number>& v) {
  bool any_float = false, any_int = false;
  for (const Number& n : v) {
    any_float |= n.is_float();
    any_int |= n.is_int();
  }
  if (any_float || v.empty()) return at::kFloat;
  return any_int ? at::kLong : at::kBool;
}

// One value stored into an element of `dtype`, as Python's torch.tensor does
// (torch/csrc/utils/tensor_new.cpp store_scalar, Python >= 3.10): integral
// types go through c10::checked_convert (300 -> uint8 raises "value cannot be
// converted to type uint8 without overflow"; -1 -> uint8 is 255), floating types
// through double (1e40 -> float32 is inf), bool is value != 0.
template <class E>
void store_integral(void* p, const Number& n, const char* name) {
  *static_cast<E*>(p) = n.is_float() ? c10::checked_convert<E, double>(n.f, name)
                                     : c10::checked_convert<E, int64_t>(n.i, name);
}

void store_value(void* p, at::ScalarType dtype, const Number& n) {
  switch (dtype) {
    case at::kByte: return store_integral<uint8_t>(p, n, "uint8");
    case at::kChar: return store_integral<int8_t>(p, n, "int8");
    case at::kShort: return store_integral<int16_t>(p, n, "int16");
    case at::kInt: return store_integral<int32_t>(p, n, "int32");
    case at::kLong: return store_integral<int64_t>(p, n, "int64");
    case at::kHalf: *static_cast<at::Half*>(p) = c10::convert<at::Half, double>(n.as_double()); return;
    case at::kBFloat16: *static_cast<at::BFloat16*>(p) = c10::convert<at::BFloat16, double>(n.as_double()); return;
    case at::kFloat: *static_cast<float*>(p) = static_cast<float>(n.as_double()); return;
    case at::kDouble: *static_cast<double*>(p) = n.as_double(); return;
    case at::kBool: *static_cast<bool*>(p) = n.is_float() ? n.f != 0.0 : n.i != 0; return;
    default: SC_ASSERT(false, "dtype outside the language: ", c10::toString(dtype));
  }
}

// torch.tensor(values, dtype=D): a CPU tensor of D (0-d for a single number)
// receives each value through store_value, then moves to the device with
// .to(device) (internal_new_from_data). Writing through data_ptr leaves the
// version counter at 0, as in Python.
T tensor_from_values(const std::vector<Number>& values, bool zero_dim, at::ScalarType dtype, at::Device device) {
  std::vector<int64_t> shape;
  if (!zero_dim) shape.push_back(static_cast<int64_t>(values.size()));
  T host = at::empty(shape, at::TensorOptions().dtype(dtype));
  auto* base = static_cast<char*>(host.data_ptr());
  for (size_t i = 0; i < values.size(); ++i) store_value(base + i * host.element_size(), dtype, values[i]);
  return host.to(device);
}

// empty_strided with its whole storage filled 0,1,2,... in storage order
// (DESIGN.md): a separate tensor header over the same storage receives an int64
// arange, so the result's own version counter stays 0.
T empty_strided_iota(at::IntArrayRef size, at::IntArrayRef stride, const at::TensorOptions& options) {
  T t = at::empty_strided(size, stride, options);
  const int64_t n = static_cast<int64_t>(t.storage().nbytes()) / static_cast<int64_t>(t.element_size());
  if (n > 0) {
    T flat = at::empty({0}, options);
    flat.set_(t.storage(), 0, {n}, {1});
    flat.copy_(at::arange(n, options.dtype(at::kLong)));
  }
  return t;
}

// A Python number passed where LibTorch takes a Tensor becomes a wrapped
// 0-d CPU tensor (it takes part in type promotion as a scalar).
T scalar_operand(const Number& n) {
  T t = c10::scalar_to_tensor(to_scalar(n));
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

T operand(Args a, size_t i, Env env) { return a.is_tensor(i) ? env(a.tensor(i)) : scalar_operand(a.scalar(i)); }

// Note [index_select on a 0-d tensor]
// LibTorch's CPU index_select before 2.1 does not check that a 0-d self gets
// at most one index: with n > 1 indices it writes n elements into the 1-element
// 0-d result and corrupts the heap (pytorch/pytorch#90998; measured here with
// 1.13: "corrupted size vs. prev_size", abort a few steps later). Later
// versions raise "index_select(): Index to scalar can have only 1 value, got n
// value(s)". The oracle does not run the call on those versions: it reports
// why instead, so one program cannot take the harness (or a fuzzing campaign)
// down with it.
// LibTorch checks each index just before writing it, so the write past the end
// happens only when the first two indices are both valid (0): otherwise it
// raises "index out of range in self" cleanly, and the oracle lets it.
void refuse_heap_corrupting_index_select(const T& self, int64_t dim, const std::vector<int64_t>& index) {
  const size_t num_indices = index.size();
#if TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 1)
  if (self.dim() != 0 || num_indices < 2 || !self.device().is_cpu()) return;
  c10::maybe_wrap_dim(dim, 0);  // LibTorch's own "Dimension out of range" comes first
  if (index[0] == 0 && index[1] == 0)
    throw engine::StepRefused(
        engine::str_cat("stridecheck oracle: not run: LibTorch ", TORCH_VERSION,
                        " index_select on a 0-d tensor with ", num_indices, " indices writes ", num_indices,
                        " elements into its 1-element result (heap corruption, pytorch/pytorch#90998); LibTorch 2.1+ "
                        "raises \"index_select(): Index to scalar can have only 1 value, got ",
                        num_indices, " value(s)\""));
#else
  (void)self;
  (void)dim;
  (void)num_indices;
#endif
}

// index_select_out_cpu_ (self.dim() > 1, dim != 1, at least one index) skips
// the work when self.numel() == 0 and otherwise parallelises over the indices
// with a grain of GRAIN_SIZE / slice_size, slice_size being
// self.select(dim, 0).numel(). The cached numel of an out= tensor whose resize
// raised after setting its sizes is the old one (Note [stale layout flags],
// engine/tensor.h): sizes [2,-1,0] with numel 35 pass the first test while
// the slice [-1,0] has 0 elements, and the division raises SIGFPE (1.13 and
// 2.15 measured; found by generate --stats --seed 60000001 on 1.13, seed
// 60006087). The oracle refuses that call after LibTorch's own earlier
// checks (the dim, the result's numel, select's range) would have passed.
void refuse_dividing_index_select(const T& self, int64_t dim, const std::vector<int64_t>& index) {
  const int64_t nd = self.dim();
  if (!self.device().is_cpu() || nd <= 1 || index.empty()) return;
  dim = c10::maybe_wrap_dim(dim, nd);  // LibTorch's own error first
  if (dim == 1 || self.numel() == 0 || self.size(dim) <= 0) return;
  uint64_t result_numel = 1, slice_numel = 1;
  bool overflow = false;
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t sz = d == dim ? static_cast<int64_t>(index.size()) : self.size(d);
    overflow |= __builtin_mul_overflow(result_numel, static_cast<uint64_t>(sz), &result_numel);
  }
  if (overflow || result_numel > static_cast<uint64_t>(INT64_MAX)) return;  // resize_output raises first
  for (int64_t d = 0; d < nd; ++d)
    if (d != dim) overflow |= __builtin_mul_overflow(slice_numel, static_cast<uint64_t>(self.size(d)), &slice_numel);
  if (overflow || slice_numel > static_cast<uint64_t>(INT64_MAX)) return;  // select raises first
  if (slice_numel == 0)
    throw engine::StepRefused(engine::str_cat(
        "stridecheck oracle: not run: LibTorch ", TORCH_VERSION, " index_select on a tensor whose cached numel (",
        self.numel(), ") is stale (sizes ", c10::str(self.sizes()),
        ", left by a failed out= resize) divides by its 0-element slice (SIGFPE in index_select_out_cpu_)"));
}

// Note [index_select on CUDA] (engine/copy.cpp): LibTorch's CUDA kernel checks
// each index with a device-side assert, which poisons the CUDA context for the
// rest of the process. The oracle runs LibTorch's host checks (wrapped dim, at
// most 25 dims, one index for a 0-d self since 2.1, nothing to do when the
// result is empty) and refuses, instead of launching, a call that would fail
// that assert.
void refuse_device_asserting_index_select(const T& self, int64_t dim, const std::vector<int64_t>& index) {
  if (!self.device().is_cuda()) return;
  const int64_t nd = self.dim();
  dim = c10::maybe_wrap_dim(dim, nd);  // LibTorch's own error first
  const int64_t ni = static_cast<int64_t>(index.size());
  if (nd > 25 || (nd == 0 && ni != 1)) return;  // LibTorch raises (or, before 2.1, launches nothing per index)
  bool out_empty = nd > 0 && ni == 0;
  for (int64_t d = 0; d < nd; ++d) out_empty = out_empty || (d != dim && self.size(d) == 0);
  if (out_empty) return;
  const int64_t size = nd == 0 ? 1 : self.size(dim);
  for (int64_t i : index)
    if (i < 0 || i >= size)
      throw engine::StepRefused(engine::str_cat(
          "stridecheck oracle: not run: index_select on CUDA with index ", i, " outside [0, ", size,
          "): LibTorch's kernel fails a device-side assert, which poisons the CUDA context for the rest of the "
          "process (Note [index_select on CUDA])"));
}

c10::optional<at::Scalar> opt_scalar(Args a, size_t i) {
  if (a.is_none(i)) return c10::nullopt;
  return to_scalar(a.scalar(i));
}

}  // namespace

void add_torch_data_ops(TorchOpTable& t) {
  // ---- creation: on the backend's device; float32 unless dtype= is given.
  t["arange"] = [](Args a, Env, Ctx c) {
    return one(factory([&] { return at::arange(at::Scalar(static_cast<int64_t>(a.int_(0))), c.options(dtype_or(a, at::kFloat))); }));
  };
  t["zeros"] = [](Args a, Env, Ctx c) { return one(factory([&] { return at::zeros(a.int_list(0), c.options(dtype_or(a, at::kFloat))); })); };
  t["ones"] = [](Args a, Env, Ctx c) { return one(factory([&] { return at::ones(a.int_list(0), c.options(dtype_or(a, at::kFloat))); })); };
  t["full"] = [](Args a, Env, Ctx c) {
    return one(factory([&] { return at::full(a.int_list(0), to_scalar(a.scalar(1)), c.options(dtype_or(a, at::kFloat))); }));
  };
  t["tensor"] = [](Args a, Env, Ctx c) {
    auto values = a.values(0);
    return one(factory([&] {
      return tensor_from_values(values, a.values_is_scalar(0), dtype_or(a, infer_values_dtype(values)), c.device);
    }));
  };
  t["empty_strided"] = [](Args a, Env, Ctx c) {
    return one(factory([&] { return empty_strided_iota(a.int_list(0), a.int_list(1), c.options(dtype_or(a, at::kFloat))); }));
  };

  // ---- copies
  t["contiguous"] = [](Args a, Env env, Ctx) {
    return one(env(a.tensor(0)).contiguous(kw_memory_format(a).value_or(at::MemoryFormat::Contiguous)));
  };
  // clone's default is preserve_format (nullopt).
  t["clone"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).clone(kw_memory_format(a))); };
  // x.to(dtype=D, memory_format=F) and x.to(memory_format=F), as Python dispatches them.
  t["to"] = [](Args a, Env env, Ctx) {
    const T& self = env(a.tensor(0));
    if (auto d = kw_dtype(a)) return one(self.to(*d, false, false, kw_memory_format(a)));
    return one(self.to(self.options(), false, false, kw_memory_format(a)));
  };
  t["repeat"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).repeat(a.int_list(1))); };
  t["index_select"] = [](Args a, Env env, Ctx c) {
    std::vector<int64_t> idx = a.int_list(2);
    refuse_heap_corrupting_index_select(env(a.tensor(0)), a.int_(1), idx);
    refuse_device_asserting_index_select(env(a.tensor(0)), a.int_(1), idx);
    refuse_dividing_index_select(env(a.tensor(0)), a.int_(1), idx);
    T index = at::empty({static_cast<int64_t>(idx.size())}, at::TensorOptions().dtype(at::kLong));
    std::copy(idx.begin(), idx.end(), index.data_ptr<int64_t>());
    return one(at::index_select(env(a.tensor(0)), a.int_(1), index.to(c.device)));
  };
  t["flip"] = [](Args a, Env env, Ctx) { return one(at::flip(env(a.tensor(0)), a.int_list(1))); };
  // empty_like / zeros_like: unset options are inherited from self; format defaults to preserve.
  t["empty_like"] = [](Args a, Env env, Ctx) {
    at::TensorOptions o;
    if (auto d = kw_dtype(a)) o = o.dtype(*d);
    return one(factory([&] { return at::empty_like(env(a.tensor(0)), o, kw_memory_format(a)); }));
  };
  t["zeros_like"] = [](Args a, Env env, Ctx) {
    at::TensorOptions o;
    if (auto d = kw_dtype(a)) o = o.dtype(*d);
    return one(factory([&] { return at::zeros_like(env(a.tensor(0)), o, kw_memory_format(a)); }));
  };

  // ---- in-place: mutate self and return self (the same at::Tensor).
  t["add_"] = [](Args a, Env env, Ctx) {
    T self = env(a.tensor(0));
    self.add_(operand(a, 1, env));
    return one(self);
  };
  t["sub_"] = [](Args a, Env env, Ctx) {
    T self = env(a.tensor(0));
    self.sub_(operand(a, 1, env));
    return one(self);
  };
  t["mul_"] = [](Args a, Env env, Ctx) {
    T self = env(a.tensor(0));
    self.mul_(operand(a, 1, env));
    return one(self);
  };
  t["div_"] = [](Args a, Env env, Ctx) {
    T self = env(a.tensor(0));
    self.div_(operand(a, 1, env));
    return one(self);
  };
  t["zero_"] = [](Args a, Env env, Ctx) {
    T self = env(a.tensor(0));
    self.zero_();
    return one(self);
  };
  // fill_ has a Scalar and a Tensor overload; a number picks the Scalar one.
  t["fill_"] = [](Args a, Env env, Ctx) {
    T self = env(a.tensor(0));
    if (a.is_tensor(1))
      self.fill_(env(a.tensor(1)));
    else
      self.fill_(to_scalar(a.scalar(1)));
    return one(self);
  };
  t["clamp_"] = [](Args a, Env env, Ctx) {
    T self = env(a.tensor(0));
    self.clamp_(opt_scalar(a, 1), opt_scalar(a, 2));
    return one(self);
  };
  t["copy_"] = [](Args a, Env env, Ctx) {
    T self = env(a.tensor(0));
    self.copy_(env(a.tensor(1)));
    return one(self);
  };

  // ---- out-of-place elementwise; `out=z` writes into z and returns z itself.
  t["add"] = [](Args a, Env env, Ctx) {
    if (auto out = a.kw_tensor("out")) {
      T o = env(*out);
      at::add_out(o, env(a.tensor(0)), operand(a, 1, env));
      return one(o);
    }
    return one(at::add(env(a.tensor(0)), operand(a, 1, env)));
  };
  t["mul"] = [](Args a, Env env, Ctx) {
    if (auto out = a.kw_tensor("out")) {
      T o = env(*out);
      at::mul_out(o, env(a.tensor(0)), operand(a, 1, env));
      return one(o);
    }
    return one(at::mul(env(a.tensor(0)), operand(a, 1, env)));
  };
  t["neg"] = [](Args a, Env env, Ctx) {
    if (auto out = a.kw_tensor("out")) {
      T o = env(*out);
      at::neg_out(o, env(a.tensor(0)));
      return one(o);
    }
    return one(at::neg(env(a.tensor(0))));
  };
}

}  // namespace sc::oracle
