// Note [NaN operand choice found by the kernel] (nan_pair_scan.h): cpu::binary
// asked for the NaN-choice offsets finds exactly the elements
// elements_choosing_between_nans finds before the kernel runs, and writes the
// same bytes as without the question (a found element holds a NaN either
// way; which operand's, the compiler decides per loop): float16/32/64, every op, contiguous,
// strided, transposed, broadcast and scalar operands, runs around the scan
// block's length, in-place forms, an output that reaches a location twice,
// and a loop split over two threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/nan_pair_scan.h"
#include "engine/kernels/cpu/parallel.h"
#include "engine/nan_choice.h"

namespace sc::engine {
namespace {

using cpu::BinaryOp;

// Bytes where about a third of the elements are NaNs drawn from a few bit
// patterns (so equal and different NaN pairs both occur), the rest numbers.
void fill_with_nans(Storage& s, DType d, std::mt19937& rng) {
  const int64_t item = itemsize(d), n = s.nbytes() / item;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = rng();
    if (rng() % 3 == 0) {
      const uint64_t payload = 1 + rng() % 3, sign = rng() % 2;
      if (d == DType::Float16) bits = (sign << 15) | 0x7c00u | (payload << 8);
      else if (d == DType::Float32) bits = (sign << 31) | 0x7f800000u | (payload << 20);
      else bits = (sign << 63) | 0x7ff0000000000000ull | (payload << 49);
    } else if (d == DType::Float16) {
      bits &= 0x3fffu;  // finite
    } else if (d == DType::Float32) {
      bits &= 0x3fffffffu;
    } else {
      bits &= 0x3fffffffffffffffull;
    }
    std::memcpy(s.data() + i * item, &bits, static_cast<size_t>(item));
  }
}

struct Case {
  Tensor out, a, b;
};

Tensor geometry(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
  Tensor t = base;
  t.sizes = std::move(sizes);
  t.strides = std::move(strides);
  t.storage_offset = offset;
  return t;
}

// The layouts, each built afresh from `seed` (so a case can be built twice).
using Build = std::function<Case(DType, uint32_t)>;

Case with_storages(DType d, uint32_t seed, int64_t out_n, int64_t a_n, int64_t b_n, bool shared_ab) {
  std::mt19937 rng(seed);
  Tensor o = empty({out_n}, d), a = empty({a_n}, d), b = shared_ab ? a : empty({b_n}, d);
  fill_with_nans(*o.storage, d, rng);
  fill_with_nans(*a.storage, d, rng);
  if (!shared_ab) fill_with_nans(*b.storage, d, rng);
  return {o, a, b};
}

std::vector<std::pair<std::string, Build>> layouts() {
  std::vector<std::pair<std::string, Build>> v;
  for (int64_t n : {1, 7, 511, 513, 1024, 1025, 2049, 3000}) {  // around the scan blocks (2048, 1024, 512)
    v.push_back({"contiguous " + std::to_string(n), [n](DType d, uint32_t s) {
                   Case c = with_storages(d, s, n, n, n, false);
                   return c;
                 }});
    v.push_back({"in place " + std::to_string(n), [n](DType d, uint32_t s) {
                   Case c = with_storages(d, s, n, n, n, false);
                   c.out = c.a;
                   return c;
                 }});
    v.push_back({"in place second operand " + std::to_string(n), [n](DType d, uint32_t s) {
                   Case c = with_storages(d, s, n, n, n, false);
                   c.out = c.b;
                   return c;
                 }});
    v.push_back({"all three the same " + std::to_string(n), [n](DType d, uint32_t s) {
                   Case c = with_storages(d, s, n, n, n, true);
                   c.out = c.a;
                   return c;
                 }});
    v.push_back({"scalar second " + std::to_string(n), [n](DType d, uint32_t s) {
                   Case c = with_storages(d, s, n, n, 3, false);
                   c.b = geometry(c.b, {n}, {0}, 1);
                   return c;
                 }});
    v.push_back({"scalar first " + std::to_string(n), [n](DType d, uint32_t s) {
                   Case c = with_storages(d, s, n, 3, n, false);
                   c.a = geometry(c.a, {n}, {0}, 2);
                   return c;
                 }});
    v.push_back({"strided " + std::to_string(n), [n](DType d, uint32_t s) {
                   Case c = with_storages(d, s, 2 * n, 3 * n, n, false);
                   c.out = geometry(c.out, {n}, {2}, 0);
                   c.a = geometry(c.a, {n}, {-3}, 3 * n - 1);
                   return c;
                 }});
  }
  v.push_back({"output written twice per location [2,300]", [](DType d, uint32_t s) {
                 Case c = with_storages(d, s, 300, 600, 600, false);
                 c.out = geometry(c.out, {2, 300}, {0, 1}, 0);
                 c.a = geometry(c.a, {2, 300}, {300, 1}, 0);
                 c.b = geometry(c.b, {2, 300}, {300, 1}, 0);
                 return c;
               }});
  v.push_back({"transposed [33,70]", [](DType d, uint32_t s) {
                 Case c = with_storages(d, s, 33 * 70, 33 * 70, 33 * 70, false);
                 c.out = geometry(c.out, {33, 70}, {70, 1}, 0);
                 c.a = geometry(c.a, {33, 70}, {1, 33}, 0);
                 c.b = geometry(c.b, {33, 70}, {70, 1}, 0);
                 return c;
               }});
  v.push_back({"row broadcast [40,300]", [](DType d, uint32_t s) {
                 Case c = with_storages(d, s, 40 * 300, 40 * 300, 300, false);
                 c.out = geometry(c.out, {40, 300}, {300, 1}, 0);
                 c.a = geometry(c.a, {40, 300}, {300, 1}, 0);
                 c.b = geometry(c.b, {40, 300}, {0, 1}, 0);
                 return c;
               }});
  v.push_back({"column broadcast, in place [40,300]", [](DType d, uint32_t s) {
                 Case c = with_storages(d, s, 40 * 300, 40 * 300, 40, false);
                 c.a = geometry(c.a, {40, 300}, {300, 1}, 0);
                 c.out = c.a;
                 c.b = geometry(c.b, {40, 300}, {1, 0}, 0);
                 return c;
               }});
  return v;
}

bool nan_bits_at(DType d, uint64_t bits) {
  if (d == DType::Float16) return ((bits & 0x7fffu) > 0x7c00u);
  if (d == DType::Float32) return ((bits & 0x7fffffffu) > 0x7f800000u);
  return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

std::vector<uint8_t> bytes_of(const Storage& s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  return {p, p + s.nbytes()};
}

void expect_same_as_scan_before(const std::string& name, const Build& build, DType d, BinaryOp op, uint32_t seed) {
  SCOPED_TRACE(name + " " + std::string(dtype_name(d)) + " op " + std::to_string(static_cast<int>(op)) +
               " seed " + std::to_string(seed));
  Case plain = build(d, seed), noted = build(d, seed);
  std::vector<int64_t> expected = elements_choosing_between_nans(plain.out, plain.a, plain.b);
  cpu::binary(op, plain.out, plain.a, plain.b);
  std::vector<int64_t> found;
  cpu::binary(op, noted.out, noted.a, noted.b, &found);
  std::sort(expected.begin(), expected.end());
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, expected);
  // The same bytes, except that a flagged element may hold either operand's
  // NaN (the compiler picks per loop: Note [NaN operand choice]): a NaN.
  std::vector<uint8_t> got = bytes_of(*noted.out.storage), want = bytes_of(*plain.out.storage);
  const int64_t item = itemsize(d);
  // (where a location is written twice, the later element's value stays)
  const bool written_once = std::find(plain.out.strides.begin(), plain.out.strides.end(), 0) == plain.out.strides.end();
  for (int64_t off : expected) {
    uint64_t x = 0, y = 0;
    std::memcpy(&x, got.data() + off, static_cast<size_t>(item));
    std::memcpy(&y, want.data() + off, static_cast<size_t>(item));
    if (written_once) EXPECT_TRUE(nan_bits_at(d, x) && nan_bits_at(d, y)) << "offset " << off;
    std::memcpy(got.data() + off, want.data() + off, static_cast<size_t>(item));
  }
  EXPECT_EQ(got, want);
}

TEST(NanPairScan, FindsWhatTheScanBeforeTheKernelFinds) {
  int with_pairs = 0;
  for (const auto& [name, build] : layouts())
    for (DType d : {DType::Float16, DType::Float32, DType::Float64})
      for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div})
        for (uint32_t seed : {1u, 2u, 3u}) {
          expect_same_as_scan_before(name, build, d, op, seed);
          const Case c = build(d, seed);
          with_pairs += !elements_choosing_between_nans(c.out, c.a, c.b).empty();
        }
  EXPECT_GT(with_pairs, 500);  // the cases do exercise the pairs
}

