// Note [Special-value runs] (program/value_draws.h): the special values, bit
// patterns and run lengths the generator draws, and that generated programs
// hold long reduced-float runs of them.
#include "program/value_draws.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "program/generator.h"
#include "program/printer.h"

namespace sc {
namespace {

using engine::DType;

constexpr DType kFloats[] = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};

bool nan_bits(DType d, uint64_t b) {
  switch (d) {
    case DType::Float16: return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0;
    case DType::BFloat16: return (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0;
    case DType::Float32: return (b & 0x7fffffffu) > 0x7f800000u;
    default: return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  }
}

TEST(ValueDraws, SpecialBitsHoldNansOfBothSignsWithPayloadsAndOtherSpecials) {
  for (DType d : kFloats) {
    SCOPED_TRACE(std::string(engine::dtype_name(d)));
    const int bits = 8 * static_cast<int>(engine::itemsize(d));
    std::set<uint64_t> nans;
    bool positive_nan = false, negative_nan = false, not_nan = false;
    Choices c = Choices::from_seed(7, 4000);
    for (int k = 0; k < 2000; ++k) {
      const int64_t v = value_draws::special_bits(c, d);
      if (bits < 64) {  // the signed integer of d's width
        ASSERT_GE(v, -(int64_t{1} << (bits - 1)));
        ASSERT_LT(v, int64_t{1} << (bits - 1));
      }
      const uint64_t b = static_cast<uint64_t>(v) & (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
      if (nan_bits(d, b)) {
        nans.insert(b);
        (b >> (bits - 1) ? negative_nan : positive_nan) = true;
      } else {
        not_nan = true;
      }
    }
    EXPECT_TRUE(positive_nan);
    EXPECT_TRUE(negative_nan);
    EXPECT_TRUE(not_nan);
    EXPECT_GE(nans.size(), 6u) << "NaNs with several payloads";
    EXPECT_EQ(value_draws::bits_dtype(d),
              engine::itemsize(d) == 2 ? DType::Int16 : engine::itemsize(d) == 4 ? DType::Int32 : DType::Int64);
  }
}

TEST(ValueDraws, SpecialFloatsCoverNanInfSignedZeroLimitsAndTies) {
  for (DType d : kFloats) {
    SCOPED_TRACE(std::string(engine::dtype_name(d)));
    bool nan = false, inf = false, ninf = false, nzero = false, tie = false, big = false, tiny = false;
    Choices c = Choices::from_seed(11, 8000);
    for (int k = 0; k < 3000; ++k) {
      const double v = value_draws::special_float(c, d);
      nan |= std::isnan(v);
      inf |= v == INFINITY;
      ninf |= v == -INFINITY;
      nzero |= v == 0.0 && std::signbit(v);
      tie |= v == 1.00048828125 || v == 1.00390625 || v == 2049.0 || v == 257.0;
      big |= std::isfinite(v) && std::fabs(v) >= 65504.0;
      tiny |= v != 0.0 && std::fabs(v) < 1e-4;
    }
    EXPECT_TRUE(nan && inf && ninf && nzero && tie && big && tiny);
  }
}

TEST(ValueDraws, BoundaryLengthsStraddleTheVectorChunksAndThreadPieces) {
  std::set<int64_t> seen;
  Choices c = Choices::from_seed(3, 4000);
  for (int k = 0; k < 1500; ++k) {
    const int64_t n = value_draws::boundary_length(c);
    ASSERT_GE(n, 31);
    ASSERT_LE(n, 1100);
    seen.insert(n);
  }
  for (int64_t n : {31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257}) EXPECT_TRUE(seen.count(n)) << n;
  EXPECT_GT(seen.size(), 200u) << "lengths between the boundaries too";
}

TEST(ValueDraws, RunsRepeatOneValueAndFillTheLength) {
  Choices c = Choices::from_seed(5, 4000);
  int next = 0;
  const std::vector<int> v = value_draws::runs(c, 300, [&] { return next++; });
  ASSERT_EQ(v.size(), 300u);
  size_t longest = 1, run = 1;
  for (size_t i = 1; i < v.size(); ++i) {
    run = v[i] == v[i - 1] ? run + 1 : 1;
    longest = std::max(longest, run);
  }
  EXPECT_GE(longest, 16u);
  EXPECT_GT(next, 3) << "several runs";
  Choices none(std::vector<uint32_t>{});  // an exhausted list: a short tensor, no endless loop
  EXPECT_FALSE(value_draws::runs(none, 300, [] { return 1.0; }).empty());
}

// Generated programs hold special-value runs: tensors of 64 or more
// float16/bfloat16 elements made from NaN bit patterns (their storage read as
// int16) or holding NaNs, the inputs a misplaced cut of a vector loop shows on.
TEST(ValueDraws, GeneratedProgramsHoldLongReducedFloatNanRuns) {
  int with_run = 0, with_bits = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    Choices c = Choices::from_seed(seed);
    GenerationLog log;
    const Program p = generate_program(c, {}, &log);
    bool run = false, bits = false;
    for (size_t i = 0; i < p.steps.size(); ++i)
      for (const DrawnClass& d : log.steps[i]) run |= d.klass == "special-value run";
    const std::string text = print_program(p);
    bits = text.find("dtype=int16") != std::string::npos &&
           (text.find("dtype=float16") != std::string::npos || text.find("dtype=bfloat16") != std::string::npos);
    with_run += run;
    with_bits += run && bits;
  }
  EXPECT_GE(with_run, 40) << "of 400 programs";
  EXPECT_GE(with_bits, 15) << "of 400 programs";
}

}  // namespace
}  // namespace sc
