// The vectorised float <-> float16/bfloat16 runs give bit for bit what the
// scalar conversions of engine/half.h give (rounding, overflow, subnormals,
// NaNs), at every position of a run (vector body and scalar tail).
#include "engine/kernels/cpu/half_convert.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "engine/half.h"

namespace sc::engine::cpu {
namespace {

std::vector<float> interesting_floats() {
  std::vector<uint32_t> bits = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                                0x7f800001u, 0x7fbfffffu, 0xffffffffu, 0x7fffffffu, 0x00000001u, 0x807fffffu,
                                0x477ff000u, 0x477fefffu, 0x477ff001u, 0xc77ff000u, 0x38800000u, 0x387fffffu,
                                0x33000000u, 0x33000001u, 0x32ffffffu, 0x33800000u, 0x3f800000u, 0x3f801000u,
                                0x3f803000u, 0x3f800fffu, 0x3f808000u, 0x3f818000u, 0x7f7fffffu, 0x3f7fffffu};
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) bits.push_back(rng());
  // Halfway cases for both formats, around every float16 exponent.
  for (uint32_t e = 90; e < 160; ++e)
    for (uint32_t m : {0x1000u, 0x3000u, 0x0fffu, 0x1001u, 0x8000u, 0x18000u, 0x7fffu, 0x8001u})
      for (uint32_t sign : {0u, 0x80000000u}) bits.push_back(sign | (e << 23) | m);
  std::vector<float> out;
  for (uint32_t b : bits) out.push_back(bits_to_float(b));
  return out;
}

TEST(HalfConvert, FloatToHalfMatchesScalarBitForBit) {
  const std::vector<float> in = interesting_floats();
  std::vector<uint16_t> out(in.size());
  float_to_half_run(out.data(), in.data(), static_cast<int64_t>(in.size()));
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(out[i], float_to_half(in[i])) << std::hex << "float bits 0x" << float_to_bits(in[i]);
}

TEST(HalfConvert, FloatToBFloat16MatchesScalarBitForBit) {
  const std::vector<float> in = interesting_floats();
  std::vector<uint16_t> out(in.size());
  float_to_bfloat16_run(out.data(), in.data(), static_cast<int64_t>(in.size()));
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(out[i], float_to_bfloat16(in[i], BFloat16Nan::Vector)) << std::hex << "float bits 0x" << float_to_bits(in[i]);
}

TEST(HalfConvert, EveryHalfAndBFloat16ToFloatMatchesScalarBitForBit) {
  std::vector<uint16_t> in(65536 + 5);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint16_t>(i);
  std::vector<float> out(in.size());
  half_to_float_run(out.data(), in.data(), static_cast<int64_t>(in.size()));
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(float_to_bits(out[i]), float_to_bits(half_to_float(in[i]))) << std::hex << "half 0x" << in[i];
  bfloat16_to_float_run(out.data(), in.data(), static_cast<int64_t>(in.size()));
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(float_to_bits(out[i]), float_to_bits(bfloat16_to_float(in[i]))) << std::hex << "bf16 0x" << in[i];
}

TEST(HalfConvert, EveryRunLengthAndOffsetAgrees) {
  // Lengths 0..40 at offsets 0..3: vector bodies, tails and unaligned starts.
  const std::vector<float> in = interesting_floats();
  for (int64_t off = 0; off < 4; ++off)
    for (int64_t n = 0; n <= 40; ++n) {
      std::vector<uint16_t> h(static_cast<size_t>(n) + 1, 0xabcd), b(static_cast<size_t>(n) + 1, 0xabcd);
      float_to_half_run(h.data(), in.data() + off, n);
      float_to_bfloat16_run(b.data(), in.data() + off, n);
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(h[i], float_to_half(in[off + i]));
        ASSERT_EQ(b[i], float_to_bfloat16(in[off + i], BFloat16Nan::Vector));
      }
      EXPECT_EQ(h[n], 0xabcd) << "wrote past the run";
      EXPECT_EQ(b[n], 0xabcd) << "wrote past the run";
    }
}

}  // namespace
}  // namespace sc::engine::cpu
