// The plumbing shared by corpus/known_divergences.txt and corpus/excuses.txt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "program/list_file.h"

namespace sc {
namespace {
namespace fs = std::filesystem;

TEST(ListFile, FoundInTheNearestFolderAboveAndMatchedByRelativePath) {
  const fs::path root = fs::temp_directory_path() / "stridecheck_list_file_test";
  fs::remove_all(root);
  fs::create_directories(root / "a" / "b");
  std::ofstream(root / "list.txt") << "a/b/p.prog 2.* # reason\n";
  const std::string program = (root / "a" / "b" / "p.prog").string();
  auto found = find_list_file_above(program, "list.txt");
  ASSERT_TRUE(found);
  EXPECT_EQ(fs::path(*found), root / "list.txt");
  EXPECT_FALSE(find_list_file_above(program, "no_such_list.txt"));
  EXPECT_EQ(read_list_file(*found, "list"), "a/b/p.prog 2.* # reason\n");
  EXPECT_EQ(list_root(*found), root.string());
  EXPECT_EQ(list_root("list.txt"), ".");
  EXPECT_TRUE(names_program("a/b/p.prog", program, root.string()));
  EXPECT_TRUE(names_program("a/./b/../b/p.prog", program, root.string()));
  EXPECT_FALSE(names_program("a/p.prog", program, root.string()));
  EXPECT_EQ(path_relative_to(program, root.string()), "a/b/p.prog");
  EXPECT_EQ(path_relative_to((root / "a" / "." / "b" / ".." / "b" / "p.prog").string(), root.string()), "a/b/p.prog");
  fs::remove_all(root);
}

TEST(ListFile, LinesSplitIntoEntryAndReason) {
  std::vector<ListLine> lines;
  for_each_list_line("a 1.13.*  #  why \r\n\n  b c\t# \nsignature \"x # y\"", [&](const ListLine& l) {
    lines.push_back({l.number, l.entry, l.reason});
  });
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].number, 1);
  EXPECT_EQ(lines[0].entry, "a 1.13.*  ");
  EXPECT_EQ(lines[0].reason, "why");
  EXPECT_EQ(list_fields(lines[0].entry), (std::vector<std::string>{"a", "1.13.*"}));
  EXPECT_TRUE(list_fields(lines[1].entry).empty());
  EXPECT_EQ(lines[2].number, 3);
  EXPECT_EQ(list_fields(lines[2].entry), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(lines[2].reason, "");
  EXPECT_EQ(lines[3].entry, "signature \"x ");  // the first '#' starts the reason, as before
  EXPECT_EQ(trim_blanks(" \t x y \r"), "x y");
  EXPECT_STREQ(list_error("f.txt", 7, "bad").what(), "f.txt:7: bad");
}

TEST(ListFile, UnreadableFileAndVersionGlobs) {
  try {
    read_list_file("/nonexistent/list.txt", "excuse list");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/list.txt: cannot read the excuse list");
  }
  EXPECT_TRUE(version_matches("1.13.*", "1.13.1"));
  EXPECT_TRUE(version_matches("*", "2.15.0"));
  EXPECT_FALSE(version_matches("1.13.*", "2.15.0"));
}

}  // namespace
}  // namespace sc
