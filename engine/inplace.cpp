#include "engine/inplace.h"

#include <cmath>
#include <limits>

#include "engine/copy.h"
#include "engine/error.h"
#include "engine/kernels/kernels.h"
#include "engine/layout.h"
#include "engine/nan_choice.h"
#include "engine/overlap.h"
#include "engine/undefined.h"
#include "engine/undefined_claims.h"
#include "engine/version_profile.h"

namespace sc::engine {

namespace {

enum BinOp { kAdd, kSub, kMul, kDiv };

void bin_kernel(int op, const Tensor& out, const std::vector<Tensor>& in, std::vector<int64_t>* nan_choices) {
  static constexpr BinaryOp map[] = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div};
  kernels::binary(map[op], out, in[0], in[1], nan_choices);
}

void bump(const Tensor& self) { self.version().value += 1; }

Checked<Tensor> binary_inplace(const Tensor& self, const Operand& other, int op, bool float_op) {
  IterConfig config;
  config.promote_integer_to_float = float_op;
  config.wrapped_scalar_in_opmath = (op == kMul || op == kDiv) && since(Change::HalfScalarOpsInOpmath);
  Tensor out = self;
  Checked<Tensor> r = run_iterator_checked(&out, true, {Operand::of(self), other}, config, op, bin_kernel);
  if (!r.ok()) return std::move(r).failure();
  bump(self);
  return self;
}

DType operand_dtype(const Operand& o) { return o.is_scalar() ? wrapped_dtype(o.scalar) : o.tensor->dtype; }

// c10::Scalar's checked_convert names (DEFINE_TO in c10/core/Scalar.h).
const char* checked_name(DType d) {
  switch (d) {
    case DType::Bool: return "bool";
    case DType::UInt8: return "uint8_t";
    case DType::Int8: return "int8_t";
    case DType::Int16: return "int16_t";
    case DType::Int32: return "int";
    case DType::Int64: return "int64_t";
    case DType::Float16: return since(Change::CheckedConvertC10Names) ? "c10::Half" : "at::Half";
    case DType::BFloat16: return since(Change::CheckedConvertC10Names) ? "c10::BFloat16" : "at::BFloat16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
  }
  return "?";
}

// caffe2::TypeMeta names (clamp_'s message prints self.dtype()).
const char* type_meta_name(DType d) {
  switch (d) {
    case DType::Bool: return "bool";
    case DType::UInt8: return "unsigned char";
    case DType::Int8: return "signed char";
    case DType::Int16: return "short int";
    case DType::Int32: return "int";
    case DType::Int64: return "long int";
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
  }
  return "?";
}

struct Limits {
  double lo, hi;
};
Limits limits(DType d) {
  switch (d) {
    case DType::UInt8: return {0, 255};
    case DType::Int8: return {-128, 127};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: return {-2147483648.0, 2147483647.0};
    case DType::Int64: return {-9223372036854775808.0, 9223372036854775807.0};
    case DType::Float16: return {-65504.0, 65504.0};
    case DType::BFloat16: return {-3.3895313892515355e38, 3.3895313892515355e38};
    case DType::Float32: return {-3.4028234663852886e38, 3.4028234663852886e38};
    default: return {-INFINITY, INFINITY};
  }
}

}  // namespace

