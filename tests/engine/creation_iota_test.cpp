// fill_storage_iota (empty_strided's contents) and arange's integer and
// float64 path write element k as store_int(dtype, p, k) writes it: the same
// bytes for every dtype, through int8/int16 wrap-around and float16/bfloat16
// rounding.
#include <gtest/gtest.h>

#include <cstring>
#include <utility>
#include <vector>

#include "engine/creation.h"
#include "engine/scalar.h"
#include "engine/storage.h"

namespace sc::engine {
namespace {

constexpr DType kAll[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                          DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};

std::vector<std::byte> by_store_int(DType d, int64_t n) {
  std::vector<std::byte> out(static_cast<size_t>(n * itemsize(d)));
  for (int64_t k = 0; k < n; ++k) store_int(d, out.data() + k * itemsize(d), k);
  return out;
}

TEST(CreationIota, FillStorageIotaWritesWhatStoreIntWrites) {
  for (DType d : kAll) {
    for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{70000}}) {
      auto storage = Storage::allocate(n * itemsize(d));
      fill_storage_iota(*storage, d);
      const std::vector<std::byte> want = by_store_int(d, n);
      // (n = 0: no bytes, and both pointers may be null, which memcmp may not be given: UBSan)
      ASSERT_TRUE(want.empty() || std::memcmp(storage->data(), want.data(), want.size()) == 0)
          << dtype_name(d) << " n=" << n;
    }
  }
}

TEST(CreationIota, ArangeOfIntegerAndFloat64DTypesIsStoreIntOfEachIndex) {
  for (DType d : kAll) {
    if (d == DType::Bool || (is_floating(d) && d != DType::Float64)) continue;  // bool raises; reduced floats: Note [arange's vectorized loop]
    const int64_t n = 70000;
    Tensor t = arange(n, d, Device::CPU);
    const std::vector<std::byte> want = by_store_int(d, n);
    ASSERT_EQ(t.storage->nbytes(), static_cast<int64_t>(want.size()));
    EXPECT_EQ(std::memcmp(t.storage->data(), want.data(), want.size()), 0) << dtype_name(d);
  }
}

// Below the exact-integer bound the reduced floats' vector loop writes each
// index exactly; at the bound and past it, Note [arange's vectorized loop].
TEST(CreationIota, ArangeOfFloatsBelowTheirExactIntegerBoundHoldsEachIndex) {
  for (auto [d, n] : {std::pair{DType::Float32, int64_t{70000}}, std::pair{DType::Float16, int64_t{2048}},
                      std::pair{DType::BFloat16, int64_t{256}}}) {
    Tensor t = arange(n, d, Device::CPU);
    for (int64_t k = 0; k < n; ++k)
      ASSERT_EQ(load_double(d, t.storage->data() + k * itemsize(d)), static_cast<double>(k)) << dtype_name(d) << " " << k;
  }
  // past the bound the old loop runs: arange(4128, bfloat16)[4113] is 4096 (measured, 1.13)
  Tensor b = arange(4128, DType::BFloat16, Device::CPU);
  EXPECT_EQ(load_double(DType::BFloat16, b.storage->data() + 4113 * 2), 4096.0);
}

// Note [arange's vectorized loop] for float16 and bfloat16, past their exact
// bound (the typed loop of engine/creation.cpp): the bytes of its model,
// written here with store_double/load_double: pairs of 16-lane vectors whose
// lane k is T(float(T(start)) + k), then the tail element by element.
std::vector<std::byte> arange_model(DType d, int64_t n) {
  std::vector<std::byte> out(static_cast<size_t>(n * 2));
  auto rounded = [d](int64_t i) {  // T(i), as a float
    std::byte tmp[2];
    store_double(d, tmp, static_cast<double>(i));
    return static_cast<float>(load_double(d, tmp));
  };
  int64_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int64_t start : {i, i + 16})
      for (int64_t k = 0; k < 16; ++k)
        store_double(d, out.data() + (start + k) * 2, static_cast<double>(rounded(start) + static_cast<float>(k)));
  for (; i < n; ++i) store_double(d, out.data() + i * 2, rounded(i));
  return out;
}

TEST(CreationIota, ArangeOfReducedFloatsPastTheirBoundIsTheVectorLoopsModel) {
  for (auto [d, n] : {std::pair{DType::Float16, int64_t{2049}}, std::pair{DType::Float16, int64_t{6000 + 45}},
                      std::pair{DType::BFloat16, int64_t{257}}, std::pair{DType::BFloat16, int64_t{4100}},
                      std::pair{DType::BFloat16, int64_t{4128}}, std::pair{DType::BFloat16, int64_t{70000 + 17}}}) {
    Tensor t = arange(n, d, Device::CPU);
    const std::vector<std::byte> want = arange_model(d, n);
    ASSERT_EQ(t.storage->nbytes(), static_cast<int64_t>(want.size()));
    for (int64_t k = 0; k < n; ++k)
      ASSERT_EQ(std::memcmp(t.storage->data() + k * 2, want.data() + k * 2, 2), 0) << dtype_name(d) << " n=" << n << " element " << k;
  }
}

}  // namespace
}  // namespace sc::engine
