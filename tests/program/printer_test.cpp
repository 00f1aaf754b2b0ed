#include "program/printer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <filesystem>
#include <limits>
#include <random>

#include "program/generator.h"
#include "program/parser.h"

namespace sc {
namespace {

Program reparse(const Program& p) { return parse_program(print_program(p), "printed"); }

TEST(Printer, FloatsLookLikeFloatsAndRoundTrip) {
  EXPECT_EQ(print_arg(Number::floating(1.0)), "1.0");
  EXPECT_EQ(print_arg(Number::floating(-2.0)), "-2.0");
  EXPECT_EQ(print_arg(Number::floating(0.1)), "0.1");
  EXPECT_EQ(print_arg(Number::floating(1e20)), "1e+20");
  EXPECT_EQ(print_arg(Number::floating(INFINITY)), "inf");
  EXPECT_EQ(print_arg(Number::floating(-INFINITY)), "-inf");
  EXPECT_EQ(print_arg(Number::floating(NAN)), "nan");
  EXPECT_EQ(print_arg(Number::integer(-7)), "-7");
  EXPECT_EQ(print_arg(Number::boolean(true)), "true");
  EXPECT_EQ(print_arg(List{}), "[]");
  EXPECT_EQ(print_arg(List{{Number::integer(2), Number::floating(0.5)}}), "[2,0.5]");

  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    if (std::isnan(d)) continue;
    Program p = parse_program("a = full [1] " + print_arg(Number::floating(d)) + "\n");
    Number n = std::get<Number>(p.steps[0].args[1]);
    ASSERT_TRUE(n.is_float());
    ASSERT_EQ(std::memcmp(&n.f, &d, sizeof d), 0) << print_arg(Number::floating(d));
  }
  for (double d : {std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(), -0.0, 5e-324}) {
    Program p = parse_program("a = full [1] " + print_arg(Number::floating(d)) + "\n");
    double back = std::get<Number>(p.steps[0].args[1]).f;
    EXPECT_EQ(std::memcmp(&back, &d, sizeof d), 0) << d;
  }
}

TEST(Printer, KeepsCommentsAndRecordedLines) {
  const std::string text =
      "# head\n\na = arange 24  # trailing\n# above b\nb = view a [2,3,4]\n# tail\n#> trace x \"v\"\n";
  Program p = parse_program(text);
  EXPECT_EQ(print_program(p), text);
  EXPECT_EQ(print_program(p, false), "a = arange 24\nb = view a [2,3,4]\n");
}

TEST(Printer, CommentsWithoutHashStillParse) {
  Program p = parse_program("a = arange 4\n");
  p.steps[0].leading_comments = {"made by a tool"};
  p.steps[0].trailing_comment = "why";
  Program q = reparse(p);
  EXPECT_TRUE(q.same_as(p));
  EXPECT_EQ(q.steps[0].leading_comments, std::vector<std::string>{"# made by a tool"});
}

TEST(Printer, EveryCorpusFileRoundTrips) {
  namespace fs = std::filesystem;
  fs::path root = fs::path(STRIDECHECK_SOURCE_DIR) / "corpus";
  int files = 0;
  if (!fs::exists(root)) GTEST_SKIP() << "no corpus folder";
  for (auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".prog") continue;
    ++files;
    Program p = parse_file(e.path().string());
    std::string printed = print_program(p);
    Program q = parse_program(printed, e.path().string() + " (printed)");
    EXPECT_TRUE(q.same_as(p)) << e.path();
    EXPECT_EQ(print_program(q), printed) << e.path();  // printing is a fixed point
    EXPECT_EQ(q.recorded, p.recorded) << e.path();
  }
  std::cout << "round-tripped " << files << " corpus files\n";
}

TEST(Printer, GeneratedProgramsRoundTrip) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Choices c = Choices::from_seed(seed);
    Program p = generate_program(c);
    std::string text = print_program(p);
    Program q;
    try {
      q = parse_program(text, "seed " + std::to_string(seed));
    } catch (const ParseError& e) {
      FAIL() << e.text << "\n" << text;
    }
    EXPECT_TRUE(q.same_as(p)) << text;
  }
}

}  // namespace
}  // namespace sc
