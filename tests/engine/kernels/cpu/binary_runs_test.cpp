// cpu::binary over contiguous runs (Note [Vectorised binary runs]) gives byte
// for byte what an element-by-element loop gives: every dtype and op, random
// bytes (NaNs with payloads, infinities, subnormals, integer extremes), every
// run length around the vector widths at unaligned offsets, scalar operands
// on either side, in-place forms, and outputs that overlap an input partly
// (where the element order decides what is read).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "engine/creation.h"
#include "engine/kernels/cpu/binary_runs.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/types.h"

namespace sc::engine {
namespace {

using cpu::BinaryOp;

constexpr DType kAll[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                          DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};

bool op_applies(BinaryOp op, DType d) {
  if (op == BinaryOp::Div) return is_floating(d);  // integer true division is promoted by the caller
  if (op == BinaryOp::Sub) return d != DType::Bool;  // sub raises for bool
  return true;
}

// The reference arithmetic, written out per type.
template <class T>
T apply_reference(BinaryOp op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return op == BinaryOp::Add ? (a || b) : (a && b);
  } else if constexpr (std::is_integral_v<T>) {
    const uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
    return static_cast<T>(op == BinaryOp::Add ? x + y : op == BinaryOp::Sub ? x - y : x * y);
  } else if constexpr (cpu::is_reduced_float_v<T>) {
    return cpu::convert<T>(apply_reference<float>(op, cpu::to_float(a), cpu::to_float(b)));
  } else {
    switch (op) {
      case BinaryOp::Add: return a + b;
      case BinaryOp::Sub: return a - b;
      case BinaryOp::Mul: return a * b;
      case BinaryOp::Div: return a / b;
    }
    return a;
  }
}

// out[i] = a[i] op b[i] for i = 0..n-1 in order, reading each operand just
// before the element is written (b once, before the loop, when b_once).
void reference(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b, bool b_once) {
  cpu::dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto at = [](const Tensor& t, int64_t i) {
      return t.storage->data() + (t.storage_offset + i * t.strides[0]) * static_cast<int64_t>(sizeof(T));
    };
    const int64_t n = out.sizes[0];
    const T b0 = n > 0 ? cpu::load<T>(at(b, 0)) : T{};
    for (int64_t i = 0; i < n; ++i) {
      const T r = apply_reference<T>(op, cpu::load<T>(at(a, i)), b_once ? b0 : cpu::load<T>(at(b, i)));
      std::memcpy(at(out, i), &r, sizeof(T));
    }
  });
}

void randomise(const Tensor& t, std::mt19937& rng) {
  std::byte* p = t.storage->data();
  for (int64_t i = 0; i < t.storage->nbytes(); ++i)
    p[i] = static_cast<std::byte>(t.dtype == DType::Bool ? rng() % 2 : rng() % 256);
}

Tensor on(const Tensor& base, int64_t n, int64_t stride, int64_t offset) {
  Tensor t = base;
  t.sizes = {n};
  t.strides = {stride};
  t.storage_offset = offset;
  return t;
}

Tensor copy_of(const Tensor& base) {
  Tensor c = empty(base.sizes, base.dtype);
  std::memcpy(c.storage->data(), base.storage->data(), static_cast<size_t>(base.storage->nbytes()));
  return c;
}

// Byte for byte, except that two NaNs are equal whatever their sign and
// payload: with two NaN operands x86 returns the first one's, and the compiler
// may swap the operands of + and * (they commute), so which NaN comes out is
// not the kernel's to decide; LibTorch's scalar and vector loops differ the
// same way: the engine flags such results and the diff compares them as NaNs
// (Note [NaN operand choice], engine/nan_choice.h; Note [NaN bits], program/diff.cpp).
bool same_bytes(const Tensor& x, const Tensor& y) {
  if (x.storage->nbytes() != y.storage->nbytes()) return false;
  const int64_t isz = itemsize(x.dtype);
  for (int64_t e = 0; e < x.storage->nbytes(); e += isz) {
    const std::byte* p = x.storage->data() + e;
    const std::byte* q = y.storage->data() + e;
    if (std::memcmp(p, q, static_cast<size_t>(isz)) == 0) continue;
    if (is_floating(x.dtype) && std::isnan(load_double(x.dtype, p)) && std::isnan(load_double(y.dtype, q))) continue;
    return false;
  }
  return true;
}

