#include "program/known_divergences.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

namespace sc {
namespace {

TEST(KnownDivergences, EntriesMatchPathAndVersionGlob) {
  KnownDivergences k = parse_known_divergences(
      "# header\n\nviews/a.prog 1.13.*  # LibTorch 1.13 differs\ncopies/b.prog *  # always\n", "kd.txt", "/c");
  ASSERT_EQ(k.entries.size(), 2u);
  EXPECT_EQ(k.entries[0].reason, "LibTorch 1.13 differs");
  EXPECT_EQ(k.entries[0].line, 3);
  EXPECT_TRUE(k.find("/c/views/a.prog", "1.13.1"));
  EXPECT_FALSE(k.find("/c/views/a.prog", "2.1.0"));
  EXPECT_TRUE(k.find("/c/copies/../copies/b.prog", "2.1.0"));
  EXPECT_FALSE(k.find("/c/views/b.prog", "1.13.1"));
}

TEST(KnownDivergences, EveryEntryNeedsAReason) {
  EXPECT_THROW(parse_known_divergences("views/a.prog 1.13.*\n", "kd.txt", "."), std::runtime_error);
  EXPECT_THROW(parse_known_divergences("views/a.prog\n", "kd.txt", "."), std::runtime_error);
}

TEST(KnownDivergences, TheCorpusFileParsesAndIsFoundAboveAProgram) {
  std::string corpus = std::string(STRIDECHECK_SOURCE_DIR) + "/corpus";
  KnownDivergences k = read_known_divergences(corpus + "/known_divergences.txt");
  auto f = find_known_divergences_file(corpus + "/some/folder/x.prog");
  ASSERT_TRUE(f);
  EXPECT_EQ(std::filesystem::canonical(*f), std::filesystem::canonical(corpus + "/known_divergences.txt"));
}

}  // namespace
}  // namespace sc