// c10::overflows<To, From> (c10/util/TypeCast.h), as checked_convert uses it:
//  - to bool: never (measured: fill_ 5 and 2.5 into bool give true);
//  - from a double: to a floating type, inf and NaN pass; to an integer, NaN
//    overflows; otherwise f < lowest or f > max;
//  - from an int64: to an unsigned type, v > max or (v < 0 and -v > max)
//    (so -1 -> uint8 is 255); otherwise v < lowest or v > max.
Checked<Scalar> convert_scalar_checked(const Scalar& value, DType dtype) {
  if (dtype == DType::Bool || value.is_bool()) return value;
  const Limits l = limits(dtype);
  bool overflow = false;
  if (value.is_floating()) {
    const double f = value.f;
    if (std::isinf(f) && is_floating(dtype)) overflow = false;
    else if (std::isnan(f)) overflow = !is_floating(dtype);
    // Change::FloatToIntOverflowsAtMaxPlusOne: into an integer dtype 2.15
    // refuses f >= max + 1 (255.5 -> uint8 converts to 255, 2^63 -> int64
    // raises), 1.13 f > max (INT64_MAX is 2^63 as a double: 2^63 went through).
    else if (!is_floating(dtype) && since(Change::FloatToIntOverflowsAtMaxPlusOne))
      overflow = f < l.lo || f >= l.hi + 1.0;
    else overflow = f < l.lo || f > l.hi;
  } else {
    const int64_t v = value.i;
    if (dtype == DType::UInt8) {
      overflow = v > 255 || (v < 0 && -static_cast<uint64_t>(v) > 255);
    } else if (dtype == DType::Int64) {
      overflow = false;
    } else {
      overflow = static_cast<double>(v) < l.lo || static_cast<double>(v) > l.hi;
    }
  }
  SC_CHECK_OR_RETURN(!overflow, "value cannot be converted to type ", checked_name(dtype), " without overflow");
  return value;
}

Scalar checked_scalar(const Scalar& value, DType dtype) {
  return convert_scalar_checked(value, dtype).value_or_throw();
}

Checked<Tensor> add_inplace_checked(const Tensor& self, const Operand& other) {
  return binary_inplace(self, other, kAdd, false);
}

Checked<Tensor> sub_inplace_checked(const Tensor& self, const Operand& other) {
  const DType od = operand_dtype(other);
  // Change::BoolNegSubNotImplemented: NotImplementedError since 2.14.
  const ErrorKind kind = since(Change::BoolNegSubNotImplemented) ? ErrorKind::NotImplementedError : ErrorKind::RuntimeError;
  if (self.dtype == DType::Bool && od == DType::Bool)
    return fail(kind, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                      "`logical_xor()` operator instead.");
  if (self.dtype == DType::Bool || od == DType::Bool)
    return fail(kind, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                      "invert a mask, use the `~` or `logical_not()` operator instead.");
  return binary_inplace(self, other, kSub, false);
}

Checked<Tensor> mul_inplace_checked(const Tensor& self, const Operand& other) {
  return binary_inplace(self, other, kMul, false);
}
Checked<Tensor> div_inplace_checked(const Tensor& self, const Operand& other) {
  return binary_inplace(self, other, kDiv, true);
}

Tensor add_(const Tensor& self, const Operand& other) { return add_inplace_checked(self, other).value_or_throw(); }
Tensor sub_(const Tensor& self, const Operand& other) { return sub_inplace_checked(self, other).value_or_throw(); }
Tensor mul_(const Tensor& self, const Operand& other) { return mul_inplace_checked(self, other).value_or_throw(); }
Tensor div_(const Tensor& self, const Operand& other) { return div_inplace_checked(self, other).value_or_throw(); }

// Change::ScalarFillReducedFloatUnchecked (2.x): fill_out sends a CPU tensor
// of one element to scalar_fill, whose conversion to float16/bfloat16 is not
// checked (measured on 2.15: full [] 1e10 dtype=float16 is inf, full [2] 1e10
// raises); every other case is Scalar::to<scalar_t>(), checked.
Checked<Scalar> fill_value_checked(const Tensor& self, const Scalar& value) {
  const bool reduced = self.dtype == DType::Float16 || self.dtype == DType::BFloat16;
  if (reduced && cached_numel(self) == 1 && self.device() == Device::CPU &&
      since(Change::ScalarFillReducedFloatUnchecked))
    return value;
  return convert_scalar_checked(value, self.dtype);
}

Scalar fill_value(const Tensor& self, const Scalar& value) { return fill_value_checked(self, value).value_or_throw(); }