struct Case {
  const char* what;
  // Offsets and strides of out, a and b in one shared storage (`shared`), or
  // in three storages.
  bool shared;
  int64_t out_off, a_off, a_stride, b_off, b_stride;
  bool b_once;  // the reference reads b once (a contiguous tensor-op-scalar run)
};

void check(BinaryOp op, DType d, const Case& c, int64_t n, std::mt19937& rng) {
  const int64_t len = n + 8;
  Tensor s0 = empty({len}, d), s1 = empty({len}, d), s2 = empty({len}, d);
  randomise(s0, rng);
  randomise(s1, rng);
  randomise(s2, rng);
  Tensor r0 = copy_of(s0), r1 = copy_of(s1), r2 = copy_of(s2);
  auto three = [&](Tensor& x0, Tensor& x1, Tensor& x2) {
    return std::array<Tensor, 3>{on(x0, n, 1, c.out_off), on(c.shared ? x0 : x1, n, c.a_stride, c.a_off),
                                 on(c.shared ? x0 : x2, n, c.b_stride, c.b_off)};
  };
  auto [out, a, b] = three(s0, s1, s2);
  auto [rout, ra, rb] = three(r0, r1, r2);
  cpu::binary(op, out, a, b);
  reference(op, rout, ra, rb, c.b_once);
  ASSERT_TRUE(same_bytes(s0, r0) && same_bytes(s1, r1) && same_bytes(s2, r2))
      << c.what << ", " << dtype_name(d) << " op " << static_cast<int>(op) << " n " << n;
}

TEST(BinaryRuns, EveryDtypeOpLengthAndOverlapMatchesTheElementLoop) {
  const Case cases[] = {
      {"disjoint", false, 1, 3, 1, 2, 1, false},
      {"aligned", false, 0, 0, 1, 0, 1, false},
      {"tensor op scalar", false, 2, 1, 1, 5, 0, true},
      {"scalar op tensor", false, 3, 4, 0, 1, 1, false},
      {"out is a", true, 2, 2, 1, 0, 0, true},  // b: a scalar in the same storage, before out
      {"in place, b elsewhere", false, 1, 1, 1, 3, 1, false},
      {"out is a and b", true, 3, 3, 1, 3, 1, false},
      {"out is b", true, 4, 0, 0, 4, 1, false},
      {"out shifted +1 over a", true, 1, 0, 1, 0, 1, false},
      {"out shifted -1 over b", true, 0, 7, 0, 1, 1, false},
      {"scalar a inside out", true, 0, 2, 0, 0, 1, false},
      {"scalar b inside out", true, 0, 0, 1, 2, 0, true},
      {"a == b, out apart", true, 5, 0, 1, 0, 1, false},
  };
  std::mt19937 rng(11);
  for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div})
    for (DType d : kAll) {
      if (!op_applies(op, d)) continue;
      for (const Case& c : cases)
        for (int64_t n : {0, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 40, 64, 67, 130}) {
          check(op, d, c, n, rng);
          if (HasFatalFailure()) return;
        }
    }
}

