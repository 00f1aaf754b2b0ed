// Copy ops: layouts, identity, contents, errors (LibTorch 1.13.1 measured).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/views.h"
#include "tests/engine/test_util.h"

namespace sc::engine {
namespace {
using testing::error_of;
using testing::values;

Tensor hdr(const Tensor& b, Shape s, Shape st, int64_t off = 0) { return make_view(b, s, st, off); }

TEST(Contiguous, ReturnsSelfWhenAlreadyContiguous) {
  Tensor a = arange(12, DType::Float32);
  Tensor x = hdr(a, {3, 4}, {4, 1});
  EXPECT_EQ(contiguous(x).id, x.id);
  Tensor xt = hdr(a, {4, 3}, {1, 4});
  Tensor c = contiguous(xt);
  EXPECT_NE(c.id, xt.id);
  EXPECT_NE(c.storage, xt.storage);
  EXPECT_EQ(c.strides, (Shape{3, 1}));
  EXPECT_EQ(values(c), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  EXPECT_EQ(error_of([&] { contiguous(xt, MemoryFormat::Preserve); }),
            "preserve memory format is unsupported by the contiguous operator");
  EXPECT_EQ(contiguous(x, MemoryFormat::Preserve).id, x.id);
}

TEST(Clone, PreserveKeepsDenseStridesAndInfersOtherwise) {
  Tensor a = arange(60, DType::Float32);
  Tensor cl = hdr(a, {2, 3, 2, 5}, {30, 1, 15, 3});  // channels_last, dense
  EXPECT_EQ(clone(cl).strides, cl.strides);
  Tensor s = hdr(a, {3, 4, 3}, {2, 5, 20});  // transposed and sliced: not dense
  Tensor c = clone(s);
  EXPECT_EQ(c.strides, (Shape{1, 3, 12}));
  EXPECT_EQ(values(c), values(s));
  EXPECT_EQ(clone(s, MemoryFormat::Contiguous).strides, (Shape{12, 3, 1}));
  EXPECT_FALSE(c.is_view());
  EXPECT_EQ(c.version().value, 0);
}

TEST(To, AliasesWhenNothingChanges) {
  Tensor a = arange(6, DType::Float32);
  Tensor xt = hdr(a, {3, 2}, {1, 3});
  EXPECT_EQ(to(xt, DType::Float32, std::nullopt).id, xt.id);
  // suggest_memory_format(xt) is contiguous, so to(contiguous) is xt itself
  EXPECT_EQ(to(xt, std::nullopt, MemoryFormat::Contiguous).id, xt.id);
  Tensor d = to(xt, DType::Float64, std::nullopt);
  EXPECT_EQ(d.dtype, DType::Float64);
  EXPECT_EQ(d.strides, (Shape{1, 3}));
  EXPECT_EQ(values(d), values(xt));
}

TEST(Repeat, TilesAndChecksRank) {
  Tensor a = arange(3, DType::Int64);
  Tensor r = repeat(a, {2, 2});
  EXPECT_EQ(r.sizes, (Shape{2, 6}));
  EXPECT_EQ(values(r), (std::vector<double>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}));
  Tensor m = hdr(arange(6, DType::Float32), {2, 3}, {3, 1});
  EXPECT_EQ(error_of([&] { repeat(m, {2}); }),
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  EXPECT_EQ(repeat(m, {0, 1}).numel(), 0);
}

TEST(IndexSelect, GathersAndRaisesIndexError) {
  Tensor m = hdr(arange(6, DType::Float32), {2, 3}, {3, 1});
  Tensor r = index_select(m, 1, {2, 0, 0});
  EXPECT_EQ(values(r), (std::vector<double>{2, 0, 0, 5, 3, 3}));
  try {
    index_select(m, 0, {2});
    FAIL();
  } catch (const TorchError& e) {
    EXPECT_EQ(e.kind, ErrorKind::IndexError);
    EXPECT_EQ(e.message, "index out of range in self");
  }
}

// Each element's bytes, in row-major order (NaN bits included).
std::vector<uint8_t> element_bytes(const Tensor& t) {
  std::vector<uint8_t> out;
  const int64_t n = t.numel(), item = itemsize(t.dtype);
  for (int64_t k = 0; k < n; ++k) {
    int64_t rem = k, off = t.storage_offset;
    for (size_t d = t.sizes.size(); d-- > 0;) {
      off += (rem % t.sizes[d]) * t.strides[d];
      rem /= t.sizes[d];
    }
    const auto* p = reinterpret_cast<const uint8_t*>(t.storage->data()) + off * item;
    out.insert(out.end(), p, p + item);
  }
  return out;
}

// result.select(d, k) holds exactly the bytes of self.select(d, index[k]).
void expect_selected(const Tensor& self, int64_t dim, const Shape& index) {
  const Tensor r = index_select(self, dim, index);
  const int64_t d = dim < 0 ? dim + self.dim() : dim;
  ASSERT_EQ(r.sizes[d], static_cast<int64_t>(index.size()));
  for (size_t k = 0; k < index.size(); ++k)
    EXPECT_EQ(element_bytes(select(r, d, static_cast<int64_t>(k))), element_bytes(select(self, d, index[k])))
        << "k = " << k;
}

// Note [index_select's small slices gathered]: long index lists over small
// slices (gathered element by element) and larger slices (copied per slice)
// give every slice's bytes, in any layout and dtype.
TEST(IndexSelect, GathersEverySliceInAnyLayout) {
  Shape many;
  for (int64_t k = 0; k < 300; ++k) many.push_back((k * 7) % 2);
  Tensor col = hdr(arange(2, DType::Float32), {2, 1}, {1, 1});
  const uint32_t signaling_nan = 0x7f800001u;  // bits kept as they are
  std::memcpy(col.storage->data() + 4, &signaling_nan, 4);
  expect_selected(col, 0, many);
  Tensor x = t(hdr(arange(12, DType::Int16), {3, 4}, {4, 1}));  // [4,3], strides [1,4]
  expect_selected(x, 0, {3, 0, 3, 1});
  expect_selected(x, 1, {2, 2, 0});
  expect_selected(x, -1, many);
  Tensor big = hdr(arange(4 * 9 * 9, DType::Float64), {4, 9, 9}, {81, 9, 1});  // slices of 81: copied per slice
  expect_selected(big, 0, {3, 1, 1});
  expect_selected(big, 2, {8, 0});
  Tensor ones_dims = hdr(arange(10, DType::BFloat16), {1, 5, 1, 2}, {10, 2, 7, 1});
  expect_selected(ones_dims, 1, {4, 0, 2, 2});
  expect_selected(ones_dims, 3, {1, 1, 0});
  // a size-1 dim's stride may be INT64_MAX: byte strides must not overflow
  // (UBSan in the ASan stage's generated sample); such a self takes the per-slice copy
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  Tensor huge = hdr(arange(6, DType::Float32), {1, 3, 2}, {kMax, 2, 1});
  expect_selected(huge, 0, {0, 0, 0});
  expect_selected(huge, 1, {2, 0});
  Tensor huge_inner = hdr(arange(6, DType::Int16), {3, 2, 1}, {2, 1, kMax});
  expect_selected(huge_inner, 0, {2, 1, 2, 0});
}

// Undefined bytes (and bool bytes that are neither 0 nor 1) still reach the
// result as undefined elements: such a self takes the per-slice copy.
TEST(IndexSelect, CarriesUndefinedElementsOfSmallSlices) {
  Tensor a = hdr(arange(4, DType::Float32), {4, 1}, {1, 1});
  a.storage->mark_undefined(2 * 4, 4);  // element 2
  Tensor r = index_select(a, 0, {2, 0, 2, 1});
  std::vector<uint8_t> expected(16, 0);
  for (int b = 0; b < 4; ++b) expected[static_cast<size_t>(b)] = expected[static_cast<size_t>(8 + b)] = 1;
  EXPECT_EQ(r.storage->undefined_mask(), expected);
  Tensor bytes = arange(4, DType::UInt8);  // 0,1,2,3: as bool, 2 and 3 are undefined reads
  Tensor flags = view_dtype(bytes, DType::Bool);
  Tensor rb = index_select(flags, 0, {1, 3, 0});
  EXPECT_EQ(rb.storage->undefined_mask(), (std::vector<uint8_t>{0, 1, 0}));
}

TEST(Flip, ReversesAndChecksDuplicates) {
  Tensor m = hdr(arange(6, DType::Float32), {2, 3}, {3, 1});
  EXPECT_EQ(values(flip(m, {0, 1})), (std::vector<double>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(values(flip(m, {-1})), (std::vector<double>{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(error_of([&] { flip(m, {0, 0}); }), "dim 0 appears multiple times in the list of dims");
}

TEST(EmptyLike, MarksContentsUndefinedAndZerosLikeIsZero) {
  Tensor m = hdr(arange(6, DType::Float32), {2, 3}, {1, 2});
  Tensor e = empty_like(m);
  EXPECT_EQ(e.strides, (Shape{1, 2}));
  EXPECT_TRUE(e.storage->has_undefined_bytes());
  Tensor z = zeros_like(m, DType::Int32);
  EXPECT_EQ(z.dtype, DType::Int32);
  EXPECT_FALSE(z.storage->has_undefined_bytes());
  EXPECT_EQ(values(z), (std::vector<double>(6, 0)));
}

}  // namespace
}  // namespace sc::engine
