// Note [Pieces of a run] (loop.h): every CPU kernel family run on 2 and 3
// threads writes the bytes it writes on one thread, NaN payloads included:
// copy/convert for every dtype pair, fill, add/sub/mul/div (with and without
// the NaN-choice question), neg, clamp and vector_loop_nans, on odd sizes
// above the split size where the cuts fall inside long runs: a 1-D
// contiguous run (at an odd offset), rows of a sliced matrix, a broadcast
// row, a scalar operand, a negative stride, a transposed input, in place.
// The only bytes allowed to differ are those of elements whose two operands
// are NaNs with different bits (Note [NaN operand choice]): both NaNs.
// Also piece_begin's cuts themselves and run_geometry_span's coverage.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/creation.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/loop.h"
#include "engine/kernels/cpu/parallel.h"
#include "engine/kernels/cpu/types.h"
#include "engine/nan_choice.h"

namespace sc::engine {
namespace {

using cpu::BinaryOp;

constexpr DType kAll[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                          DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};
// The dtypes of the layouts other than the first two (every pair of every
// dtype there): the vectorised and NaN-bit paths, and integers.
constexpr DType kSome[] = {DType::UInt8, DType::Int32, DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};

bool every_dtype(const std::string& layout) { return layout == "contiguous_1d_odd_offset" || layout == "broadcast_row"; }
bool in_sample(DType d) { return std::find(std::begin(kSome), std::end(kSome), d) != std::end(kSome); }

// Loops from kMinElements on are split (the default, kParallelMinElements,
// would make these tests slow): the cuts fall as they do in large loops.
constexpr int64_t kMinElements = 4096;

struct Threads {
  explicit Threads(int n) {
    cpu::set_num_threads(n);
    cpu::set_parallel_min_elements(kMinElements);
  }
  ~Threads() {
    cpu::set_num_threads(1);
    cpu::set_parallel_min_elements(cpu::kParallelMinElements);
  }
};

// Random bytes; for floating dtypes about a quarter of the elements are NaNs
// with a few signs and payloads (quiet and signalling), so NaN pairs with
// equal and with different bits both occur; bool: 0 or 1.
void randomise(Storage& s, DType d, std::mt19937_64& rng) {
  const int64_t item = itemsize(d), n = s.nbytes() / item;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = rng();
    if (d == DType::Bool) bits &= 1;
    if (is_floating(d) && bits % 4 == 0) {
      const uint64_t payload = 1 + (bits >> 8) % 5, sign = (bits >> 16) % 2;
      if (d == DType::Float16) bits = (sign << 15) | 0x7c00u | (payload << 7);
      else if (d == DType::BFloat16) bits = (sign << 15) | 0x7f80u | payload << 4;
      else if (d == DType::Float32) bits = (sign << 31) | 0x7f800000u | (payload << 19);
      else bits = (sign << 63) | 0x7ff0000000000000ull | (payload << 48);
    }
    std::memcpy(s.data() + i * item, &bits, static_cast<size_t>(item));
  }
}

Tensor random_tensor(int64_t elements, DType d, std::mt19937_64& rng) {
  Tensor t = empty({elements}, d);
  randomise(*t.storage, d, rng);
  return t;
}

Tensor view(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
  return make_view(base, std::move(sizes), std::move(strides), offset);
}

// A layout: the output's geometry and each input's, over one shape.
struct Layout {
  std::string name;
  Shape sizes;
  // (elements of the base storage, sizes, strides, offset) per operand
  struct Geometry {
    int64_t base;
    Shape strides;
    int64_t offset;
  };
  Geometry out, a, b;
  bool in_place = false;  // out is a (same storage and geometry)
};

std::vector<Layout> layouts() {
  const int64_t n = 10007;  // odd, > kMinElements: 2 and 3 pieces
  return {
      {"contiguous_1d_odd_offset", {n}, {n + 3, {1}, 3}, {n + 5, {1}, 5}, {n + 1, {1}, 1}},
      {"rows_of_a_slice", {3, 3339}, {3 * 3400, {3400, 1}, 7}, {3 * 3339, {3339, 1}, 0}, {3 * 3400, {3400, 1}, 61}},
      {"broadcast_row", {103, 97}, {103 * 97, {97, 1}, 0}, {103 * 97, {97, 1}, 0}, {97, {0, 1}, 0}},
      {"scalar_operand", {n}, {n, {1}, 0}, {n, {1}, 0}, {1, {0}, 0}},
      {"scalar_first", {n}, {n, {1}, 0}, {1, {0}, 0}, {n, {1}, 0}},
      {"negative_stride", {n}, {n, {1}, 0}, {n, {-1}, n - 1}, {2 * n, {2}, 1}},
      {"transposed_input", {101, 99}, {101 * 99, {99, 1}, 0}, {101 * 99, {1, 101}, 0}, {101 * 99, {99, 1}, 0}},
      {"in_place", {n}, {n + 2, {1}, 2}, {n + 2, {1}, 2}, {n, {1}, 0}, true},
  };
}

struct Operands {
  Tensor out, a, b;
};

// Fresh random operands of dtypes (out, in) for a layout (the same bytes
// for the same seed).
Operands make_operands(const Layout& l, DType out_dtype, DType in_dtype, unsigned seed) {
  std::mt19937_64 rng(seed);
  Operands o;
  const Tensor a_base = random_tensor(l.a.base, in_dtype, rng);
  const Tensor b_base = random_tensor(l.b.base, in_dtype, rng);
  o.a = view(a_base, l.sizes, l.a.strides, l.a.offset);
  o.b = view(b_base, l.sizes, l.b.strides, l.b.offset);
  if (l.in_place && out_dtype == in_dtype) {
    o.out = o.a;
  } else {
    const Tensor out_base = random_tensor(l.out.base, out_dtype, rng);
    o.out = view(out_base, l.sizes, l.out.strides, l.out.offset);
  }
  return o;
}

// Runs `kernel` on fresh operands with 1 thread and with `threads`, and
// compares every byte of the written storage, except the bytes of the
// elements at `free_offsets` (byte offsets), which must be NaNs in both.
void expect_same_bytes(const std::string& what, const Layout& l, DType out_dtype, DType in_dtype,
                       const std::function<void(const Operands&)>& kernel,
                       const std::function<std::vector<int64_t>(const Operands&)>& free_offsets = nullptr) {
  const Operands one = make_operands(l, out_dtype, in_dtype, 1234);
  const std::vector<int64_t> free = free_offsets ? free_offsets(one) : std::vector<int64_t>{};
  kernel(one);
  for (int threads : {2, 3}) {
    const Operands many = make_operands(l, out_dtype, in_dtype, 1234);
    {
      Threads t(threads);
      kernel(many);
    }
    const Storage& x = *one.out.storage;
    const Storage& y = *many.out.storage;
    ASSERT_EQ(x.nbytes(), y.nbytes());
    std::vector<uint8_t> mask(static_cast<size_t>(x.nbytes()), 0);
    const int64_t item = itemsize(out_dtype);
    for (int64_t off : free)
      for (int64_t k = 0; k < item; ++k) mask[static_cast<size_t>(off + k)] = 1;
    int64_t differing = 0, first = -1;
    for (int64_t i = 0; i < x.nbytes(); ++i) {
      if (mask[static_cast<size_t>(i)] || x.data()[i] == y.data()[i]) continue;
      if (differing++ == 0) first = i;
    }
    EXPECT_EQ(differing, 0) << what << " " << l.name << " " << dtype_name(out_dtype) << " <- "
                            << dtype_name(in_dtype) << ", " << threads << " threads: first differing byte "
                            << first;
  }
}

TEST(CpuKernelThreads, CopyAndConvertWriteTheOneThreadBytes) {
  for (const Layout& l : layouts()) {
    if (l.in_place) continue;
    for (DType d : kAll)
      for (DType s : kAll) {
        if (!every_dtype(l.name) && !(in_sample(d) && in_sample(s))) continue;
        expect_same_bytes("copy", l, d, s, [](const Operands& o) { cpu::copy(o.out, o.a); });
        if (d == s || is_floating(d) != is_floating(s)) continue;  // (a subset: the reduced-float paths)
        expect_same_bytes("copy_kernel_only", l, d, s, [](const Operands& o) { cpu::copy_kernel_only(o.out, o.a); });
        expect_same_bytes("convert", l, d, s, [](const Operands& o) { cpu::convert(o.out, o.a); });
      }
  }
}

TEST(CpuKernelThreads, FillWritesTheOneThreadBytes) {
  for (const Layout& l : layouts())
    for (DType d : kAll)
      expect_same_bytes("fill", l, d, d, [](const Operands& o) { cpu::fill(o.out, Scalar::integer(7)); });
}

TEST(CpuKernelThreads, BinaryWritesTheOneThreadBytes) {
  for (const Layout& l : layouts())
    for (DType d : kSome) {
      for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div}) {
        if (op == BinaryOp::Div && !is_floating(d)) continue;
        const std::string name = "binary op " + std::to_string(static_cast<int>(op));
        auto choices = [](const Operands& o) { return elements_choosing_between_nans(o.out, o.a, o.b); };
        expect_same_bytes(name, l, d, d, [op](const Operands& o) { cpu::binary(op, o.out, o.a, o.b); }, choices);
        // Asked for the NaN-choice offsets: the same bytes, and the same set.
        std::vector<int64_t> found_one, found_many;
        expect_same_bytes(
            name + " noting", l, d, d,
            [&, op](const Operands& o) {
              std::vector<int64_t> found;
              cpu::binary(op, o.out, o.a, o.b, &found);
              std::sort(found.begin(), found.end());
              (cpu::num_threads() == 1 ? found_one : found_many) = found;
              if (cpu::num_threads() > 1) {
                EXPECT_EQ(found_one, found_many) << name << " " << l.name;
              }
            },
            choices);
      }
    }
}