TEST(BinaryRuns, SpecialFloatValuesMatchTheElementLoop) {
  const float f[] = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, 1e-45f, -1e-45f, 1.17549435e-38f, 3.4028235e38f,
                     -3.4028235e38f, INFINITY, -INFINITY, NAN, -NAN, 0.1f, 7.0f};
  const int64_t k = sizeof(f) / sizeof(f[0]);
  Tensor a = empty({k * k}, DType::Float32), b = empty({k * k}, DType::Float32);
  for (int64_t i = 0; i < k * k; ++i) {
    std::memcpy(a.storage->data() + 4 * i, &f[i / k], 4);
    std::memcpy(b.storage->data() + 4 * i, &f[i % k], 4);
  }
  for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div}) {
    Tensor out = empty({k * k}, DType::Float32), ref = empty({k * k}, DType::Float32);
    cpu::binary(op, out, a, b);
    reference(op, ref, a, b, false);
    EXPECT_TRUE(same_bytes(out, ref)) << static_cast<int>(op);
  }
}

// Both compiled copies directly (the test above reaches only the one this CPU
// selects): the same bytes as a plain loop, for a float and an integer op.
struct MulF {
  static float apply(float a, float b) { return a * b; }
};
struct SubI64 {
  static int64_t apply(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
};

template <class T>
bool same_values(const std::vector<T>& x, const std::vector<T>& y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (std::memcmp(&x[i], &y[i], sizeof(T)) == 0) continue;
    if constexpr (std::is_floating_point_v<T>)
      if (std::isnan(x[i]) && std::isnan(y[i])) continue;  // as same_bytes
    return false;
  }
  return true;
}

template <class T, class Op>
void both_copies_match(std::mt19937& rng) {
  using cpu::RunForm;
  namespace d = cpu::binary_runs_detail;
  for (int64_t n = 0; n < 70; ++n)
    for (RunForm f : {RunForm::VV, RunForm::VS, RunForm::SV}) {
      std::vector<T> a(n + 1), b(n + 1), expect(n + 1), got(n + 1);
      for (auto* v : {&a, &b})
        for (T& x : *v) {
          const uint64_t r = (uint64_t{rng()} << 32) | rng();
          std::memcpy(&x, &r, sizeof(T));
        }
      for (int64_t i = 0; i < n; ++i)
        expect[i] = Op::apply(f == RunForm::SV ? a[0] : a[i], f == RunForm::VS ? b[0] : b[i]);
      auto bytes = [](auto& v) { return reinterpret_cast<std::byte*>(v.data()); };
      ASSERT_TRUE((d::run_baseline<T, Op>(f, bytes(got), bytes(a), bytes(b), n)));
      ASSERT_TRUE(same_values(got, expect, n)) << "baseline n " << n;
#if SC_BINARY_RUNS_AVX2
      if (d::cpu_has_avx512()) {
        std::vector<T> got3(n + 1);
        ASSERT_TRUE((d::run_avx512<T, Op>(f, bytes(got3), bytes(a), bytes(b), n)));
        ASSERT_TRUE(same_values(got3, expect, n)) << "avx512 n " << n;
        if constexpr (std::is_floating_point_v<T>) {
          std::vector<T> got4(n + 1);
          bool nan = false;
          for (int64_t i = 0; i < n; ++i) nan = nan || std::isnan(expect[i]);
          EXPECT_EQ((d::separate_run_avx512<T, Op>(f, bytes(got4), bytes(a), bytes(b), n)), nan);
          ASSERT_TRUE(same_values(got4, expect, n)) << "separate avx512 n " << n;
        }
      }
      if (!cpu::binary_runs_use_avx2()) continue;
      std::vector<T> got2(n + 1);
      ASSERT_TRUE((d::run_avx2<T, Op>(f, bytes(got2), bytes(a), bytes(b), n)));
      ASSERT_TRUE(same_values(got2, expect, n)) << "avx2 n " << n;
#endif
    }
}

TEST(BinaryRuns, BaselineAvx2AndAvx512CopiesGiveTheSameBytes) {
  std::mt19937 rng(12);
  both_copies_match<float, MulF>(rng);
  both_copies_match<int64_t, SubI64>(rng);
}

}  // namespace
}  // namespace sc::engine