TEST(NanPairScan, ThreadsFindTheSameElements) {
  cpu::set_num_threads(2);
  const int64_t rows = 700, cols = 500;  // above kParallelMinElements
  const Build build = [&](DType d, uint32_t s) {
    Case c = with_storages(d, s, rows * cols, rows * cols, rows * cols, false);
    c.out = geometry(c.out, {rows, cols}, {cols, 1}, 0);
    c.a = geometry(c.a, {rows, cols}, {cols, 1}, 0);
    c.b = geometry(c.b, {rows, cols}, {1, rows}, 0);
    return c;
  };
  for (DType d : {DType::Float32, DType::Float64}) expect_same_as_scan_before("two threads", build, d, BinaryOp::Add, 9);
  cpu::set_num_threads(1);
}

TEST(NanPairScan, AnyNanPairIsAMaybeThatNeverMissesAPair) {
  // Every position of a pair within runs around the vector widths.
  for (int64_t n : {1, 3, 8, 15, 16, 17, 31, 33, 64}) {
    for (int64_t k = 0; k < n; ++k) {
      std::vector<float> a(static_cast<size_t>(n), 1.0f), b(static_cast<size_t>(n), 2.0f);
      const uint32_t x = 0x7fc00001u, y = 0xff800001u;  // a quiet and a signalling NaN
      std::memcpy(&a[static_cast<size_t>(k)], &x, 4);
      EXPECT_FALSE(cpu::any_nan_pair<float>(reinterpret_cast<const std::byte*>(a.data()), 4,
                                            reinterpret_cast<const std::byte*>(b.data()), 4, n));
      std::memcpy(&b[static_cast<size_t>(k)], &y, 4);
      EXPECT_TRUE(cpu::any_nan_pair<float>(reinterpret_cast<const std::byte*>(a.data()), 4,
                                           reinterpret_cast<const std::byte*>(b.data()), 4, n))
          << n << " " << k;
    }
  }
}

}  // namespace
}  // namespace sc::engine
