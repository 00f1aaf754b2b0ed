#include "program/excuses.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace sc {
namespace {

TEST(Excuses, CountsUndefinedStepsAndFlaggedBytesOfEverySnapshot) {
  Trace t;
  t.steps.resize(2);
  t.steps[0].storages.resize(1);
  t.steps[0].storages[0].undefined = {0, 1, 1, 0};
  t.steps[1].undefined = true;
  t.steps[1].storages.resize(2);
  t.steps[1].storages[0].undefined = {0, 1, 0, 0};
  t.steps[1].storages[1].nan_choice = {1, 1, 1, 1};
  EXPECT_EQ(count_excuses(t), (Excuses{1, 3, 4}));
  EXPECT_EQ(excuses_text(count_excuses(t)), "steps=1 undefined=3 nan_choice=4");
  EXPECT_FALSE(count_excuses(Trace{}).any());
}

TEST(Excuses, CountsTheEngineRefusedStepsOfTheWholeTrace) {
  Trace t;
  t.steps.resize(4);
  t.steps[0].outcome = Outcome::Refused;
  t.steps[1].outcome = Outcome::OverBudget;  // the budget is not an engine decision
  t.steps[3].outcome = Outcome::Refused;     // past the step where the diff stops
  EXPECT_EQ(count_excuses(t), (Excuses{0, 0, 0, 2}));
  EXPECT_TRUE(count_excuses(t).any());
  EXPECT_EQ(excuses_text(count_excuses(t)), "steps=0 undefined=0 nan_choice=0 refused=2");
}

TEST(Excuses, ReadsRefusedStepsAsAnOptionalSixthField) {
  ExcuseList l = parse_excuse_list(
      "a.prog 1.13.* steps=0 undefined=34 nan_choice=0 refused=1  # fill_ of garbage\n"
      "b.prog * steps=0 undefined=8 nan_choice=0 # no refusal\n",
      "/c/excuses.txt", "/c");
  ASSERT_EQ(l.entries.size(), 2u);
  EXPECT_EQ(l.entries[0].excuses, (Excuses{0, 34, 0, 1}));
  EXPECT_EQ(l.entries[1].excuses, (Excuses{0, 8, 0, 0}));
  EXPECT_THROW(parse_excuse_list("a.prog * steps=0 undefined=0 nan_choice=0 refused=x # r\n", "f", "."),
               std::runtime_error);
  EXPECT_THROW(parse_excuse_list("a.prog * steps=0 undefined=0 nan_choice=0 steps=1 # r\n", "f", "."),
               std::runtime_error);
  // a refusal where none is pinned, none where one is, or another count: each fails
  EXPECT_EQ(check_excuses(&l, "/c/a.prog", "1.13.0", Excuses{0, 34, 0, 1}), "");
  EXPECT_NE(check_excuses(&l, "/c/a.prog", "1.13.0", Excuses{0, 34, 0, 0}).find("pins steps=0 undefined=34 nan_choice=0 refused=1"),
            std::string::npos);
  EXPECT_NE(check_excuses(&l, "/c/a.prog", "1.13.0", Excuses{0, 34, 0, 2}), "");
  EXPECT_NE(check_excuses(&l, "/c/b.prog", "2.15.0", Excuses{0, 8, 0, 1}), "");
  EXPECT_NE(check_excuses(nullptr, "/c/d.prog", "2.15.0", Excuses{0, 0, 0, 1}).find("d.prog 2.15.0 steps=0 undefined=0 nan_choice=0 refused=1"),
            std::string::npos);
}

TEST(Excuses, ReadsEntriesWithCountsVersionAndReason) {
  ExcuseList l = parse_excuse_list(
      "# comment\n\nedges/a.prog 2.15.* steps=1 undefined=24 nan_choice=0  # overlapping write\n"
      "edges/a.prog * steps=0 undefined=8 nan_choice=2 # other versions\n",
      "/c/excuses.txt", "/c");
  ASSERT_EQ(l.entries.size(), 2u);
  EXPECT_EQ(l.entries[0].excuses, (Excuses{1, 24, 0}));
  EXPECT_EQ(l.entries[0].reason, "overlapping write");
  EXPECT_EQ(l.entries[0].line, 3);
  ASSERT_NE(l.find("/c/edges/a.prog", "2.15.0"), nullptr);
  EXPECT_EQ(l.find("/c/edges/a.prog", "2.15.0")->line, 3);
  EXPECT_EQ(l.find("/c/edges/a.prog", "1.13.1")->line, 4);
  EXPECT_EQ(l.find("/c/edges/b.prog", "2.15.0"), nullptr);
}

TEST(Excuses, RejectsMalformedLinesWithFileAndLine) {
  EXPECT_THROW(parse_excuse_list("a.prog * steps=1 undefined=2\n", "f", "."), std::runtime_error);
  EXPECT_THROW(parse_excuse_list("a.prog * steps=1 undefined=2 nan_choice=x # r\n", "f", "."), std::runtime_error);
  EXPECT_THROW(parse_excuse_list("a.prog * steps=1 undefined=2 nan_choice=0\n", "f", "."), std::runtime_error);
  try {
    parse_excuse_list("\na.prog * undefined=2 steps=1 nan_choice=0 # r\n", "f.txt", ".");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("f.txt:2: ", 0), 0u) << e.what();
  }
}

TEST(Excuses, AProgramMustExcuseExactlyWhatItsEntryPins) {
  ExcuseList l = parse_excuse_list("a.prog * steps=1 undefined=24 nan_choice=0 # r\n", "/c/excuses.txt", "/c");
  EXPECT_EQ(check_excuses(&l, "/c/a.prog", "2.15.0", Excuses{1, 24, 0}), "");
  EXPECT_EQ(check_excuses(&l, "/c/b.prog", "2.15.0", Excuses{}), "");
  EXPECT_EQ(check_excuses(nullptr, "/c/b.prog", "2.15.0", Excuses{}), "");
  // more excused than pinned: the engine skips comparisons it made before
  EXPECT_NE(check_excuses(&l, "/c/a.prog", "2.15.0", Excuses{1, 32, 0}).find("pins steps=1 undefined=24"),
            std::string::npos);
  // excused but not listed: the message holds the line to write
  EXPECT_NE(check_excuses(&l, "/c/b.prog", "2.15.0", Excuses{0, 0, 4}).find("b.prog 2.15.0 steps=0 undefined=0 nan_choice=4"),
            std::string::npos);
  EXPECT_NE(check_excuses(nullptr, "/c/b.prog", "2.15.0", Excuses{0, 1, 0}), "");
  // listed but excusing nothing now
  EXPECT_NE(check_excuses(&l, "/c/a.prog", "2.15.0", Excuses{}).find("remove the entry"), std::string::npos);
}

}  // namespace
}  // namespace sc
