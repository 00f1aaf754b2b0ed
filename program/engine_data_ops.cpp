// Engine backend: creation, copy, in-place and elementwise ops.
#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/error.h"
#include "engine/inplace.h"
#include "engine/layout.h"
#include "program/engine_ops.h"

namespace sc {
namespace {

using engine::DType;
using engine::Tensor;

std::vector<engine::Scalar> scalars(const std::vector<Number>& v) {
  std::vector<engine::Scalar> out;
  for (const Number& n : v) out.push_back(to_scalar(n));
  return out;
}

// torch.tensor's dtype inference: any float -> float32, else any int -> int64, else bool.
DType infer_values_dtype(const std::vector<Number>& v) {
  bool any_float = false, any_int = false;
  for (const Number& n : v) {
    any_float |= n.is_float();
    any_int |= n.is_int();
  }
  if (any_float) return DType::Float32;
  if (any_int || v.empty()) return v.empty() ? DType::Float32 : DType::Int64;
  return DType::Bool;
}

std::optional<engine::MemoryFormat> kw_format(const ArgReader& a) {
  auto f = a.kw_format();
  if (!f) return std::nullopt;
  switch (*f) {
    case FormatArg::Preserve: return engine::MemoryFormat::Preserve;
    case FormatArg::Contiguous: return engine::MemoryFormat::Contiguous;
    case FormatArg::ChannelsLast: return engine::MemoryFormat::ChannelsLast;
    case FormatArg::ChannelsLast3d: return engine::MemoryFormat::ChannelsLast3d;
  }
  return std::nullopt;
}

std::optional<DType> kw_dtype(const ArgReader& a) {
  if (auto d = a.kw_dtype()) return engine::parse_dtype(*d);
  return std::nullopt;
}

// One result, moved in (a braced list would copy the header out of its initializer_list).
std::vector<Tensor> one(Tensor t) {
  std::vector<Tensor> r;
  r.push_back(std::move(t));
  return r;
}

// A number where LibTorch takes a Tensor is a wrapped number (engine::Operand).
engine::Operand operand(const ArgReader& a, size_t i, const Lookup<Tensor>& env) {
  if (a.is_tensor(i)) return engine::Operand::of(env(a.tensor(i)));
  return engine::Operand::of(to_scalar(a.scalar(i)));
}

std::optional<engine::Scalar> opt_scalar(const ArgReader& a, size_t i) {
  if (a.is_none(i)) return std::nullopt;
  return to_scalar(a.scalar(i));
}

// The undefined-result note of the engine op, for the Observation.
std::vector<Tensor> noting(EngineStepContext& c, std::vector<Tensor> r) {
  if (auto u = engine::take_undefined_reason()) c.undefined = *u;
  return r;
}

// A checked op's result without an undefined reason to take: its error
// becomes the step's (c.error).
std::vector<Tensor> one(EngineStepContext& c, engine::Checked<Tensor> r) {
  if (!r.ok()) {
    c.error.emplace(std::move(r).failure().error);
    return {};
  }
  return one(std::move(r).value());
}

// A checked op's result (Note [errors returned, not thrown]): its error
// becomes the step's (c.error) as a throw would have, leaving any undefined
// reason where a throw left it.
std::vector<Tensor> noting(EngineStepContext& c, engine::Checked<Tensor> r) {
  if (!r.ok()) {
    c.error.emplace(std::move(r).failure().error);
    return {};
  }
  return noting(c, one(std::move(r).value()));
}

// out=z: the op writes into z (a resize changes z's header, so the bound
// value itself is updated, as LibTorch's out tensor is the same object).
Tensor& out_tensor(const ArgReader& a, const Lookup<Tensor>& env) {
  return const_cast<Tensor&>(env(*a.kw_tensor("out")));
}

}  // namespace

void add_engine_data_ops(EngineOpTable& t) {
  t["arange"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return one(c, engine::arange_checked(a.int_(0), dtype_or(a, DType::Float32), c.device));
  };
  t["zeros"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return one(c, engine::zeros_checked(a.int_list(0), dtype_or(a, DType::Float32), c.device));
  };
  t["ones"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return one(c, engine::ones_checked(a.int_list(0), dtype_or(a, DType::Float32), c.device));
  };
  t["full"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return one(c, engine::full_checked(a.int_list(0), to_scalar(a.scalar(1)), dtype_or(a, DType::Float32), c.device));
  };
  t["tensor"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    auto values = a.values(0);
    return std::vector<Tensor>{engine::tensor(scalars(values), a.values_is_scalar(0),
                                              dtype_or(a, infer_values_dtype(values)), c.device)};
  };
  t["empty_strided"] = [](const ArgReader& a, const Lookup<Tensor>&, EngineStepContext& c) {
    return one(c, engine::empty_strided_iota_checked(a.int_list(0), a.int_list(1), dtype_or(a, DType::Float32),
                                                     c.device));
  };

  // ---- copies
  t["contiguous"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return one(c, engine::contiguous_checked(env(a.tensor(0)), kw_format(a).value_or(engine::MemoryFormat::Contiguous)));
  };
  t["clone"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return one(c, engine::clone_checked(env(a.tensor(0)), kw_format(a).value_or(engine::MemoryFormat::Preserve)));
  };
  t["to"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return one(c, engine::to_checked(env(a.tensor(0)), kw_dtype(a), kw_format(a)));
  };
  t["repeat"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return one(c, engine::repeat_checked(env(a.tensor(0)), a.int_list(1)));
  };
  t["index_select"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return one(c, engine::index_select_checked(env(a.tensor(0)), a.int_(1), a.int_list(2)));
  };
  t["flip"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return one(c, engine::flip_checked(env(a.tensor(0)), a.int_list(1)));
  };
  t["empty_like"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return one(c, engine::empty_like_checked(env(a.tensor(0)), kw_dtype(a), kw_format(a)));
  };
  t["zeros_like"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return one(c, engine::zeros_like_checked(env(a.tensor(0)), kw_dtype(a), kw_format(a)));
  };

  // ---- in-place: mutate self and return self (the same tensor object)
  t["add_"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return noting(c, engine::add_inplace_checked(env(a.tensor(0)), operand(a, 1, env)));
  };
  t["sub_"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return noting(c, engine::sub_inplace_checked(env(a.tensor(0)), operand(a, 1, env)));
  };
  t["mul_"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return noting(c, engine::mul_inplace_checked(env(a.tensor(0)), operand(a, 1, env)));
  };
  t["div_"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return noting(c, engine::div_inplace_checked(env(a.tensor(0)), operand(a, 1, env)));
  };
  t["zero_"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return noting(c, one(engine::zero_(env(a.tensor(0)))));
  };
  t["fill_"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    const Tensor& self = env(a.tensor(0));
    if (a.is_tensor(1)) {
      if (auto why = engine::fill_outcome_undefined(self, env(a.tensor(1)))) c.refused = *why;
      return noting(c, engine::fill_checked(self, env(a.tensor(1))));
    }
    return noting(c, engine::fill_checked(self, to_scalar(a.scalar(1))));
  };
  t["clamp_"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return noting(c, engine::clamp_checked(env(a.tensor(0)), opt_scalar(a, 1), opt_scalar(a, 2)));
  };
  t["copy_"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    return noting(c, engine::copy_checked(env(a.tensor(0)), env(a.tensor(1))));
  };

  // ---- out-of-place elementwise; out=z writes into z and returns z itself
  t["add"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    if (a.kw_tensor("out")) return noting(c, engine::add_out_checked(out_tensor(a, env), env(a.tensor(0)), operand(a, 1, env)));
    return noting(c, engine::add_checked(env(a.tensor(0)), operand(a, 1, env)));
  };
  t["mul"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    if (a.kw_tensor("out")) return noting(c, engine::mul_out_checked(out_tensor(a, env), env(a.tensor(0)), operand(a, 1, env)));
    return noting(c, engine::mul_checked(env(a.tensor(0)), operand(a, 1, env)));
  };
  t["neg"] = [](const ArgReader& a, const Lookup<Tensor>& env, EngineStepContext& c) {
    if (a.kw_tensor("out")) return noting(c, engine::neg_out_checked(out_tensor(a, env), env(a.tensor(0))));
    return noting(c, engine::neg_checked(env(a.tensor(0))));
  };
}

}  // namespace sc
