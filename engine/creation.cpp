#include "engine/creation.h"

#include "engine/error.h"
#include "engine/inplace.h"
#include "engine/kernels/kernels.h"
#include "engine/layout.h"
#include "engine/version_profile.h"
#include "engine/views.h"

namespace sc::engine {

void check_factory_sizes(const Shape& sizes) {
  for (int64_t s : sizes) {
    if (s < 0) {
      std::string list = "[";
      for (size_t i = 0; i < sizes.size(); ++i) list += (i ? ", " : "") + std::to_string(sizes[i]);
      raise(ErrorKind::RuntimeError, "Trying to create tensor with negative dimension ", s, ": ", list, "]");
    }
  }
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

// at::detail::empty_generic: sizes checked, then computeStorageNbytesContiguous
// (overflow checked), then the contiguous restride.
Tensor empty(const Shape& sizes, DType dtype, Device device) {
  check_factory_sizes(sizes);
  auto storage = Storage::allocate(compute_storage_nbytes_contiguous(sizes, itemsize(dtype)), device);
  return make_tensor(std::move(storage), sizes, contiguous_strides(sizes), 0, dtype);
}

// at::detail::empty_strided_generic: sizes checked, then computeStorageNbytes (overflow checked).
Tensor empty_strided(const Shape& sizes, const Shape& strides, DType dtype, Device device) {
  check_factory_sizes(sizes);
  auto storage = Storage::allocate(compute_storage_nbytes(sizes, strides, itemsize(dtype)), device);
  return make_tensor(std::move(storage), sizes, strides, 0, dtype);
}

Tensor empty_strided_for_overwrite(const Shape& sizes, const Shape& strides, DType dtype, Device device) {
  check_factory_sizes(sizes);
  SC_ASSERT(is_non_overlapping_and_dense(sizes, strides) || required_storage_elements(sizes, strides) == 0,
            "empty_strided_for_overwrite of a tensor with gaps");
  auto storage = Storage::allocate_for_overwrite(compute_storage_nbytes(sizes, strides, itemsize(dtype)), device);
  return make_tensor(std::move(storage), sizes, strides, 0, dtype);
}

void fill_storage_iota(Storage& storage, DType dtype) {
  SC_ASSERT(storage.device() == Device::CPU);
  int64_t item = itemsize(dtype);
  int64_t n = storage.nbytes() / item;
  for (int64_t k = 0; k < n; ++k) store_int(dtype, storage.data() + k * item, k);
}

Tensor arange(int64_t end, DType dtype, Device device) {
  SC_CHECK(end >= 0, "upper bound and ", since(Change::ArangeBoundMessage) ? "lower" : "larger",
           " bound inconsistent with step sign");
  // arange's kernels are dispatched over AT_DISPATCH_ALL_TYPES_AND2(Half,
  // BFloat16): no bool; the dispatch is named arange_cpu / arange_cuda.
  if (dtype == DType::Bool)
    raise(dtype_dispatch_error_kind(), "\"", device == Device::CUDA ? "arange_cuda" : "arange_cpu",
          "\" not implemented for 'Bool'");
  Tensor t = empty({end}, dtype, Device::CPU);
  fill_storage_iota(*t.storage, dtype);
  return moved_to(t, device);
}

Tensor zeros(const Shape& sizes, DType dtype, Device device) {
  if (since(Change::ZerosChecksSizes))
    for (int64_t s : sizes) SC_CHECK(s >= 0, "zeros: Dimension size must be non-negative.");
  return empty(sizes, dtype, device);
}

Tensor ones(const Shape& sizes, DType dtype, Device device) {
  return full(sizes, Scalar::integer(1), dtype, device);
}

// at::full = empty + fill_(value): the value is checked-converted
// (measured: full([2], 2.7, long) is [2, 2]; 300 into uint8 raises
// "value cannot be converted to type uint8_t without overflow"; -1 into uint8 is 255).
Tensor full(const Shape& sizes, const Scalar& value, DType dtype, Device device) {
  check_factory_sizes(sizes);
  Scalar v = checked_scalar(value, dtype);
  Tensor t = empty(sizes, dtype, device);
  kernels::fill(t, v);
  return t;
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

Tensor tensor(const std::vector<Scalar>& values, bool zero_dim, DType dtype, Device device) {
  Shape sizes = zero_dim ? Shape{} : Shape{static_cast<int64_t>(values.size())};
  Tensor t = empty(sizes, dtype, Device::CPU);
  int64_t item = itemsize(dtype);
  for (size_t k = 0; k < values.size(); ++k) store_value(dtype, t.storage->data() + k * item, values[k]);
  return moved_to(t, device);
}

Tensor empty_strided_iota(const Shape& sizes, const Shape& strides, DType dtype, Device device) {
  Tensor t = empty_strided(sizes, strides, dtype, Device::CPU);
  fill_storage_iota(*t.storage, dtype);
  return moved_to(t, device);
}

}  // namespace sc::engine
