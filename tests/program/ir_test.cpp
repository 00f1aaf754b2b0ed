// program/ir.h: parse_engine_thread_count, the one reader of an engine thread
// count (the program line, `--engine-threads`, `generate --engine-threads`).
#include <gtest/gtest.h>

#include "program/ir.h"

namespace sc {
namespace {

TEST(EngineThreadCount, AcceptsOneToTheMaximumInDecimalDigitsOnly) {
  EXPECT_EQ(parse_engine_thread_count("1"), 1);
  EXPECT_EQ(parse_engine_thread_count("4"), 4);
  EXPECT_EQ(parse_engine_thread_count("256"), kMaxEngineThreads);
  EXPECT_EQ(parse_engine_thread_count("007"), 7);
  for (const char* bad : {"", "0", "257", "-1", "+2", " 2", "2 ", "2x", "x", "1e2", "99999999999999999999"})
    EXPECT_EQ(parse_engine_thread_count(bad), std::nullopt) << "'" << bad << "'";
}

}  // namespace
}  // namespace sc