namespace {

// Writes v into every element of `target` and bumps self's version.
Tensor fill_elements(const Tensor& self, const Tensor& target, const Scalar& v) {
  WriteScope write_scope;  // the claims of this write (engine/undefined_claims.h)
  kernels::fill(target, v);
  account_write(target, {}, true);
  write_scope.done(target);
  bump(self);
  return self;
}

// LibTorch's numel() and the sizes disagree only for a stale numel (Note
// [stale layout flags]).
Tensor scalar_fill_target(const Tensor& self) {
  if (self.device() != Device::CPU || cached_numel(self) != 1 || self.numel() == 1) return self;
  Tensor one = self;
  one.sizes = {};
  one.strides = {};
  one.stale_numel.reset();
  one.stale_layout.reset();
  return one;
}

}  // namespace

// fill_out: no overlap check (fill is idempotent); the value is
// Scalar::to<scalar_t>() (checked). A CPU self whose numel() is 1 goes to
// at::detail::scalar_fill, which writes one element at data_ptr(); anything
// else to a TensorIterator over the sizes. They part only where numel() is
// stale: sizes [2,-1,0] (no element) left by a failed out= resize of a
// one-element tensor still count 1, and LibTorch writes the element at the
// storage offset (1.13 and 2.15 alike; generated seed 90300189,
// corpus/regressions/fill_stale_numel_one.prog).
Checked<Tensor> fill_checked(const Tensor& self, const Scalar& value) {
  Scalar v;
  SC_TRY_ASSIGN(v, fill_value_checked(self, value));
  return fill_elements(self, scalar_fill_target(self), v);
}

Tensor fill_(const Tensor& self, const Scalar& value) { return fill_checked(self, value).value_or_throw(); }

// at::zero_: a CPU self that is non-overlapping and dense (the cached flag)
// with fewer than GRAIN_SIZE (32768) elements, counted as the product of its
// sizes, is memset from data_ptr() (zero_cpu_: those elements, none for a
// product <= 0); anything else is fill_(0), with fill_out's scalar_fill.
Tensor zero_(const Tensor& self) {
  const Scalar zero = Scalar::integer(0);
  if (self.device() == Device::CPU && is_non_overlapping_and_dense(self) && self.numel() < 32768)
    return fill_elements(self, self, zero);
  return fill_(self, zero);
}

namespace {
// Whether Scalar::to<to>() (checked_convert, as checked_scalar models it) can
// raise for some value of dtype `from`: to or from bool never; a floating
// value into an integral dtype (NaN, huge) always; otherwise when from's
// finite range exceeds to's (inf and NaN pass between floating dtypes; uint8
// takes [-255, 255]; int64 takes every integer).
bool conversion_can_raise(DType from, DType to) {
  if (to == DType::Bool || from == DType::Bool) return false;
  const Limits f = limits(from);
  if (is_floating(from)) return !is_floating(to) || f.hi > limits(to).hi;
  if (to == DType::UInt8) return f.lo < -255 || f.hi > 255;
  if (to == DType::Int64) return false;
  const Limits t = limits(to);
  return f.lo < t.lo || f.hi > t.hi;
}

bool element_undefined(const Tensor& t) {
  if (!t.storage->has_undefined_bytes()) return false;
  const auto& m = t.storage->undefined_mask();
  const int64_t item = itemsize(t.dtype), lo = t.storage_offset * item;
  for (int64_t b = lo; b < lo + item; ++b)
    if (m[static_cast<size_t>(b)]) return true;
  return false;
}
}  // namespace

std::optional<std::string> fill_outcome_undefined(const Tensor& self, const Tensor& value) {
  if (since(Change::FillTensorValueIsCopy)) return std::nullopt;  // copy_ converts unchecked: it never raises
  if (value.dim() != 0 || !element_undefined(value) || !conversion_can_raise(value.dtype, self.dtype))
    return std::nullopt;
  return str_cat("fill_ with a value whose bytes are undefined (LibTorch reads uninitialised memory): whether "
                 "converting it to ", dtype_name(self.dtype), " raises an overflow error depends on that garbage");
}

