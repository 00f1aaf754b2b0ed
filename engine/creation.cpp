#include "engine/creation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "engine/error.h"
#include "engine/half.h"
#include "engine/inplace.h"
#include "engine/kernels/cpu/half_convert.h"
#include "engine/kernels/kernels.h"
#include "engine/layout.h"
#include "engine/version_profile.h"
#include "engine/views.h"

namespace sc::engine {

MaybeFailure factory_sizes_failure(const Shape& sizes) {
  for (int64_t s : sizes) {
    if (s < 0) {
      std::string list = "[";
      for (size_t i = 0; i < sizes.size(); ++i) list += (i ? ", " : "") + std::to_string(sizes[i]);
      return fail(ErrorKind::RuntimeError, "Trying to create tensor with negative dimension ", s, ": ", list, "]");
    }
  }
  return std::nullopt;
}

void check_factory_sizes(const Shape& sizes) { throw_if(factory_sizes_failure(sizes)); }

MaybeFailure int_list_empty_sizes_failure(const Shape& sizes) {
  SC_TRY(symint_list_failure(sizes));
  return factory_sizes_failure(sizes);
}

// The contents of a host-built fresh tensor on `device` (the values LibTorch's
// device kernels compute for arange and friends are the same integers).
Tensor moved_to(const Tensor& host, Device device) {
  if (device == Device::CPU) return host;
  Tensor t = host;
  t.storage = Storage::allocate(host.storage->nbytes(), device);
  t.storage->write(0, host.storage->nbytes(), host.storage->data());
  return t;
}

namespace {
// Storage::allocate, or allocate_unfilled for a creation op whose own loop
// writes every byte next (Note [Poisoned fresh storage]).
using Allocate = std::shared_ptr<Storage> (*)(int64_t, Device);

// at::empty: sizes checked, then computeStorageNbytesContiguous's overflow
// check, before anything is allocated.
Checked<Tensor> empty_checked_with(const Shape& sizes, DType dtype, Device device, Allocate allocate) {
  SC_TRY(factory_sizes_failure(sizes));
  int64_t nbytes = 0;
  SC_TRY_ASSIGN(nbytes, compute_storage_nbytes_contiguous_checked(sizes, itemsize(dtype)));
  SC_TRY(contiguous_stride_failure(sizes));
  return make_tensor(allocate(nbytes, device), sizes, contiguous_strides(sizes), 0, dtype);
}

// at::empty_strided: sizes checked, then computeStorageNbytes's overflow check.
Checked<Tensor> empty_strided_checked_with(const Shape& sizes, const Shape& strides, DType dtype, Device device,
                                           Allocate allocate) {
  SC_TRY(factory_sizes_failure(sizes));
  // measured (1.13): the length check comes before the storage size check
  SC_CHECK_OR_RETURN(sizes.size() == strides.size(), "dimensionality of sizes (", sizes.size(),
                     ") must match dimensionality of strides (", strides.size(), ")");
  StridedLayout layout;
  SC_TRY_ASSIGN(layout, strided_layout_checked(sizes, strides, dtype));
  return make_tensor(allocate(layout.nbytes, device), sizes, std::move(layout.strides), 0, dtype);
}
}  // namespace

Checked<Tensor> empty_checked(const Shape& sizes, DType dtype, Device device) {
  return empty_checked_with(sizes, dtype, device, &Storage::allocate);
}

Tensor empty(const Shape& sizes, DType dtype, Device device) { return empty_checked(sizes, dtype, device).value_or_throw(); }

Checked<Tensor> empty_strided_checked(const Shape& sizes, const Shape& strides, DType dtype, Device device) {
  return empty_strided_checked_with(sizes, strides, dtype, device, &Storage::allocate);
}

Tensor empty_strided(const Shape& sizes, const Shape& strides, DType dtype, Device device) {
  return empty_strided_checked(sizes, strides, dtype, device).value_or_throw();
}

Checked<StridedLayout> strided_layout_checked(const Shape& sizes, const Shape& strides, DType dtype) {
  SC_TRY(factory_sizes_failure(sizes));
  StridedLayout layout;
  SC_TRY_ASSIGN(layout.nbytes, compute_storage_nbytes_checked(sizes, strides, itemsize(dtype)));
  layout.strides = set_sizes_and_strides_strides(sizes, strides);
  SC_TRY(numel_failure(sizes));
  return layout;
}

StridedLayout checked_strided_layout(const Shape& sizes, const Shape& strides, DType dtype) {
  return strided_layout_checked(sizes, strides, dtype).value_or_throw();
}

// empty_strided for a result whose every element is written next (the
// iterator's outputs, repeat, flip): the same checks and stride rule.
Checked<Tensor> empty_strided_for_overwrite_checked(const Shape& sizes, const Shape& strides, DType dtype,
                                                   Device device) {
  StridedLayout layout;
  SC_TRY_ASSIGN(layout, strided_layout_checked(sizes, strides, dtype));
  SC_ASSERT(is_non_overlapping_and_dense(sizes, layout.strides) || layout.nbytes == 0,
            "empty_strided_for_overwrite of a tensor with gaps");
  return make_tensor(Storage::allocate_for_overwrite(layout.nbytes, device), sizes, std::move(layout.strides), 0,
                     dtype);
}

Tensor empty_strided_for_overwrite(const Shape& sizes, const Shape& strides, DType dtype, Device device) {
  return empty_strided_for_overwrite_checked(sizes, strides, dtype, device).value_or_throw();
}

namespace {
// store_int(dtype, p + k * itemsize, k) for k in [0, n), the dtype's switch
// taken once instead of per element: the same conversions as store_int's.
// The counter is an int32 where every k fits: the same numbers, and a loop
// the compiler vectorises (x86 has no packed int64 -> float conversion
// before AVX-512).
// Blocks of 8 elements with a constant trip count: the default build's
// -O2 vectorises those (its cost model leaves a loop of unknown length
// scalar): 1.05 -> 0.32 M instructions per 64 generated programs (callgrind).
template <class T, class Convert>
void iota_as(std::byte* p, int64_t n, Convert convert) {
  if (n <= std::numeric_limits<int32_t>::max()) {
    const int32_t n32 = static_cast<int32_t>(n);
    int32_t k = 0;
    for (; k <= n32 - 8; k += 8) {  // (k + 8 could wrap near INT32_MAX)
      T block[8];
      for (int32_t j = 0; j < 8; ++j) block[j] = convert(k + j);
      std::memcpy(p + static_cast<int64_t>(k) * static_cast<int64_t>(sizeof(T)), block, sizeof block);
    }
    for (; k < n32; ++k) {
      const T v = convert(k);
      std::memcpy(p + static_cast<int64_t>(k) * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
    }
    return;
  }
  for (int64_t k = 0; k < n; ++k) {
    const T v = convert(k);
    std::memcpy(p + k * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
  }
}

void store_iota(std::byte* p, int64_t n, DType dtype) {
  switch (dtype) {
    case DType::Bool: return iota_as<uint8_t>(p, n, [](auto k) { return static_cast<uint8_t>(k != 0 ? 1 : 0); });
    case DType::UInt8: return iota_as<uint8_t>(p, n, [](auto k) { return static_cast<uint8_t>(k); });
    case DType::Int8: return iota_as<int8_t>(p, n, [](auto k) { return static_cast<int8_t>(k); });
    case DType::Int16: return iota_as<int16_t>(p, n, [](auto k) { return static_cast<int16_t>(k); });
    case DType::Int32: return iota_as<int32_t>(p, n, [](auto k) { return static_cast<int32_t>(k); });
    case DType::Int64: return iota_as<int64_t>(p, n, [](auto k) { return k; });
    case DType::Float16:
      return iota_as<uint16_t>(p, n, [](auto k) { return float_to_half(static_cast<float>(k)); });
    case DType::BFloat16:
      return iota_as<uint16_t>(p, n, [](auto k) { return float_to_bfloat16(static_cast<float>(k)); });
    case DType::Float32: return iota_as<float>(p, n, [](auto k) { return static_cast<float>(k); });
    case DType::Float64: return iota_as<double>(p, n, [](auto k) { return static_cast<double>(k); });
  }
}
}  // namespace

void fill_storage_iota(Storage& storage, DType dtype) {
  SC_ASSERT(storage.device() == Device::CPU);
  store_iota(storage.data(), storage.nbytes() / itemsize(dtype), dtype);
}

namespace {
// Note [arange's vectorized loop] (RangeFactoriesKernel.cpp, 1.13): the CPU
// kernel writes 2 vectors of V = 32 bytes / itemsize lanes at a time while
// 2V elements remain, the rest one by one. A vector starting at index i holds
// T(acc(T(acc(i))) + k) for lane k: the base is rounded to the dtype first,
// then each lane adds k in the accumulation type (float for float16 and
// bfloat16, double for float32) and rounds again. Past a reduced float's
// exact integer range this differs from rounding i + k once (measured:
// arange(4128, bfloat16)[4113] is 4096, not 4128). Integer dtypes are exact
// (int64 arithmetic, wrapped on the store).
// The loop below for float16 and bfloat16 (acc float), typed: the same
// conversions as its store_double/load_double calls, without their switch
// per element (callgrind, 64 generated programs: arange 0.65 -> 0.27 M).
// Each vector's lanes are computed as floats and rounded in runs of up to
// 256 by the CPU's conversion loop (kernels/cpu/half_convert.h: the scalar
// conversions' results; there are no NaNs here): 0.34 M fewer instructions
// per 64 fuzz programs (issue 10).
struct HalfBits {
  static uint16_t to(float f) { return float_to_half(f); }
  static float from(uint16_t b) { return half_to_float(b); }
  static void run(uint16_t* dst, const float* src, int64_t n) { cpu::float_to_half_run(dst, src, n); }
};
struct BFloat16Bits {
  static uint16_t to(float f) { return float_to_bfloat16(f); }
  static float from(uint16_t b) { return bfloat16_to_float(b); }
  static void run(uint16_t* dst, const float* src, int64_t n) { cpu::float_to_bfloat16_run(dst, src, n); }
};
template <class Bits>
void arange_fill_reduced(std::byte* p, int64_t n) {
  constexpr int64_t lanes = 16;  // 32 bytes of 2-byte elements
  constexpr int64_t kRun = 16 * lanes;
  auto rounded = [](int64_t i) { return Bits::from(Bits::to(static_cast<float>(static_cast<double>(i)))); };
  const int64_t vectors_end = n / (2 * lanes) * (2 * lanes);  // two vectors at a time while 2V elements remain
  float values[kRun];
  uint16_t bits[kRun];
  int64_t i = 0;
  while (i < vectors_end) {
    const int64_t m = std::min(kRun, vectors_end - i);  // a multiple of lanes
    for (int64_t v = 0; v < m; v += lanes) {
      const float base = rounded(i + v);
      for (int64_t k = 0; k < lanes; ++k) values[v + k] = base + static_cast<float>(k);
    }
    Bits::run(bits, values, m);
    std::memcpy(p + i * 2, bits, static_cast<size_t>(m) * 2);
    i += m;
  }
  for (; i < n; ++i) {
    const uint16_t b = Bits::to(rounded(i));
    std::memcpy(p + i * 2, &b, 2);
  }
}

void arange_fill(Storage& storage, DType dtype) {
  const int64_t item = itemsize(dtype);
  const int64_t n = storage.nbytes() / item;
  std::byte* p = storage.data();
  // Every index below the dtype's exact-integer bound (2^24 float32, 2^11
  // float16, 2^8 bfloat16) survives both roundings unchanged: below it the
  // vector loop writes T(k) for element k, as store_int does.
  const int64_t exact = dtype == DType::Float32 ? (int64_t{1} << 24) : dtype == DType::Float16 ? 2048 : 256;
  if (!is_floating(dtype) || dtype == DType::Float64 || n <= exact) {
    store_iota(p, n, dtype);
    return;
  }
  if (dtype == DType::Float16) return arange_fill_reduced<HalfBits>(p, n);
  if (dtype == DType::BFloat16) return arange_fill_reduced<BFloat16Bits>(p, n);
  const bool acc_float = dtype != DType::Float32;  // acc_type<Half/BFloat16> = float; <float> = double
  auto round_to_dtype = [&](double v) {  // T(v), read back as double
    std::byte tmp[8];
    store_double(dtype, tmp, acc_float ? static_cast<double>(static_cast<float>(v)) : v);
    return load_double(dtype, tmp);
  };
  const int64_t lanes = 32 / item;
  auto vector_at = [&](int64_t start) {
    const double base = round_to_dtype(static_cast<double>(start));
    for (int64_t k = 0; k < lanes; ++k) {
      const double v = acc_float ? static_cast<double>(static_cast<float>(base) + static_cast<float>(k))
                                 : base + static_cast<double>(k);
      store_double(dtype, p + (start + k) * item, acc_float ? static_cast<double>(static_cast<float>(v)) : v);
    }
  };
  int64_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    vector_at(i);
    vector_at(i + lanes);
  }
  for (; i < n; ++i) store_double(dtype, p + i * item, round_to_dtype(static_cast<double>(i)));
}
}  // namespace

int64_t arange_size(int64_t end) {
  const double size_d = std::ceil(static_cast<double>(end));
  // static_cast<int64_t>(2^63) on x86: INT64_MIN (LibTorch's own cast, measured)
  if (size_d >= 9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(size_d);
}

// at::arange(end) = arange_out(empty({0}), 0, end, 1): the kernel is
// dispatched over AT_DISPATCH_ALL_TYPES_AND2(Half, BFloat16) first (no bool;
// the dispatch is named arange_cpu / arange_cuda; measured with 1.13: arange
// -5 bool names the dtype), then the sign check, then resize_({size}): the C++
// API's SymInt check, then the storage size check. The CUDA kernel computes
// each element once, so only the CPU values follow Note [arange's vectorized loop].
Checked<Tensor> arange_checked(int64_t end, DType dtype, Device device) {
  if (dtype == DType::Bool)
    return fail(dtype_dispatch_error_kind(), "\"", device == Device::CUDA ? "arange_cuda" : "arange_cpu",
                "\" not implemented for 'Bool'");
  SC_CHECK_OR_RETURN(end >= 0, "upper bound and ", since(Change::ArangeBoundMessage) ? "lower" : "larger",
                     " bound inconsistent with step sign");
  const int64_t size = arange_size(end);
  SC_TRY(symint_list_failure({size}));
  Tensor t;  // every element written below
  SC_TRY_ASSIGN(t, empty_checked_with({size}, dtype, Device::CPU, &Storage::allocate_unfilled));
  if (device == Device::CPU) arange_fill(*t.storage, dtype);
  else fill_storage_iota(*t.storage, dtype);
  return moved_to(t, device);
}

Tensor arange(int64_t end, DType dtype, Device device) { return arange_checked(end, dtype, device).value_or_throw(); }

// The C++ API converts the size list to SymInts first (check_symint_list).
Checked<Tensor> zeros_checked(const Shape& sizes, DType dtype, Device device) {
  SC_TRY(symint_list_failure(sizes));
  if (since(Change::ZerosChecksSizes))
    for (int64_t s : sizes) SC_CHECK_OR_RETURN(s >= 0, "zeros: Dimension size must be non-negative.");
  return empty_checked(sizes, dtype, device);
}

Tensor zeros(const Shape& sizes, DType dtype, Device device) { return zeros_checked(sizes, dtype, device).value_or_throw(); }

Checked<Tensor> ones_checked(const Shape& sizes, DType dtype, Device device) {
  return full_checked(sizes, Scalar::integer(1), dtype, device);
}

Tensor ones(const Shape& sizes, DType dtype, Device device) { return ones_checked(sizes, dtype, device).value_or_throw(); }

// at::full = empty(size) (SymInt, size and storage size checks), then
// fill_(value): the value is checked-converted (measured: full([2], 2.7, long)
// is [2, 2]; 300 into uint8 raises "value cannot be converted to type uint8_t
// without overflow"; -1 into uint8 is 255), after the size checks.
Checked<Tensor> full_checked(const Shape& sizes, const Scalar& value, DType dtype, Device device) {
  SC_TRY(symint_list_failure(sizes));
  Tensor t;  // contiguous: the fill writes every byte (t is dropped if the value check fails)
  SC_TRY_ASSIGN(t, empty_checked_with(sizes, dtype, device, &Storage::allocate_unfilled));
  Scalar v;
  SC_TRY_ASSIGN(v, fill_value_checked(t, value));
  kernels::fill(t, v);
  return t;
}

Tensor full(const Shape& sizes, const Scalar& value, DType dtype, Device device) {
  return full_checked(sizes, value, dtype, device).value_or_throw();
}

namespace {
// Python's torch.tensor(values, dtype=D) stores each value with
// torch/csrc/utils/tensor_new.cpp store_scalar: integral types through
// c10::checked_convert with the names "uint8", "int8", ... (300 -> uint8
// raises; -1 -> uint8 is 255), floating types through double, bool as != 0.
void store_value(DType dtype, std::byte* p, const Scalar& v) {
  if (is_integral(dtype, false)) {
    static constexpr const char* names[] = {"bool", "uint8", "int8", "int16", "int32", "int64"};
    try {
      checked_scalar(v, dtype);
    } catch (const TorchError&) {
      raise(ErrorKind::RuntimeError, "value cannot be converted to type ", names[static_cast<int>(dtype)],
            " without overflow");
    }
    store_scalar(dtype, p, v);
  } else if (dtype == DType::Bool) {
    store_int(dtype, p, v.is_floating() ? (v.f != 0.0) : (v.i != 0));
  } else {
    store_double(dtype, p, v.to_double());
  }
}
}  // namespace

namespace {
// An integer value that store_value's checked conversion lets into integer
// dtype d unchanged (convert_scalar_checked's integer branch): the common
// literal, stored without the checked path (~55 instructions a value, issue 10).
bool integer_fits(DType d, int64_t v) {
  switch (d) {
    case DType::UInt8: return v >= -255 && v <= 255;  // -1 -> 255 converts; 256 and -256 raise
    case DType::Int8: return v >= -128 && v <= 127;
    case DType::Int16: return v >= -32768 && v <= 32767;
    case DType::Int32: return v >= INT32_MIN && v <= INT32_MAX;
    case DType::Int64: return true;
    default: return false;
  }
}
}  // namespace

Tensor tensor(const std::vector<Scalar>& values, bool zero_dim, DType dtype, Device device) {
  Shape sizes = zero_dim ? Shape{} : Shape{static_cast<int64_t>(values.size())};
  Tensor t = empty(sizes, dtype, Device::CPU);
  int64_t item = itemsize(dtype);
  for (size_t k = 0; k < values.size(); ++k) {
    std::byte* p = t.storage->data() + k * item;
    if (values[k].is_integral() && integer_fits(dtype, values[k].i)) store_int(dtype, p, values[k].i);
    else store_value(dtype, p, values[k]);
  }
  return moved_to(t, device);
}

Checked<Tensor> empty_strided_iota_checked(const Shape& sizes, const Shape& strides, DType dtype, Device device) {
  check_symint_list(strides);  // arguments are converted right to left
  check_symint_list(sizes);
  Tensor t;  // the whole storage written below
  SC_TRY_ASSIGN(t, empty_strided_checked_with(sizes, strides, dtype, Device::CPU, &Storage::allocate_unfilled));
  fill_storage_iota(*t.storage, dtype);
  return moved_to(t, device);
}

Tensor empty_strided_iota(const Shape& sizes, const Shape& strides, DType dtype, Device device) {
  return empty_strided_iota_checked(sizes, strides, dtype, device).value_or_throw();
}

}  // namespace sc::engine
