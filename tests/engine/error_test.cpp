// str_cat prints every piece as `std::ostringstream << piece` does (Note
// [error messages without ostringstream], engine/error.h): the engine's
// error messages are compared byte for byte with LibTorch's.
#include "engine/error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>

namespace sc::engine {
namespace {

template <class... Args>
std::string by_ostream(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

enum class Colour { Red };
std::ostream& operator<<(std::ostream& os, Colour) { return os << "red"; }

#define EXPECT_AS_OSTREAM(...) EXPECT_EQ(str_cat(__VA_ARGS__), by_ostream(__VA_ARGS__))

TEST(StrCat, IntegersOfEveryWidthPrintAsAnOstreamPrintsThem) {
  EXPECT_AS_OSTREAM(std::numeric_limits<int64_t>::min(), " ", std::numeric_limits<int64_t>::max());
  EXPECT_AS_OSTREAM(std::numeric_limits<uint64_t>::max(), ",", uint64_t{0});
  EXPECT_AS_OSTREAM(std::numeric_limits<int32_t>::min(), int32_t{-1}, int32_t{0}, int32_t{7});
  EXPECT_AS_OSTREAM(std::numeric_limits<uint32_t>::max(), size_t{12345678901234});
  EXPECT_AS_OSTREAM(short{-32768}, static_cast<unsigned short>(65535), 0L, -1LL, 18446744073709551615ULL);
  for (int64_t v = -1000; v <= 1000; v += 7) EXPECT_AS_OSTREAM("v=", v, ";");
  for (int s = 0; s < 63; ++s) EXPECT_AS_OSTREAM(int64_t{1} << s, -(int64_t{1} << s));
}

TEST(StrCat, CharactersAndBytesPrintAsCharacters) {
  EXPECT_AS_OSTREAM('x', static_cast<signed char>('y'), static_cast<unsigned char>('z'));
  EXPECT_AS_OSTREAM(int8_t{65}, uint8_t{66});  // an ostream prints these as 'A', 'B'
}

TEST(StrCat, BoolPrintsAsOneOrZero) { EXPECT_AS_OSTREAM(true, false, "|", true); }

TEST(StrCat, StringsOfEveryKindAreAppendedAsText) {
  const std::string s = "std::string";
  const std::string_view sv = "view";
  const char* p = "pointer";
  char buf[] = "mutable";
  EXPECT_AS_OSTREAM("literal ", s, " ", sv, " ", p, " ", buf, std::string(), std::string_view());
  EXPECT_EQ(str_cat(), "");
  const std::string long_text(1000, 'q');
  EXPECT_AS_OSTREAM(long_text, long_text, 1);
}

TEST(StrCat, FloatingPointAndOtherTypesGoThroughAnOstream) {
  EXPECT_AS_OSTREAM(1.5, " ", 0.1, " ", 1e300, " ", -0.0, " ", 3.0f, " ", 123456789.0);
  EXPECT_AS_OSTREAM(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity());
  EXPECT_AS_OSTREAM("colour ", Colour::Red, '!');
}

TEST(StrCat, RaiseCarriesTheKindAndTheMessage) {
  try {
    raise(ErrorKind::IndexError, "Dimension out of range (expected to be in range of [", -2, ", ", 1,
          "], but got ", int64_t{5}, ")");
    FAIL() << "raise returned";
  } catch (const TorchError& e) {
    EXPECT_EQ(e.kind, ErrorKind::IndexError);
    EXPECT_EQ(e.message, "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
  }
}

}  // namespace
}  // namespace sc::engine