// fill_(Tensor): "fill_ only supports 0-dimension value tensor but got tensor
// with 1 dimensions."; then 1.13: fill_(value.item()) (measured: checked
// conversion); 2.2+ (Change::FillTensorValueIsCopy): self.copy_(value), with
// the value cloned first when it shares self's storage (is_alias_of) -- copy_'s
// overlap checks and its unchecked conversion.
Checked<Tensor> fill_checked(const Tensor& self, const Tensor& value) {
  SC_CHECK_OR_RETURN(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
                     value.dim(), " dimensions.");
  if (since(Change::FillTensorValueIsCopy))
    return copy_checked(self, value.storage == self.storage ? clone(value) : value);
  std::byte p[8];  // the element, read back from its device
  value.storage->read(value.storage_offset * itemsize(value.dtype), itemsize(value.dtype), p);
  Scalar item;
  if (value.dtype == DType::Bool) item = Scalar::boolean(load_int(value.dtype, p) != 0);
  else if (is_floating(value.dtype)) item = Scalar::floating(load_double(value.dtype, p));
  else item = Scalar::integer(load_int(value.dtype, p));
  WriteScope write_scope;
  std::vector<int64_t> undefined = elements_reading_undefined(self, value);  // an undefined value fills garbage
  // a value whose NaN bits were LibTorch's loop's choice fills those bits
  // (Note [NaN operand choice]; generated seed 90823806 on 2.0.1)
  std::vector<int64_t> nan_choice = elements_reading_nan_choice(self, value);
  if (Checked<Tensor> filled = fill_checked(self, item); !filled.ok()) return std::move(filled).failure();
  mark_elements_undefined(self, undefined);
  mark_nan_choice(self, nan_choice);
  write_scope.done(self);
  return self;
}

Tensor fill_(const Tensor& self, const Tensor& value) { return fill_checked(self, value).value_or_throw(); }

