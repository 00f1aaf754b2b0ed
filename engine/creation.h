#pragma once
// Creation ops. arange and empty_strided fill their whole storage with
// 0, 1, 2, ... in storage order (DESIGN.md), so contents are deterministic.
#include <vector>

#include "engine/checked.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine {

// A fresh contiguous tensor, zero-filled.
Tensor empty(const Shape& sizes, DType dtype, Device device = Device::CPU);
// A fresh tensor with the given strides over a storage of exactly the size it needs.
Tensor empty_strided(const Shape& sizes, const Shape& strides, DType dtype, Device device = Device::CPU);
// empty_strided for a result its op writes completely before anything reads
// it (Storage::allocate_for_overwrite: no zero-fill): `strides` must be
// non-overlapping and dense for `sizes`.
Checked<Tensor> empty_strided_for_overwrite_checked(const Shape& sizes, const Shape& strides, DType dtype,
                                                   Device device);
Tensor empty_strided_for_overwrite(const Shape& sizes, const Shape& strides, DType dtype,
                                   Device device = Device::CPU);
// empty_strided's checks (sizes, storage size overflow, numel overflow) and
// the strides its tensor keeps (set_sizes_and_strides), allocating nothing.
struct StridedLayout {
  int64_t nbytes = 0;
  Shape strides;
};
StridedLayout checked_strided_layout(const Shape& sizes, const Shape& strides, DType dtype);
Checked<StridedLayout> strided_layout_checked(const Shape& sizes, const Shape& strides, DType dtype);

Tensor arange(int64_t end, DType dtype, Device device = Device::CPU);
Checked<Tensor> arange_checked(int64_t end, DType dtype, Device device = Device::CPU);
// arange's element count as LibTorch computes it: ceil(end) through a double,
// cast back to int64 (so INT64_MAX becomes INT64_MIN, which resize_ rejects).
int64_t arange_size(int64_t end);
Tensor zeros(const Shape& sizes, DType dtype, Device device = Device::CPU);
Tensor ones(const Shape& sizes, DType dtype, Device device = Device::CPU);
Tensor full(const Shape& sizes, const Scalar& value, DType dtype, Device device = Device::CPU);
// empty, zeros, ones, full with their own checks' errors returned (Note
// [errors returned, not thrown]).
Checked<Tensor> empty_checked(const Shape& sizes, DType dtype, Device device = Device::CPU);
Checked<Tensor> zeros_checked(const Shape& sizes, DType dtype, Device device = Device::CPU);
Checked<Tensor> ones_checked(const Shape& sizes, DType dtype, Device device = Device::CPU);
Checked<Tensor> full_checked(const Shape& sizes, const Scalar& value, DType dtype, Device device = Device::CPU);
// values.size() elements, 1-d; or a 0-d tensor when `zero_dim`.
Tensor tensor(const std::vector<Scalar>& values, bool zero_dim, DType dtype, Device device = Device::CPU);
// empty_strided whose storage is filled with 0, 1, 2, ... (the language's empty_strided).
Tensor empty_strided_iota(const Shape& sizes, const Shape& strides, DType dtype, Device device = Device::CPU);
Checked<Tensor> empty_strided_checked(const Shape& sizes, const Shape& strides, DType dtype,
                                      Device device = Device::CPU);
Checked<Tensor> empty_strided_iota_checked(const Shape& sizes, const Shape& strides, DType dtype,
                                           Device device = Device::CPU);

// `host` (a fresh CPU tensor) with its storage moved to `device`: the same
// header and contents (itself when device is the CPU).
Tensor moved_to(const Tensor& host, Device device);

// Fill every element of the storage with its storage index converted to dtype.
void fill_storage_iota(Storage& storage, DType dtype);

// LibTorch's checks on sizes for factory functions ("Trying to create tensor
// with negative dimension -1: [-1]").
void check_factory_sizes(const Shape& sizes);
MaybeFailure factory_sizes_failure(const Shape& sizes);
// at::empty(IntArrayRef)'s first checks, as LibTorch code calling the C++ API
// runs them: the list converted to SymInts ("IntArrayRef contains an int that
// cannot be represented as a SymInt: <v>", 1.13; check_symint_list), then
// the negative sizes (factory_sizes_failure). Generated seed 5172258 (1.13)
// showed the order.
MaybeFailure int_list_empty_sizes_failure(const Shape& sizes);

}  // namespace sc::engine
