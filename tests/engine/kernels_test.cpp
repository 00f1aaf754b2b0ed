// CPU kernels: every dtype pair, zero strides, negative strides, offsets,
// coalescing; compared with a per-element reference (load/store_double).
#include <gtest/gtest.h>

#include <random>

#include "engine/creation.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/loop.h"
#include "engine/scalar.h"
#include "tests/engine/test_util.h"

namespace sc::engine {
namespace {
using testing::values;

constexpr DType kAll[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                          DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};

TEST(Loop, CoalescesContiguousDims) {
  Tensor t = zeros({2, 3, 4}, DType::Float32);
  auto g = cpu::make_geometry<1>(t.sizes, {&t});
  EXPECT_EQ(g.ndim, 1);
  EXPECT_EQ(g.sizes[0], 24);
  Tensor tt = make_view(t, {4, 3, 2}, {1, 4, 12}, 0);
  auto g2 = cpu::make_geometry<2>(tt.sizes, {&tt, &t});
  EXPECT_EQ(g2.ndim, 3);
  Tensor e = make_view(t, {2, 1, 12}, {12, 5, 1}, 0);  // size-1 dim with an odd stride is dropped
  EXPECT_EQ(cpu::make_geometry<1>(e.sizes, {&e}).ndim, 1);
}

TEST(CopyKernel, EveryDtypePairMatchesScalarConversion) {
  std::mt19937 rng(1);
  for (DType s : kAll) {
    for (DType d : kAll) {
      Tensor src = empty({3, 5}, s);
      for (int k = 0; k < 15; ++k)
        store_int(s, src.storage->data() + k * itemsize(s), static_cast<int64_t>(rng() % 200) - 100);
      Tensor st = make_view(src, {5, 3}, {1, 5}, 0);  // transposed source
      Tensor dst = empty({5, 3}, d);
      cpu::copy(dst, st);
      auto vs = values(st), vd = values(dst);
      for (size_t k = 0; k < vs.size(); ++k) {
        std::byte buf[8];
        if (is_floating(s)) store_double(d, buf, vs[k]);
        else store_int(d, buf, static_cast<int64_t>(vs[k]));
        ASSERT_EQ(vd[k], load_double(d, buf)) << dtype_name(s) << "->" << dtype_name(d) << " at " << k;
      }
    }
  }
}

TEST(CopyKernel, BroadcastNegativeStridesAndOffsets) {
  Tensor a = arange(10, DType::Int32);
  Tensor rev = make_view(a, {4}, {-2}, 9);  // 9, 7, 5, 3
  Tensor dst = empty({3, 4}, DType::Float64);
  Tensor b = make_view(rev, {3, 4}, {0, -2}, 9);
  cpu::copy(dst, b);
  EXPECT_EQ(values(dst), (std::vector<double>{9, 7, 5, 3, 9, 7, 5, 3, 9, 7, 5, 3}));
}

TEST(BinaryKernel, ArithmeticPerDtype) {
  for (DType d : kAll) {
    if (d == DType::Bool) continue;
    Tensor a = arange(6, d), b = full({6}, Scalar::integer(3), d), out = empty({6}, d);
    cpu::binary(cpu::BinaryOp::Add, out, a, b);
    EXPECT_EQ(values(out), (std::vector<double>{3, 4, 5, 6, 7, 8})) << dtype_name(d);
    cpu::binary(cpu::BinaryOp::Mul, out, a, b);
    EXPECT_EQ(values(out), (std::vector<double>{0, 3, 6, 9, 12, 15})) << dtype_name(d);
    cpu::binary(cpu::BinaryOp::Sub, out, a, b);
    if (d != DType::UInt8) EXPECT_EQ(values(out), (std::vector<double>{-3, -2, -1, 0, 1, 2})) << dtype_name(d);
  }
  Tensor x = tensor({Scalar::boolean(true), Scalar::boolean(false)}, false, DType::Bool);
  Tensor y = tensor({Scalar::boolean(true), Scalar::boolean(true)}, false, DType::Bool);
  Tensor o = empty({2}, DType::Bool);
  cpu::binary(cpu::BinaryOp::Add, o, x, y);
  EXPECT_EQ(values(o), (std::vector<double>{1, 1}));
  cpu::binary(cpu::BinaryOp::Mul, o, x, y);
  EXPECT_EQ(values(o), (std::vector<double>{1, 0}));
}

// A bool byte other than 0 and 1 (a `view dtype=bool` of other data) is read
// through its byte, nonzero as true: reading it as a C++ bool is undefined
// behaviour (the ASan+UBSan build of scripts/sanitize_test.sh reports it).
TEST(Kernels, BoolBytesOtherThanZeroAndOneReadAsTrue) {
  Tensor bytes = tensor({Scalar::integer(2), Scalar::integer(128), Scalar::integer(0), Scalar::integer(1)}, false,
                        DType::UInt8);
  Tensor b = make_view(bytes, {4}, {1}, 0, DType::Bool);
  Tensor f = empty({4}, DType::Float32);
  cpu::copy(f, b);  // contiguous
  EXPECT_EQ(values(f), (std::vector<double>{1, 1, 0, 1}));
  cpu::copy(f, make_view(b, {4}, {0}, 1));  // broadcast
  EXPECT_EQ(values(f), (std::vector<double>{1, 1, 1, 1}));
  Tensor g = empty({2}, DType::Float32);
  cpu::copy(g, make_view(b, {2}, {2}, 0));  // strided: bytes 2 and 0
  EXPECT_EQ(values(g), (std::vector<double>{1, 0}));
  Tensor o = empty({4}, DType::Bool);
  cpu::binary(cpu::BinaryOp::Mul, o, b, b);
  EXPECT_EQ(values(o), (std::vector<double>{1, 1, 0, 1}));
  cpu::binary(cpu::BinaryOp::Mul, o, b, make_view(b, {4}, {0}, 2));  // tensor op scalar (false)
  EXPECT_EQ(values(o), (std::vector<double>{0, 0, 0, 0}));
  Tensor s = make_view(bytes, {2}, {2}, 0, DType::Bool);
  Tensor so = make_view(o, {2}, {2}, 0);
  cpu::binary(cpu::BinaryOp::Add, so, s, s);  // strided
  EXPECT_EQ(values(so), (std::vector<double>{1, 0}));
  cpu::clamp(o, b, std::nullopt, std::nullopt);
  EXPECT_EQ(values(o), (std::vector<double>{1, 1, 0, 1}));
}

}  // namespace
}  // namespace sc::engine