// clamp meta (1.13): neither bound -> error; for a non-floating self the
// result type of (self, min, max) must be self's dtype ("result type Float
// can't be cast to the desired output type long int", TypeMeta names); then
// a unary TensorIterator (overlap checks); both bounds with a NaN -> fill NaN;
// the kernels (clamp_scalar_cpu, clamp_min_cpu, clamp_max_scalar_cpu) are not
// built for Half; bounds are Scalar::to<scalar_t>() (checked).
Checked<Tensor> clamp_checked(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  SC_CHECK_OR_RETURN(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  if (!is_floating(self.dtype)) {
    std::vector<Operand> ops{Operand::of(self)};
    if (min) ops.push_back(Operand::of(*min));
    if (max) ops.push_back(Operand::of(*max));
    DType rt = result_type(ops);
    SC_CHECK_OR_RETURN(rt == self.dtype, "result type ", torch_scalar_type_name(rt),
                       " can't be cast to the desired output type ", type_meta_name(self.dtype));
  }
  SC_TRY(internal_overlap_failure(self));
  auto is_nan = [](const std::optional<Scalar>& s) { return s && s->is_floating() && std::isnan(s->f); };
  // Change::ClampNanSingleBound: one NaN bound is enough since 2.x.
  if ((min && max) || since(Change::ClampNanSingleBound)) {
    if (is_nan(min) || is_nan(max))
      return fill_checked(self, Scalar::floating(std::numeric_limits<double>::quiet_NaN()));
  }
  std::optional<Scalar> min_b = min, max_b = max;
  if (since(Change::ClampIntegerBoundsSaturate) && !is_floating(self.dtype) && self.dtype != DType::Bool) {
    // An integer bound past the dtype's range: min above it or max below it
    // raises; otherwise the bound saturates to the range.
    const Limits l = limits(self.dtype);
    auto value = [](const Scalar& s) { return static_cast<double>(s.i); };
    if (min && min->is_integral()) {
      SC_CHECK_OR_RETURN(value(*min) <= l.hi, "Clamp min value ", value(*min),
                         " is outside the representable range of ", torch_scalar_type_name(self.dtype));
      if (value(*min) < l.lo) min_b = Scalar::integer(static_cast<int64_t>(l.lo));
    }
    if (max && max->is_integral()) {
      SC_CHECK_OR_RETURN(value(*max) >= l.lo, "Clamp max value ", value(*max),
                         " is outside the representable range of ", torch_scalar_type_name(self.dtype));
      if (value(*max) > l.hi) max_b = Scalar::integer(static_cast<int64_t>(l.hi));
    }
  }
  // The CPU kernels dispatch AT_DISPATCH_ALL_TYPES_AND(kBFloat16, ...): Bool
  // and Half raise "\"<kernel>\" not implemented for 'Bool'", also for an
  // empty self (the dispatch runs before the loop). The kernel names are
  // clamp_scalar_cpu (both bounds), clamp_max_scalar_cpu (max only) and
  // clamp_min_cpu (min only; measured, not clamp_min_scalar_cpu). A Bool self
  // reaches this only with bool bounds (any other bound promotes and raises
  // above), so its NaN-fill path cannot be taken. The CUDA kernels dispatch
  // AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, ...) as clamp_scalar_cuda,
  // clamp_max_scalar_cuda and clamp_min_scalar_cuda (TensorCompare.cu; not
  // yet measured on a GPU): only Bool raises there. Since 2.x the CPU kernels
  // take Half too (Change::ClampHalfSupported) and min only is
  // clamp_min_scalar_cpu (Change::ClampScalarKernelNames).
  const bool cuda = self.device() == Device::CUDA;
  if ((self.dtype == DType::Float16 && !cuda && !since(Change::ClampHalfSupported)) || self.dtype == DType::Bool) {
    const char* min_only_cpu = since(Change::ClampScalarKernelNames) ? "clamp_min_scalar_cpu" : "clamp_min_cpu";
    const char* name = cuda ? (min && max ? "clamp_scalar_cuda" : max ? "clamp_max_scalar_cuda" : "clamp_min_scalar_cuda")
                            : (min && max ? "clamp_scalar_cpu" : max ? "clamp_max_scalar_cpu" : min_only_cpu);
    return fail(dtype_dispatch_error_kind(), "\"", name, "\" not implemented for '",
                self.dtype == DType::Bool ? "Bool" : "Half", "'");
  }
  std::optional<Scalar> lo, hi;
  if (min_b) SC_TRY_ASSIGN(lo, convert_scalar_checked(*min_b, self.dtype));
  if (max_b) SC_TRY_ASSIGN(hi, convert_scalar_checked(*max_b, self.dtype));
  WriteScope write_scope;
  kernels::clamp(self, self, lo, hi);
  account_write(self, {&self}, true);  // reads self: undefined elements stay undefined
  write_scope.done(self);
  bump(self);
  return self;
}

Tensor clamp_(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_checked(self, min, max).value_or_throw();
}

// copy_ (Copy.cpp copy_impl), in 1.13's order (measured): the very same
// tensor object -> nothing to do; else a TensorIterator with self as output
// (no resize): internal overlap of self (x.expand(2,3).copy_(x.expand(2,3))
// raises), partial overlap with src, broadcast src to self ("output with shape
// [3] doesn't match the broadcast shape [2, 3]"), convert. 1.13 has no "same
// data" early exit (added later): a copy between two views of the very same
// data still runs the kernel (measured: b = x.view(bool); b.copy_(b.detach())
// rewrites a bool byte 128 as 1).
// Since 2.x (Change::CopySameDataEarlyExit) copy_impl returns first when self
// and src are the same data: same storage, offset, sizes, strides and dtype.
//
// Change::CopyFloatHalfSkipsOverlapChecks: first of all, a float32 <-> float16
// copy between CPU tensors of the same sizes, both contiguous (or self dense
// with src's strides), is fbgemm's conversion with no check at all. Where src
// overlaps self: Note [copy_'s fbgemm path over its own source].
namespace {
bool fbgemm_float_half_copy(const Tensor& self, const Tensor& src) {
  if (!since(Change::CopyFloatHalfSkipsOverlapChecks)) return false;
  const bool pair = (self.dtype == DType::Float32 && src.dtype == DType::Float16) ||
                    (self.dtype == DType::Float16 && src.dtype == DType::Float32);
  if (!pair || self.device() != Device::CPU || src.device() != Device::CPU || self.sizes != src.sizes) return false;
  return (is_contiguous(self) && is_contiguous(src)) ||
         (is_non_overlapping_and_dense(self) && self.strides == src.strides);
}
}  // namespace

// Note [copy_'s fbgemm path over its own source]: fbgemm converts float32 <->
// float16 in memory order, a vector of 16 or 8 elements at a time (each read
// whole before it is written), the tail one by one. Element k (both tensors
// dense with the same order: byte d + k * ds of self, s + k * ss of src)
// reads its source before any element writes it, unless an earlier element's
// write [d, d + k * ds) reaches its bytes [s + k * ss, s + (k + 1) * ss): what
// those read depends on the vector width, so they are undefined; every other
// element is the conversion of the source as it was.
namespace {
void fbgemm_copy_over_own_source(const Tensor& self, const Tensor& src) {
  WriteScope write_scope;
  const std::vector<int64_t> undefined = elements_reading_undefined(self, src);
  const std::vector<int64_t> nan_choice = elements_reading_nan_choice(self, src);  // Note [NaN operand choice]
  // the source as it was, on a storage of its own (no claims: not a write)
  Tensor before = src;
  before.storage = Storage::allocate(src.storage->nbytes(), Device::CPU);
  before.storage->write(0, src.storage->nbytes(), src.storage->data());
  kernels::copy(self, before);
  const int64_t n = self.numel(), ds = itemsize(self.dtype), ss = itemsize(src.dtype);
  const int64_t d = self.storage_offset * ds, s = src.storage_offset * ss;
  self.storage->mark_defined(d, n * ds);
  mark_elements_undefined(self, undefined);
  // What self held before is gone, its chosen NaNs too: only the converted
  // chosen NaNs of src are chosen now (the other path's account_write does
  // the same; without it a float32 chosen NaN overwritten by a float16 number
  // stayed flagged: CI's generated sample, seed 20286462).
  clear_nan_choice(self);
  mark_nan_choice(self, nan_choice);
  std::vector<int64_t> marked;
  for (int64_t k = 0; k < n; ++k)
    if (s + k * ss < d + k * ds && s + (k + 1) * ss > d) marked.push_back(d + k * ds);
  mark_elements_undefined(self, marked);
  if (!marked.empty())
    note_undefined(str_cat("copy_'s float32/float16 fast path (no overlap check) reads ", marked.size(),
                           " elements of its source after an earlier element overwrote them: their values depend "
                           "on fbgemm's vector width"));
  if (claims_recorded())
    record_claim({.kind = UndefinedClaim::Kind::InputReadInMemoryOrder,
                  .written = geometry_of(self),
                  .input = geometry_of(src),
                  .marked = std::move(marked)});
  write_scope.done(self);
}
}  // namespace

// Note [copy_'s fbgemm count]: copy_impl's fbgemm path converts
// self.numel() elements from src.data_ptr() to self.data_ptr(), in memory
// order, whatever the sizes say: the count LibTorch caches, which a failed
// out= resize leaves stale (Note [stale layout flags], engine/tensor.h). Two
// 0-d tensors whose resizes to [2,-1,0,0] raised (cached numel 1, cached
// contiguous) have no element by their sizes, and 2.15 converts one
// (generate-sample seed 20300273; corpus/regressions/copy_fbgemm_stale_numel.prog).
// The two runs of that many elements, when the cached count is not the
// sizes' (nullopt otherwise); a run past its storage is refused, as LibTorch
// would read or write outside it.
namespace {
struct FlatPair {
  Tensor self, src;
};
std::optional<FlatPair> fbgemm_cached_count(const Tensor& self, const Tensor& src) {
  const int64_t n = cached_numel(self);
  if (n == self.numel()) [[likely]]
    return std::nullopt;
  auto flat = [&](const Tensor& t) {
    Tensor f = t;
    f.sizes = Shape{std::max<int64_t>(n, 0)};
    f.strides = Shape{1};
    f.stale_numel.reset();
    f.stale_layout.reset();
    const __int128 end = (static_cast<__int128>(f.storage_offset) + f.sizes[0]) * itemsize(t.dtype);
    if (f.sizes[0] > 0 && end > t.storage->nbytes())
      throw StepRefused(str_cat("stridecheck engine: not run: copy_'s fbgemm path would convert ", n,
                                " elements (the cached numel) past the end of a storage of ", t.storage->nbytes(),
                                " bytes (Note [copy_'s fbgemm count])"));
    return f;
  };
  return FlatPair{flat(self), flat(src)};
}
}  // namespace

Checked<Tensor> copy_checked(const Tensor& self, const Tensor& src) {
  const bool same_data = since(Change::CopySameDataEarlyExit) && self.storage == src.storage &&
                         self.storage_offset == src.storage_offset && self.sizes == src.sizes &&
                         self.strides == src.strides && self.dtype == src.dtype;
  const bool fbgemm = fbgemm_float_half_copy(self, src);
  if (self.id != src.id && !same_data) {
    if (!fbgemm) {
      SC_TRY(internal_overlap_failure(self));
      SC_TRY(partial_overlap_failure(self, src));
    }
    Shape shape;
    SC_TRY_ASSIGN(shape, broadcast_shapes_checked(self.sizes, src.sizes));
    SC_CHECK_OR_RETURN(shape == self.sizes, "output with shape ", shape_str(self.sizes),
                       " doesn't match the broadcast shape ", shape_str(shape));
    const std::optional<FlatPair> flat = fbgemm ? fbgemm_cached_count(self, src) : std::nullopt;
    const Tensor& to = flat ? flat->self : self;  // Note [copy_'s fbgemm count]
    const Tensor& from = flat ? flat->src : src;
    if (fbgemm && to.numel() > 0 && to.storage == from.storage && exact_overlap(to, from) != MemOverlap::No) {
      fbgemm_copy_over_own_source(to, from);
    } else if (to.numel() > 0) {
      // Elements read from undefined bytes, found before the write (src may be self's very bytes).
      WriteScope write_scope;
      std::vector<int64_t> undefined = elements_reading_undefined(to, from);
      // LibTorch's copy kernel unless copy_impl's fbgemm path (Note [NaN bits of LibTorch's loops]).
      if (!fbgemm && to.device() == Device::CPU && from.device() == Device::CPU && from.sizes != to.sizes)
        cpu::copy_broadcast(to, broadcast_header(from, to.sizes));
      else if (!fbgemm && to.device() == Device::CPU && from.device() == Device::CPU)
        cpu::copy_kernel_only(to, broadcast_header(from, to.sizes));
      else
        kernels::copy(to, broadcast_header(from, to.sizes));
      account_write(to, {&from}, false);
      mark_elements_undefined(to, undefined);
      write_scope.done(to);
    }
  }
  bump(self);
  return self;
}

Tensor copy_(const Tensor& self, const Tensor& src) { return copy_checked(self, src).value_or_throw(); }

}  // namespace sc::engine
