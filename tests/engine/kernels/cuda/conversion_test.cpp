// Note [float to integer on CUDA] (engine/kernels/cpu/types.h), on the host:
// the conversions the CUDA kernels compile differ from x86-64's only for NaN
// and out-of-range values. (kernels_device_test checks on a GPU that nvcc's
// own static_cast gives these values.)
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/kernels/cpu/types.h"

namespace sc::engine::cpu {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(FloatToIntCuda, InRangeTruncatesLikeX86) {
  for (double v : {0.0, 0.5, -0.5, 1.9, -1.9, 127.0, -128.0, 300.0, -300.0, 65535.5, 2147483647.0, -2147483648.0}) {
    EXPECT_EQ(float_to_int_cuda<int8_t>(v), float_to_int_x86<int8_t>(v)) << v;
    EXPECT_EQ(float_to_int_cuda<int16_t>(v), float_to_int_x86<int16_t>(v)) << v;
    EXPECT_EQ(float_to_int_cuda<int32_t>(v), float_to_int_x86<int32_t>(v)) << v;
    EXPECT_EQ(float_to_int_cuda<int64_t>(v), float_to_int_x86<int64_t>(v)) << v;
    EXPECT_EQ(float_to_int_cuda<uint8_t>(v), float_to_int_x86<uint8_t>(v)) << v;
  }
  EXPECT_EQ(float_to_int_cuda<int8_t>(300.0f), 44);  // low byte, as on the CPU
}

TEST(FloatToIntCuda, NaNIsZero) {
  EXPECT_EQ(float_to_int_cuda<int32_t>(kNaN), 0);
  EXPECT_EQ(float_to_int_cuda<int64_t>(kNaN), 0);
  EXPECT_EQ(float_to_int_cuda<int8_t>(static_cast<float>(kNaN)), 0);
  EXPECT_EQ(float_to_int_x86<int32_t>(kNaN), INT32_MIN);
  EXPECT_EQ(float_to_int_x86<int64_t>(kNaN), INT64_MIN);
}

TEST(FloatToIntCuda, OutOfRangeSaturatesThenKeepsLowBits) {
  EXPECT_EQ(float_to_int_cuda<int32_t>(1e10), INT32_MAX);
  EXPECT_EQ(float_to_int_cuda<int32_t>(-1e10), INT32_MIN);
  EXPECT_EQ(float_to_int_cuda<int8_t>(1e10), -1);    // INT32_MAX's low byte
  EXPECT_EQ(float_to_int_cuda<int16_t>(kInf), -1);
  EXPECT_EQ(float_to_int_cuda<int8_t>(-kInf), 0);    // INT32_MIN's low byte
  EXPECT_EQ(float_to_int_cuda<int64_t>(1e30), INT64_MAX);
  EXPECT_EQ(float_to_int_cuda<int64_t>(-kInf), INT64_MIN);
  // uint8 goes through int64: 1e10 keeps its own low byte, 1e30 INT64_MAX's.
  EXPECT_EQ(float_to_int_cuda<uint8_t>(1e10), static_cast<uint8_t>(int64_t{10000000000}));
  EXPECT_EQ(float_to_int_cuda<uint8_t>(1e30), 255);
  EXPECT_EQ(float_to_int_x86<int8_t>(1e10), 0);
}

TEST(FloatToIntCuda, HostConvertIsX86) {
  EXPECT_EQ((convert<int32_t>(1e10)), INT32_MIN);
  EXPECT_EQ((convert<int64_t>(kNaN)), INT64_MIN);
}

}  // namespace
}  // namespace sc::engine::cpu
