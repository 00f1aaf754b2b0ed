#pragma once
// Out-of-place elementwise ops (add, mul, neg, and their out= forms) and the
// TensorIterator-like machinery they share with the in-place ops
// (engine/inplace.h): type promotion (c10 result_type with dimension
// categories), broadcasting (infer_size), LibTorch's check order
// (overlap -> shape -> output shape -> dtype), output strides
// (engine/memory_format.h), and the undefined-result bookkeeping.
#include <optional>
#include <string>
#include <vector>

#include "engine/checked.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine {

// A tensor or a Python number (LibTorch wraps the number into a 0-d "wrapped
// number" tensor: int64, float64 or bool).
struct Operand {
  const Tensor* tensor = nullptr;
  Scalar scalar;
  static Operand of(const Tensor& t) { return {&t, {}}; }
  static Operand of(const Scalar& s) { return {nullptr, s}; }
  bool is_scalar() const { return tensor == nullptr; }
  Shape sizes() const { return tensor ? tensor->sizes : Shape{}; }
};

// The dtype of a wrapped number: int64, float64 or bool.
DType wrapped_dtype(const Scalar&);
// at::native::result_type over operands (ResultTypeState: dimResult for
// tensors with dim > 0, zeroResult for 0-d tensors, wrappedResult for numbers;
// wrapped floats count as the default dtype float32; combine_categories).
DType result_type(const std::vector<Operand>& ops);
// c10::canCast: no float -> integral, no non-bool -> bool.
bool can_cast(DType from, DType to);
// at::infer_size_dimvector: "The size of tensor a (3) must match the size of
// tensor b (4) at non-singleton dimension 1".
Shape broadcast_shapes(const Shape& a, const Shape& b);
Checked<Shape> broadcast_shapes_checked(const Shape& a, const Shape& b);
// expand without the view machinery: the header of `t` broadcast to `shape`
// (stride 0 on new and size-1 dims). For kernels only.
Tensor broadcast_header(const Tensor& t, const Shape& shape);
// LibTorch's IntArrayRef printing: "[2, 3]".
std::string shape_str(const Shape&);

// Why the last engine op left bytes undefined (for the Observation), if it did.
// Reset by take_undefined_reason().
std::optional<std::string> take_undefined_reason();
void note_undefined(std::string reason);

// How a TensorIterator-built op runs (TensorIteratorConfig, the parts we use).
struct IterConfig {
  bool check_mem_overlap = true;
  bool resize_outputs = true;            // out= may be resized (with a warning)
  bool promote_integer_to_float = false; // true division
  bool check_all_same_dtype = false;     // unary ops: "Found dtype X but expected Y"
  bool enforce_safe_casting = true;      // binary ops: "result type X can't be cast to ..."
  // mul/div (Change::HalfScalarOpsInOpmath): with a float16/bfloat16 common
  // dtype and a second operand that iterates as a scalar (a number, a
  // 1-element tensor), compute in float32 with its original value unrounded,
  // then round once (BinaryOpsKernel's original_scalar_value<opmath_t>).
  bool wrapped_scalar_in_opmath = false;
};

// The written tensor of a TensorIterator op: nullptr to allocate; `read_write`
// when it is also an input (in-place). Returns the output (for an existing
// `out` its header may have been resized: `out` is updated). The kernel
// passes `nan_choices` (null, or set for a two-input CPU op) on to
// kernels::binary (Note [NaN operand choice found by the kernel]).
using IterKernel = void (*)(int op, const Tensor& out, const std::vector<Tensor>& inputs,
                            std::vector<int64_t>* nan_choices);
Tensor run_iterator(Tensor* out, bool read_write, const std::vector<Operand>& inputs, const IterConfig& config,
                    int op, IterKernel kernel);
// Its own checks' errors returned (Note [errors returned, not thrown]); the
// allocation and resize checks after them still throw.
Checked<Tensor> run_iterator_checked(Tensor* out, bool read_write, const std::vector<Operand>& inputs,
                                     const IterConfig& config, int op, IterKernel kernel);

// After a write of every element of `written` whose inputs were `inputs`:
// mark the written bytes defined, or undefined where LibTorch's result is
// undefined (elements reached more than once; overlapping inputs LibTorch let
// through), noting the reason.
void account_write(const Tensor& written, const std::vector<const Tensor*>& inputs, bool idempotent);

Tensor add(const Tensor& self, const Operand& other);
Tensor mul(const Tensor& self, const Operand& other);
Tensor neg(const Tensor& self);
// out= forms: write into *out (resized with LibTorch's warning when its shape
// is wrong and out= allows it), bump its version, return it.
Tensor add_out(Tensor& out, const Tensor& self, const Operand& other);
Tensor mul_out(Tensor& out, const Tensor& self, const Operand& other);
Tensor neg_out(Tensor& out, const Tensor& self);
Checked<Tensor> add_checked(const Tensor& self, const Operand& other);
Checked<Tensor> mul_checked(const Tensor& self, const Operand& other);
Checked<Tensor> add_out_checked(Tensor& out, const Tensor& self, const Operand& other);
Checked<Tensor> mul_out_checked(Tensor& out, const Tensor& self, const Operand& other);
Checked<Tensor> neg_checked(const Tensor& self);
Checked<Tensor> neg_out_checked(Tensor& out, const Tensor& self);

}  // namespace sc::engine
