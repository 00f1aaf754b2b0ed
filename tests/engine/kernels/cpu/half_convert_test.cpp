// Every vectorised float <-> float16/bfloat16 run this CPU can execute
// (half_conversions_available: AVX512F, F16C/AVX2, and the scalar loops)
// gives bit for bit what the scalar conversions of engine/half.h give, under
// both version profiles (float -> float16 NaN bits: HalfFromFloatKeepsNanPayload):
// all 65,536 float16 and bfloat16 values to float, and floats around every
// float16 and bfloat16 rounding boundary (the midpoint, one ulp either side,
// the value itself, both signs), the overflow threshold, subnormals, NaNs
// with payloads (quiet and signalling, both signs), infinities and random
// bits; at every position of a run (vector body and scalar tail).
#include "engine/kernels/cpu/half_convert.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/half.h"
#include "engine/version_profile.h"

namespace sc::engine::cpu {
namespace {

constexpr const char* kProfiles[] = {"1.13", "2.15"};

std::vector<float> floats_of(const std::vector<uint32_t>& bits) {
  std::vector<float> out;
  out.reserve(bits.size());
  for (uint32_t b : bits) out.push_back(bits_to_float(b));
  return out;
}

// Around every float16 rounding boundary: for each pair of neighbouring
// finite float16 values a < b, their midpoint and one float ulp either side,
// and a itself; both signs. Plus the overflow threshold (65520 = 0x477ff000).
std::vector<uint32_t> half_boundaries() {
  std::vector<uint32_t> bits;
  for (uint32_t h = 0; h < 0x7bffu; ++h) {
    const double a = half_to_float(static_cast<uint16_t>(h)), b = half_to_float(static_cast<uint16_t>(h + 1));
    const uint32_t mid = float_to_bits(static_cast<float>((a + b) / 2));  // exact: 12 significant bits
    for (uint32_t x : {float_to_bits(static_cast<float>(a)), mid - 1, mid, mid + 1})
      for (uint32_t sign : {0u, 0x80000000u}) bits.push_back(sign | x);
  }
  for (uint32_t x : {0x477fe000u, 0x477fefffu, 0x477ff000u, 0x477ff001u, 0x47800000u})
    for (uint32_t sign : {0u, 0x80000000u}) bits.push_back(sign | x);
  return bits;
}

// Around every bfloat16 rounding boundary: each bfloat16's float bits with
// the low 16 bits below, at and above the halfway point, and zero/all ones.
std::vector<uint32_t> bfloat16_boundaries() {
  std::vector<uint32_t> bits;
  for (uint32_t u = 0; u < 0x10000u; ++u)
    for (uint32_t low : {0x0000u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) bits.push_back(u << 16 | low);
  return bits;
}

// NaNs (every sign, quiet and signalling, payloads at the bits float16 keeps
// and drops), infinities, float subnormals, and random bits.
std::vector<uint32_t> special_floats() {
  std::vector<uint32_t> bits = {0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u, 0x7f7fffffu, 0xff7fffffu};
  std::mt19937 rng(7);
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t quiet : {0u, 0x400000u}) {
      for (uint32_t payload : {1u, 0x1fffu, 0x2000u, 0x2001u, 0x3fe000u, 0x3fffffu, 0x155555u, 0x2aaaaau})
        bits.push_back(sign | 0x7f800000u | quiet | payload);
      for (int i = 0; i < 2000; ++i) bits.push_back(sign | 0x7f800000u | quiet | (1 + rng() % 0x3fffffu));
    }
  for (int i = 0; i < 20000; ++i) bits.push_back((rng() % 2 ? 0x80000000u : 0u) | (1 + rng() % 0x7fffffu));
  for (uint32_t x = 0x33000000u - 64; x < 0x33000000u + 64; ++x) bits.push_back(x);  // half the smallest subnormal
  for (uint32_t x = 0x38800000u - 64; x < 0x38800000u + 64; ++x) bits.push_back(x);  // the smallest normal
  for (int i = 0; i < 200000; ++i) bits.push_back(static_cast<uint32_t>(rng()));
  return bits;
}

std::vector<float> all_float_inputs() {
  std::vector<uint32_t> bits = half_boundaries();
  for (const auto& more : {bfloat16_boundaries(), special_floats()}) bits.insert(bits.end(), more.begin(), more.end());
  return floats_of(bits);
}

std::vector<uint16_t> every_16_bit_value() {
  std::vector<uint16_t> v(0x10000 + 13);  // + a tail
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint16_t>(i * 0x9e37u);  // a permutation of 0..65535
  return v;
}

TEST(HalfConvert, TheScalarLoopsAreAlwaysAvailableAndLast) {
  const auto& all = half_conversions_available();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(std::string(all.back().isa), "scalar");
  EXPECT_EQ(&half_conversions(), &all.front());
  std::string isas;
  for (const auto& c : all) isas += std::string(isas.empty() ? "" : ", ") + c.isa;
  RecordProperty("isas", isas);
}

TEST(HalfConvert, FloatToHalfMatchesScalarBitForBitUnderEveryProfile) {
  const std::vector<float> in = all_float_inputs();
  for (const char* profile : kProfiles) {
    ProfileScope scope(profile);
    std::vector<uint16_t> expected(in.size());
    for (size_t i = 0; i < in.size(); ++i) expected[i] = float_to_half(in[i]);
    for (const HalfConversions& c : half_conversions_available()) {
      std::vector<uint16_t> out(in.size());
      c.float_to_half(out.data(), in.data(), static_cast<int64_t>(in.size()));
      for (size_t i = 0; i < in.size(); ++i)
        ASSERT_EQ(out[i], expected[i]) << c.isa << " profile " << profile << std::hex << " float bits 0x"
                                       << float_to_bits(in[i]);
      if (profile_half_nan() != HalfNan::KeepPayload) continue;
      // the loop without the NaN test, which only these profiles use
      std::vector<uint16_t> keep(in.size());
      c.float_to_half_keep_payload(keep.data(), in.data(), static_cast<int64_t>(in.size()));
      for (size_t i = 0; i < in.size(); ++i)
        ASSERT_EQ(keep[i], expected[i]) << c.isa << " keep_payload, profile " << profile << std::hex
                                        << " float bits 0x" << float_to_bits(in[i]);
    }
  }
}

TEST(HalfConvert, TheRunTakesTheLoopWithoutNaNTestOnlyWhereTheProfileKeepsPayloads) {
  const float nan = bits_to_float(0xffe00000u);
  std::vector<float> in(64, 1.0f);
  in[37] = nan;
  std::vector<uint16_t> out(in.size());
  {
    ProfileScope scope("1.13");
    ASSERT_EQ(profile_half_nan(), HalfNan::Canonical);
    cpu::float_to_half_run(out.data(), in.data(), static_cast<int64_t>(in.size()));
    EXPECT_EQ(out[37], 0xfe00);
  }
  {
    ProfileScope scope("2.15");
    ASSERT_EQ(profile_half_nan(), HalfNan::KeepPayload);
    cpu::float_to_half_run(out.data(), in.data(), static_cast<int64_t>(in.size()));
    EXPECT_EQ(out[37], 0xff00);
  }
  EXPECT_EQ(out[36], 0x3c00);
}

TEST(HalfConvert, TheProfilesDisagreeOnTheNaNsTheTestCovers) {
  // The vector paths' NaN lanes are redone by the scalar code because the
  // two profiles write different bits for one NaN (so the test above
  // checks both rules).
  const float nan = bits_to_float(0xffe00000u);
  {
    ProfileScope scope("1.13");
    EXPECT_EQ(float_to_half(nan), 0xfe00);
  }
  {
    ProfileScope scope("2.15");
    EXPECT_EQ(float_to_half(nan), 0xff00);
  }
}

TEST(HalfConvert, FloatToBFloat16MatchesScalarBitForBit) {
  const std::vector<float> in = all_float_inputs();
  for (const HalfConversions& c : half_conversions_available()) {
    std::vector<uint16_t> out(in.size());
    c.float_to_bfloat16(out.data(), in.data(), static_cast<int64_t>(in.size()));
    for (size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(out[i], float_to_bfloat16(in[i], BFloat16Nan::Vector))
          << c.isa << std::hex << " float bits 0x" << float_to_bits(in[i]);
  }
}

TEST(HalfConvert, EveryHalfAndBFloat16ToFloatMatchesScalarBitForBit) {
  const std::vector<uint16_t> in = every_16_bit_value();
  for (const HalfConversions& c : half_conversions_available()) {
    std::vector<float> out(in.size());
    c.half_to_float(out.data(), in.data(), static_cast<int64_t>(in.size()));
    for (size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(float_to_bits(out[i]), float_to_bits(half_to_float(in[i]))) << c.isa << std::hex << " half 0x" << in[i];
    c.bfloat16_to_float(out.data(), in.data(), static_cast<int64_t>(in.size()));
    for (size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(float_to_bits(out[i]), float_to_bits(bfloat16_to_float(in[i])))
          << c.isa << std::hex << " bf16 0x" << in[i];
  }
}

TEST(HalfConvert, EveryRunLengthAndOffsetAgrees) {
  // Lengths 0..70 at offsets 0..3: vector bodies, tails and unaligned starts;
  // nothing written past the run.
  const std::vector<float> in = floats_of(special_floats());
  std::vector<uint16_t> in16(0x10000);
  for (size_t i = 0; i < in16.size(); ++i) in16[i] = static_cast<uint16_t>(i);
  ProfileScope scope("1.13");  // NaN lanes differ from the hardware's here
  for (const HalfConversions& c : half_conversions_available())
    for (int64_t off = 0; off < 4; ++off)
      for (int64_t n = 0; n <= 70; ++n) {
        SCOPED_TRACE(std::string(c.isa) + " offset " + std::to_string(off) + " length " + std::to_string(n));
        const size_t m = static_cast<size_t>(n) + 1;
        std::vector<uint16_t> h(m, 0xabcd), b(m, 0xabcd);
        std::vector<float> fh(m, 1.5f), fb(m, 1.5f);
        std::vector<uint16_t> k(m, 0xabcd);
        c.float_to_half(h.data(), in.data() + off, n);
        c.float_to_half_keep_payload(k.data(), in.data() + off, n);
        c.float_to_bfloat16(b.data(), in.data() + off, n);
        c.half_to_float(fh.data(), in16.data() + 0x7c00 + off, n);  // NaNs of every payload
        c.bfloat16_to_float(fb.data(), in16.data() + off, n);
        for (int64_t i = 0; i < n; ++i) {
          ASSERT_EQ(h[i], float_to_half(in[off + i]));
          if (!(in[off + i] != in[off + i])) ASSERT_EQ(k[i], h[i]);  // NaNs: the 2.15 test above
          ASSERT_EQ(b[i], float_to_bfloat16(in[off + i], BFloat16Nan::Vector));
          ASSERT_EQ(float_to_bits(fh[i]), float_to_bits(half_to_float(in16[0x7c00 + off + i])));
          ASSERT_EQ(float_to_bits(fb[i]), float_to_bits(bfloat16_to_float(in16[off + i])));
        }
        EXPECT_EQ(h[n], 0xabcd) << "wrote past the run";
        EXPECT_EQ(k[n], 0xabcd) << "wrote past the run";
        EXPECT_EQ(b[n], 0xabcd) << "wrote past the run";
        EXPECT_EQ(fh[n], 1.5f) << "wrote past the run";
        EXPECT_EQ(fb[n], 1.5f) << "wrote past the run";
      }
}

}  // namespace
}  // namespace sc::engine::cpu
