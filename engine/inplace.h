#pragma once
// In-place ops: they write through `self` (any view), bump the shared version
// counter once when they succeed (ADInplaceOrView's increment_version runs
// after the kernel returns, so an op that raises leaves it alone), and return
// self (the same object). Checks and messages are LibTorch 1.13's.
#include <optional>
#include <string>

#include "engine/elementwise.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine {

Tensor add_(const Tensor& self, const Operand& other);
// sub_check: "Subtraction, the `-` operator, with a bool tensor is not supported. ..."
Tensor sub_(const Tensor& self, const Operand& other);
Tensor mul_(const Tensor& self, const Operand& other);
// true division: integer self raises "result type Float can't be cast to the desired output type Long".
Tensor div_(const Tensor& self, const Operand& other);
// add_, sub_, mul_, div_ with their errors returned (Note [errors returned, not thrown]).
Checked<Tensor> add_inplace_checked(const Tensor& self, const Operand& other);
Checked<Tensor> sub_inplace_checked(const Tensor& self, const Operand& other);
Checked<Tensor> mul_inplace_checked(const Tensor& self, const Operand& other);
Checked<Tensor> div_inplace_checked(const Tensor& self, const Operand& other);
Tensor zero_(const Tensor& self);
// fill_(Scalar): value checked-converted ("value cannot be converted to type
// int8_t without overflow"); no overlap check (fill is idempotent).
Tensor fill_(const Tensor& self, const Scalar& value);
// fill_(Tensor): the value must be 0-d; 1.13 fills its item() as a Scalar, 2.2+
// copies it (Change::FillTensorValueIsCopy).
Tensor fill_(const Tensor& self, const Tensor& value);
// Why fill_(self, value)'s outcome is undefined, if it is: a 0-d value whose
// bytes are undefined (garbage in LibTorch) in a dtype where some value would
// raise the checked conversion's overflow error. The backend refuses such a step.
std::optional<std::string> fill_outcome_undefined(const Tensor& self, const Tensor& value);
// clamp_(min, max): "torch.clamp: At least one of 'min' or 'max' must not be None".
Tensor clamp_(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
// copy_(src): broadcasts src to self and converts its dtype.
Tensor copy_(const Tensor& self, const Tensor& src);

// c10::Scalar::to<T>() for the dtype: checked_convert, raising "value cannot
// be converted to type <name> without overflow". Returns the value as a Scalar
// of the kind the kernels store exactly.
Scalar checked_scalar(const Scalar& value, DType dtype);
// The value fill_ writes into self: checked_scalar, except where the profile
// says LibTorch skips the check (Change::ScalarFillReducedFloatUnchecked).
Scalar fill_value(const Tensor& self, const Scalar& value);
// The same with their errors returned (Note [errors returned, not thrown]).
Checked<Tensor> fill_checked(const Tensor& self, const Scalar& value);
Checked<Tensor> fill_checked(const Tensor& self, const Tensor& value);
Checked<Tensor> clamp_checked(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
Checked<Tensor> copy_checked(const Tensor& self, const Tensor& src);
Checked<Scalar> convert_scalar_checked(const Scalar& value, DType dtype);
Checked<Scalar> fill_value_checked(const Tensor& self, const Scalar& value);

}  // namespace sc::engine
