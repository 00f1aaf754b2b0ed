// Engine backend: view ops (DESIGN.md view list) mapped onto engine/views.h.
// Arguments are read through ArgReader, so defaults come from program/ops.h.
// Overloads are chosen as LibTorch's C++ API chooses them:
//   view [s] -> view(size);          view dtype=D -> view(dtype)
//   squeeze  -> squeeze();           squeeze d    -> squeeze(dim)
//   split n  -> split(n, dim);       split [a,b]  -> split_with_sizes([a,b], dim)
//   movedim takes an int or a list on each side (movedim.int is movedim.intlist of one).
#include "engine/dtype.h"
#include "engine/views.h"
#include "program/engine_ops.h"

namespace sc {
namespace {

using engine::Tensor;
using Result = std::vector<Tensor>;

// One result, moved in (a braced list would copy the header out of its initializer_list).
Result single(Tensor&& r) {
  Result out;
  out.push_back(std::move(r));
  return out;
}

// Registers an op whose result is one tensor computed from the ArgReader and
// self: a Tensor, or a Checked<Tensor> whose error becomes the step's
// (ctx.error) without a throw (Note [errors returned, not thrown]).
template <class F>
void one(EngineOpTable& t, const char* name, F f) {
  t[name] = [f](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& ctx) {
    auto r = f(a, env(a.tensor(0)), env);
    if constexpr (std::is_same_v<decltype(r), engine::Checked<Tensor>>) {
      if (!r.ok()) {
        ctx.error.emplace(std::move(r).failure().error);
        return Result{};
      }
      return single(std::move(r).value());
    } else {
      return single(std::move(r));
    }
  };
}

// The same for an op whose result is a list: a Checked<std::vector<Tensor>>.
template <class F>
void many(EngineOpTable& t, const char* name, F f) {
  t[name] = [f](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& ctx) {
    engine::Checked<Result> r = f(a, env(a.tensor(0)));
    if (!r.ok()) {
      ctx.error.emplace(std::move(r).failure().error);
      return Result{};
    }
    return std::move(r).value();
  };
}

}  // namespace

void add_engine_view_ops(EngineOpTable& t) {
  using A = const ArgReader&;
  using S = const Tensor&;
  using E = const Lookup<Tensor>&;

  one(t, "view", [](A a, S self, E) {
    if (auto d = a.kw_dtype()) return engine::view_dtype_checked(self, *engine::parse_dtype(*d));
    return engine::view_checked(self, a.int_list(1));
  });
  one(t, "view_as", [](A a, S self, E env) { return engine::view_checked(self, env(a.tensor(1)).sizes); });
  one(t, "reshape", [](A a, S self, E) { return engine::reshape_checked(self, a.int_list(1)); });
  one(t, "flatten", [](A a, S self, E) { return engine::flatten_checked(self, a.int_(1), a.int_(2)); });
  one(t, "unflatten", [](A a, S self, E) { return engine::unflatten_checked(self, a.int_(1), a.int_list(2)); });
  one(t, "transpose", [](A a, S self, E) { return engine::transpose_checked(self, a.int_(1), a.int_(2)); });
  one(t, "t", [](A, S self, E) { return engine::t_checked(self); });
  one(t, "mT", [](A, S self, E) { return engine::mT_checked(self); });
  one(t, "T", [](A, S self, E) { return engine::T(self); });
  one(t, "permute", [](A a, S self, E) { return engine::permute_checked(self, a.int_list(1)); });
  one(t, "movedim", [](A a, S self, E) { return engine::movedim_checked(self, a.int_list(1), a.int_list(2)); });
  one(t, "expand", [](A a, S self, E) { return engine::expand_checked(self, a.int_list(1)); });
  one(t, "expand_as", [](A a, S self, E env) { return engine::expand_as_checked(self, env(a.tensor(1))); });
  one(t, "broadcast_to", [](A a, S self, E) { return engine::expand_checked(self, a.int_list(1)); });
  one(t, "unsqueeze", [](A a, S self, E) { return engine::unsqueeze_checked(self, a.int_(1)); });
  one(t, "squeeze", [](A a, S self, E) {
    if (auto d = a.opt_int(1)) return engine::squeeze_checked(self, *d);
    return engine::Checked<Tensor>(engine::squeeze(self));
  });
  one(t, "narrow", [](A a, S self, E) { return engine::narrow_checked(self, a.int_(1), a.int_(2), a.int_(3)); });
  one(t, "slice",
      [](A a, S self, E) { return engine::slice_checked(self, a.int_(1), a.opt_int(2), a.opt_int(3), a.int_(4)); });
  one(t, "select", [](A a, S self, E) { return engine::select_checked(self, a.int_(1), a.int_(2)); });
  one(t, "diagonal", [](A a, S self, E) { return engine::diagonal_checked(self, a.int_(1), a.int_(2), a.int_(3)); });
  one(t, "unfold", [](A a, S self, E) { return engine::unfold_checked(self, a.int_(1), a.int_(2), a.int_(3)); });
  one(t, "as_strided",
      [](A a, S self, E) { return engine::as_strided_checked(self, a.int_list(1), a.int_list(2), a.opt_int(3)); });
  one(t, "detach", [](A, S self, E) { return engine::detach(self); });
  one(t, "alias", [](A, S self, E) { return engine::alias(self); });

  many(t, "split", [](A a, S self) {
    if (a.is_list(1)) return engine::split_with_sizes_checked(self, a.int_list(1), a.int_(2));
    return engine::split_checked(self, a.int_(1), a.int_(2));
  });
  many(t, "chunk", [](A a, S self) { return engine::chunk_checked(self, a.int_(1), a.int_(2)); });
  many(t, "unbind", [](A a, S self) { return engine::unbind_checked(self, a.int_(1)); });
}

}  // namespace sc