TEST(CpuKernelThreads, UnaryKernelsWriteTheOneThreadBytes) {
  for (const Layout& l : layouts())
    for (DType d : kSome) {
      expect_same_bytes("neg", l, d, d, [](const Operands& o) { cpu::neg(o.out, o.a); });
      expect_same_bytes("clamp", l, d, d, [](const Operands& o) {
        cpu::clamp(o.out, o.a, Scalar::integer(3), Scalar::integer(100));
      });
      expect_same_bytes("clamp_lo", l, d, d, [](const Operands& o) { cpu::clamp(o.out, o.a, Scalar::integer(1), std::nullopt); });
    }
  for (const Layout& l : layouts())
    expect_same_bytes("vector_loop_nans", l, DType::BFloat16, DType::BFloat16,
                      [](const Operands& o) { cpu::vector_loop_nans(o.out, o.a); });
}

// The test above would pass if nothing were split: check that these layouts
// are cut, inside runs, at multiples of kPieceAlign from a run's start.
TEST(CpuKernelThreads, PiecesCutInsideRunsAtAlignedPoints) {
  cpu::LoopGeometry<1> g;
  g.ndim = 2;
  g.sizes[0] = 23339;
  g.sizes[1] = 3;
  g.strides[0][0] = 4;
  g.strides[0][1] = 4 * 23400;
  const int64_t numel = 3 * 23339;
  bool inside = false;
  for (int64_t pieces : {2, 3, 5, 7}) {
    int64_t prev = 0;
    for (int64_t t = 0; t <= pieces; ++t) {
      const int64_t b = cpu::piece_begin(g, numel, t, pieces);
      EXPECT_LE(prev, b);
      EXPECT_EQ(b % g.sizes[0] % cpu::kPieceAlign, 0) << b;
      EXPECT_LE(numel * t / pieces - b, cpu::kPieceAlign) << "near an equal share";
      inside = inside || b % g.sizes[0] != 0;
      prev = b;
    }
    EXPECT_EQ(cpu::piece_begin(g, numel, 0, pieces), 0);
    EXPECT_EQ(cpu::piece_begin(g, numel, pieces, pieces), numel);
  }
  EXPECT_TRUE(inside);
}

