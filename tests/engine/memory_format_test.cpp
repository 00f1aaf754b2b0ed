// LibTorch's memory-format and output-stride rules (values measured with LibTorch 1.13.1).
#include <gtest/gtest.h>

#include "engine/creation.h"
#include "engine/error.h"
#include "engine/memory_format.h"

namespace sc::engine {
namespace {

TEST(SuggestMemoryFormat, ChannelsLastAndAmbiguousCases) {
  EXPECT_EQ(suggest_memory_format({2, 3, 4, 5}, {60, 1, 15, 3}), MemoryFormat::ChannelsLast);
  EXPECT_EQ(suggest_memory_format({2, 3, 4, 5}, {60, 20, 5, 1}), MemoryFormat::Contiguous);
  // N111 with channels_last strides [1,1,1,1]: ambiguous, contiguous wins
  EXPECT_EQ(suggest_memory_format({2, 1, 1, 1}, {1, 1, 1, 1}), MemoryFormat::Contiguous);
  // C == 1 channels_last strides (20,1,5,1) are still channels_last-like
  EXPECT_EQ(suggest_memory_format({2, 1, 4, 5}, {20, 1, 5, 1}), MemoryFormat::ChannelsLast);
  // H == W == 1: (3,1,3,3)
  EXPECT_EQ(suggest_memory_format({2, 3, 1, 1}, {3, 1, 3, 3}), MemoryFormat::ChannelsLast);
  // a size-0 dim is never channels_last-like
  EXPECT_EQ(suggest_memory_format({2, 0, 4, 5}, {0, 1, 0, 0}), MemoryFormat::Contiguous);
  EXPECT_EQ(suggest_memory_format({2, 3, 4, 5, 6}, {360, 1, 90, 18, 3}), MemoryFormat::ChannelsLast3d);
  EXPECT_EQ(suggest_memory_format({3, 4}, {1, 3}), MemoryFormat::Contiguous);
}

TEST(FreshStrides, ChannelsLastDoesNotClampSizeZero) {
  EXPECT_EQ(strides_for_format({2, 3, 4, 5}, MemoryFormat::ChannelsLast), (Shape{60, 1, 15, 3}));
  EXPECT_EQ(strides_for_format({2, 0, 4, 5}, MemoryFormat::ChannelsLast), (Shape{0, 1, 0, 0}));
  EXPECT_EQ(strides_for_format({2, 3, 0, 5}, MemoryFormat::ChannelsLast), (Shape{0, 1, 15, 3}));
  EXPECT_EQ(strides_for_format({2, 0, 4, 5, 6}, MemoryFormat::ChannelsLast3d), (Shape{0, 1, 0, 0, 0}));
  EXPECT_EQ(strides_for_format({2, 0, 4}, MemoryFormat::Contiguous), (Shape{4, 4, 1}));
  try {
    strides_for_format({3, 4}, MemoryFormat::ChannelsLast);
    FAIL();
  } catch (const TorchError& e) {
    EXPECT_EQ(e.message, "required rank 4 tensor to use channels_last format");
  }
}

TEST(InferDenseStrides, KeepsThePermutation) {
  // measured: empty_like of arange(60).reshape(3,4,5).transpose(0,2)[::2]
  EXPECT_EQ(infer_dense_strides({3, 4, 3}, {2, 5, 20}), (Shape{1, 3, 12}));
  EXPECT_EQ(infer_dense_strides({4, 2, 2}, {1, 12, 8}), (Shape{1, 8, 4}));
  EXPECT_EQ(infer_dense_strides({5}, {7}), (Shape{1}));
  EXPECT_EQ(infer_dense_strides({}, {}), (Shape{}));
}

TEST(IteratorOutputStrides, FollowsInputs) {
  Tensor base = arange(120, DType::Float32);
  auto hdr = [&](Shape s, Shape st) { return make_view(base, s, st, 0); };
  Tensor xt = hdr({4, 3, 2}, {1, 4, 12});
  Tensor cl = hdr({2, 3, 4, 5}, {60, 1, 15, 3});
  // add xt 1: a 0-d operand disables fast setup; the permutation follows xt
  EXPECT_EQ(iterator_output_strides({{nullptr, true}, {&xt}}, {4, 3, 2}, false, 4), (Shape{1, 4, 12}));
  // channels_last in, channels_last out (fast setup)
  EXPECT_EQ(iterator_output_strides({{nullptr, true}, {&cl}, {&cl}}, {2, 3, 4, 5}, true, 4), (Shape{60, 1, 15, 3}));
  // contiguous and transposed: the first input with a strict order decides
  Tensor c = hdr({4, 3, 2}, {6, 2, 1});
  EXPECT_EQ(iterator_output_strides({{nullptr, true}, {&c}, {&xt}}, {4, 3, 2}, true, 4), (Shape{6, 2, 1}));
  EXPECT_EQ(iterator_output_strides({{nullptr, true}, {&xt}, {&c}}, {4, 3, 2}, true, 4), (Shape{1, 4, 12}));
}

}  // namespace
}  // namespace sc::engine

namespace sc::engine {
namespace {

// compatible_stride multiplies in bytes and wraps: a float32 [2^62, 0] output
// after a [1,2]-strided input gets stride 0 for dim 1, not 2^62 (1.13, measured).
TEST(IteratorOutputStrides, CompatibleStrideWrapsInBytes) {
  Tensor in = empty_strided({int64_t{1} << 62, 0}, {1, 2}, DType::Float32);
  EXPECT_EQ(iterator_output_strides({{nullptr, true}, {&in}}, {int64_t{1} << 62, 0}, false, 4), (Shape{1, 0}));
}

}  // namespace
}  // namespace sc::engine
