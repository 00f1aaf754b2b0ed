// cpu::copy over reordered, coalesced and tiled loops (Note [Tiled
// transposing copy]) gives byte for byte what a plain element-by-element
// loop gives, for every dtype pair, transposes of every size around the tile
// edges, negative strides, offsets, broadcasts, and any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "engine/creation.h"
#include "engine/kernels/cpu/kernels.h"
#include "engine/kernels/cpu/parallel.h"
#include "engine/kernels/cpu/types.h"
#include "engine/scalar.h"
#include "engine/views.h"

namespace sc::engine {
namespace {

constexpr DType kAll[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                          DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};

int64_t element_offset(const Tensor& t, int64_t k) {
  int64_t off = t.storage_offset;
  for (size_t d = t.sizes.size(); d-- > 0;) {
    off += (k % t.sizes[d]) * t.strides[d];
    k /= t.sizes[d];
  }
  return off;
}

// The reference: row-major over dst's indices, one scalar conversion each.
void reference_copy(const Tensor& dst, const Tensor& src) {
  cpu::dispatch_dtype(dst.dtype, [&](auto dt) {
    using D = typename decltype(dt)::type;
    cpu::dispatch_dtype(src.dtype, [&](auto st) {
      using S = typename decltype(st)::type;
      for (int64_t k = 0; k < dst.numel(); ++k) {
        S s;
        std::memcpy(&s, src.storage->data() + element_offset(src, k) * sizeof(S), sizeof(S));
        const D d = cpu::convert<D>(s);
        std::memcpy(dst.storage->data() + element_offset(dst, k) * sizeof(D), &d, sizeof(D));
      }
    });
  });
}

// Random bytes (bool: 0 or 1, so every element is a valid bool).
void randomise(const Tensor& t, std::mt19937& rng) {
  std::byte* p = t.storage->data();
  for (int64_t i = 0; i < t.storage->nbytes(); ++i)
    p[i] = static_cast<std::byte>(t.dtype == DType::Bool ? rng() % 2 : rng() % 256);
}

Tensor with_geometry(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
  Tensor t = base;
  t.sizes = std::move(sizes);
  t.strides = std::move(strides);
  t.storage_offset = offset;
  return t;
}

// dst (fresh, `dst_strides`) <- src, by cpu::copy and by the reference.
void expect_same_as_reference(const Tensor& src, const Shape& dst_strides, DType dst_dtype) {
  Tensor a = empty_strided(src.sizes, dst_strides, dst_dtype);
  Tensor b = empty_strided(src.sizes, dst_strides, dst_dtype);
  cpu::copy(a, src);
  reference_copy(b, src);
  ASSERT_EQ(0, std::memcmp(a.storage->data(), b.storage->data(), static_cast<size_t>(a.storage->nbytes())))
      << dtype_name(src.dtype) << " -> " << dtype_name(dst_dtype) << " sizes " << src.sizes.size() << "-d";
}

TEST(CopyKernelTiled, TransposesAroundTheTileEdgesForEveryDtypePair) {
  std::mt19937 rng(3);
  for (DType s : kAll)
    for (DType d : kAll)
      for (auto [n0, n1] : {std::pair<int64_t, int64_t>{8, 8}, {33, 65}, {31, 7}, {64, 97}, {1, 40}, {129, 4}}) {
        Tensor base = empty({n1, n0}, s);
        randomise(base, rng);
        // src[i][j] = base[j][i]: a transposed view; dst contiguous [n0, n1].
        const Tensor src = with_geometry(base, {n0, n1}, {1, n0}, 0);
        expect_same_as_reference(src, {n1, 1}, d);
      }
}

TEST(CopyKernelTiled, ChannelsLastNegativeStridesOffsetsAndBroadcasts) {
  std::mt19937 rng(4);
  for (DType s : {DType::Float32, DType::Float64, DType::Float16, DType::Int8}) {
    Tensor base = empty({3 * 5 * 9 * 11 + 7}, s);
    randomise(base, rng);
    // NCHW contiguous -> channels_last.
    const Tensor nchw = with_geometry(base, {3, 5, 9, 11}, {495, 99, 11, 1}, 7);
    expect_same_as_reference(nchw, {495, 1, 55, 5}, s);
    // A flipped source (negative strides on two dims).
    const Tensor flipped = with_geometry(base, {3, 5, 9, 11}, {495, -99, 11, -1}, 7 + 4 * 99 + 10);
    expect_same_as_reference(flipped, {495, 1, 55, 5}, s);
    expect_same_as_reference(flipped, {495, 99, 11, 1}, DType::Float32);
    // A source broadcast along one dim, transposed along the others.
    const Tensor bcast = with_geometry(base, {4, 20, 30}, {0, 1, 20}, 3);
    expect_same_as_reference(bcast, {600, 30, 1}, s);
  }
}

TEST(CopyKernelTiled, RandomDenseLayoutsMatchTheReference) {
  std::mt19937 rng(5);
  for (int iter = 0; iter < 400; ++iter) {
    const int nd = 1 + static_cast<int>(rng() % 4);
    Shape sizes(nd);
    for (auto& x : sizes) x = 1 + static_cast<int64_t>(rng() % 24);
    // Two random dim permutations give the source's and destination's layouts.
    auto dense_strides = [&](bool flip) {
      std::vector<int> perm(nd);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      Shape st(nd);
      int64_t acc = 1;
      for (int i = nd; i-- > 0;) {
        st[perm[i]] = acc * ((flip && rng() % 3 == 0) ? -1 : 1);
        acc *= sizes[perm[i]];
      }
      return st;
    };
    const DType s = kAll[rng() % 10], d = kAll[rng() % 10];
    int64_t numel = 1;
    for (int64_t x : sizes) numel *= x;
    Tensor base = empty({numel}, s);
    randomise(base, rng);
    Shape st = dense_strides(true);
    int64_t offset = 0;  // the negative strides start from the far end
    for (int i = 0; i < nd; ++i)
      if (st[i] < 0) offset += -st[i] * (sizes[i] - 1);
    const Tensor src = with_geometry(base, sizes, st, offset);
    expect_same_as_reference(src, dense_strides(false), d);
  }
}

TEST(CopyKernelThreads, AnyThreadCountGivesTheSameBytes) {
  std::mt19937 rng(6);
  Tensor base = empty({700, 900}, DType::Float32);
  randomise(base, rng);
  const Tensor t = with_geometry(base, {900, 700}, {1, 900}, 0);
  Tensor one = empty({900, 700}, DType::Float32), many = empty({900, 700}, DType::Float32);
  Tensor half_one = empty({700, 900}, DType::Float16), half_many = empty({700, 900}, DType::Float16);
  cpu::copy(one, t);
  cpu::copy(half_one, base);
  cpu::set_num_threads(3);
  EXPECT_EQ(cpu::num_threads(), 3);
  cpu::copy(many, t);
  cpu::copy(half_many, base);
  cpu::set_num_threads(1);
  EXPECT_EQ(0, std::memcmp(one.storage->data(), many.storage->data(), static_cast<size_t>(one.storage->nbytes())));
  EXPECT_EQ(0, std::memcmp(half_one.storage->data(), half_many.storage->data(),
                           static_cast<size_t>(half_one.storage->nbytes())));
}

TEST(CopyKernelThreads, ParallelForCoversEveryIndexOnceAndRethrows) {
  cpu::set_num_threads(4);
  std::vector<int> hits(1000, 0);
  cpu::parallel_for(1000, cpu::kParallelMinElements, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) ++hits[static_cast<size_t>(i)];
  });
  EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
  EXPECT_THROW(cpu::parallel_for(8, cpu::kParallelMinElements,
                                 [](int64_t b, int64_t) {
                                   if (b > 0) throw std::runtime_error("range failed");
                                 }),
               std::runtime_error);
  cpu::set_num_threads(1);
}

// cpu::fill of a contiguous run (written in blocks of 8, then one by one)
// writes each of its elements and nothing beside it, for every dtype and
// run length around the block size.
TEST(CpuFill, WritesEveryElementOfAContiguousRunAndNothingBeside) {
  for (DType dt : kAll) {
    for (int64_t n : {1, 7, 8, 9, 16, 19}) {
      Tensor t = empty({n + 2}, dt);
      const int64_t item = itemsize(dt);
      std::memset(t.storage->data(), 0x5a, static_cast<size_t>((n + 2) * item));
      cpu::fill(slice(t, 0, 1, n + 1, 1), Scalar::integer(1));
      for (int64_t k = 0; k < n + 2; ++k) {
        const std::byte* p = t.storage->data() + k * item;
        if (k == 0 || k == n + 1) {
          for (int64_t b = 0; b < item; ++b) EXPECT_EQ(p[b], std::byte{0x5a}) << dtype_name(dt) << " n=" << n << " k=" << k;
        } else {
          EXPECT_EQ(load_double(dt, p), 1.0) << dtype_name(dt) << " n=" << n << " k=" << k;
        }
      }
    }
  }
}

}  // namespace
}  // namespace sc::engine