// run_geometry_span visits exactly elements [begin, end) in walk order, for
// spans that start and end inside runs and cross several dims.
TEST(CpuKernelThreads, SpansVisitTheirElementsInWalkOrder) {
  cpu::LoopGeometry<1> g;
  g.ndim = 3;
  g.sizes[0] = 5;
  g.sizes[1] = 3;
  g.sizes[2] = 4;
  g.strides[0][0] = 1;
  g.strides[0][1] = 10;
  g.strides[0][2] = 100;
  const int64_t numel = 60;
  std::vector<std::byte> buffer(400);
  std::vector<int64_t> all;  // element offsets in walk order
  for (int64_t k = 0; k < 4; ++k)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t i = 0; i < 5; ++i) all.push_back(100 * k + 10 * j + i);
  for (int64_t begin = 0; begin <= numel; ++begin)
    for (int64_t end = begin; end <= numel; end += 7) {
      std::vector<int64_t> seen;
      auto inner = [&](std::byte* const* p, const int64_t* st, int64_t n) {
        EXPECT_GT(n, 0);
        for (int64_t i = 0; i < n; ++i) seen.push_back(p[0] - buffer.data() + i * st[0]);
      };
      cpu::run_geometry_span<1>(g, {buffer.data()}, begin, end, inner);
      EXPECT_EQ(seen, std::vector<int64_t>(all.begin() + begin, all.begin() + end)) << begin << ".." << end;
    }
}

}  // namespace
}  // namespace sc::engine
