// Oracle: view ops (DESIGN.md view list) mapped onto LibTorch's C++ methods,
// one line each; LibTorch decides every size, stride, offset and error.
#include <ATen/ops/alias.h>
#include <ATen/ops/movedim.h>
#include <ATen/ops/split_with_sizes.h>
#include <torch/version.h>

#include "oracle/torch_ops.h"

namespace sc::oracle {

using namespace op_files;

void add_torch_view_ops(TorchOpTable& t) {
  // `view [s]` or `view dtype=D` (check_signature admits exactly one of them).
  t["view"] = [](Args a, Env env, Ctx) {
    const T& self = env(a.tensor(0));
    if (auto d = kw_dtype(a)) return one(self.view(*d));
    return one(self.view(a.int_list(1)));
  };
  t["view_as"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).view_as(env(a.tensor(1)))); };
  t["reshape"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).reshape(a.int_list(1))); };
  t["flatten"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).flatten(a.int_(1), a.int_(2))); };
  t["unflatten"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).unflatten(a.int_(1), a.int_list(2))); };
  t["transpose"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).transpose(a.int_(1), a.int_(2))); };
  t["t"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).t()); };
  t["mT"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).mT()); };
  // Python's x.T is aten::numpy_T.
  t["T"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).numpy_T()); };
  t["permute"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).permute(a.int_list(1))); };
  // movedim has an int overload and an int-list overload; the text chooses.
  t["movedim"] = [](Args a, Env env, Ctx) {
    const T& self = env(a.tensor(0));
    if (!a.is_list(1) && !a.is_list(2)) return one(at::movedim(self, a.int_(1), a.int_(2)));
    return one(at::movedim(self, a.int_list(1), a.int_list(2)));
  };
  t["expand"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).expand(a.int_list(1))); };
  t["expand_as"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).expand_as(env(a.tensor(1)))); };
  t["broadcast_to"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).broadcast_to(a.int_list(1))); };
  t["unsqueeze"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).unsqueeze(a.int_(1))); };
  // `squeeze` removes every size-1 dim; `squeeze d` only d.
  t["squeeze"] = [](Args a, Env env, Ctx) {
    const T& self = env(a.tensor(0));
    if (auto d = a.opt_int(1)) return one(self.squeeze(*d));
    return one(self.squeeze());
  };
  t["narrow"] = [](Args a, Env env, Ctx) {
    return one(env(a.tensor(0)).narrow(a.int_(1), a.int_(2), a.int_(3)));
  };
  // Note [SymInt conversions in gcc's order]
  // Tensor::slice and Tensor::as_strided convert their int arguments to
  // c10::SymInt (which raises for values below -2^62) inside one call
  // expression, so which bad argument is reported depends on the compiler's
  // argument evaluation order: gcc converts right to left, clang left to right.
  // The conversions are sequenced here in gcc's order, the order of LibTorch's
  // own builds and of the engine (engine/views.h check_symint), so the oracle
  // answers the same under either compiler (the clang fuzz and ASan builds).
  t["slice"] = [](Args a, Env env, Ctx) {
    const c10::SymInt step(a.int_(4));
    const auto sym = [](std::optional<int64_t> v) -> c10::optional<c10::SymInt> {
      if (v) return c10::SymInt(*v);
      return c10::nullopt;
    };
    const c10::optional<c10::SymInt> end = sym(a.opt_int(3));
    const c10::optional<c10::SymInt> start = sym(a.opt_int(2));
    return one(env(a.tensor(0)).slice_symint(a.int_(1), start, end, step));
  };
  t["select"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).select(a.int_(1), a.int_(2))); };
  t["diagonal"] = [](Args a, Env env, Ctx) {
    return one(env(a.tensor(0)).diagonal(a.int_(1), a.int_(2), a.int_(3)));
  };
  t["unfold"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).unfold(a.int_(1), a.int_(2), a.int_(3))); };
  // storage_offset defaults to the input's own (LibTorch: nullopt).
  // Conversions in gcc's order (Note [SymInt conversions in gcc's order]).
  // The checked IntArrayRef -> SymIntArrayRef conversion is c10::fromIntArrayRef
  // in 1.13 and c10::fromIntArrayRefSlow in 2.x (an API rename, same check).
  const auto to_sym = [](c10::IntArrayRef v) {
#if TORCH_VERSION_MAJOR >= 2
    return c10::fromIntArrayRefSlow(v);
#else
    return c10::fromIntArrayRef(v);
#endif
  };
  t["as_strided"] = [to_sym](Args a, Env env, Ctx) {
    const std::vector<int64_t> size = a.int_list(1), stride = a.int_list(2);
    c10::optional<c10::SymInt> offset;
    if (auto o = a.opt_int(3)) offset = c10::SymInt(*o);
    const c10::SymIntArrayRef sym_stride = to_sym(stride);
    const c10::SymIntArrayRef sym_size = to_sym(size);
    return one(env(a.tensor(0)).as_strided_symint(sym_size, sym_stride, offset));
  };
  t["detach"] = [](Args a, Env env, Ctx) { return one(env(a.tensor(0)).detach()); };
  t["alias"] = [](Args a, Env env, Ctx) { return one(at::alias(env(a.tensor(0)))); };
  // An integer is Tensor::split, a list is split_with_sizes (as Python's x.split does).
  t["split"] = [](Args a, Env env, Ctx) {
    const T& self = env(a.tensor(0));
    if (a.is_list(1)) return at::split_with_sizes(self, a.int_list(1), a.int_(2));
    return self.split(a.int_(1), a.int_(2));
  };
  t["chunk"] = [](Args a, Env env, Ctx) { return env(a.tensor(0)).chunk(a.int_(1), a.int_(2)); };
  t["unbind"] = [](Args a, Env env, Ctx) { return env(a.tensor(0)).unbind(a.int_(1)); };
}

}  // namespace sc::oracle
