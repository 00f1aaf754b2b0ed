// Signature entries in known_divergences.txt: a cause, not a file.
#include <gtest/gtest.h>

#include "program/known_divergences.h"

namespace sc {
namespace {

TEST(KnownDivergenceSignatures, AreMatchedBySignatureAndVersion) {
  KnownDivergences k = parse_known_divergences(
      "views/a.prog 1.13.*  # a file\n"
      "signature \"view: outcome ok|RuntimeError\" 1.13.*  # a cause\n"
      "  signature   \"t: strides\"   *   # any version\n",
      "known.txt", "/corpus");
  ASSERT_EQ(k.entries.size(), 3u);
  EXPECT_EQ(k.entries[1].signature, "view: outcome ok|RuntimeError");
  EXPECT_EQ(k.entries[1].path, "");
  EXPECT_EQ(k.entries[1].reason, "a cause");
  EXPECT_EQ(k.entries[1].line, 2);
  EXPECT_EQ(k.find_signature("view: outcome ok|RuntimeError", "1.13.0"), &k.entries[1]);
  EXPECT_EQ(k.find_signature("view: outcome ok|RuntimeError", "2.15.0"), nullptr);
  EXPECT_EQ(k.find_signature("t: strides", "2.15.0"), &k.entries[2]);
  EXPECT_EQ(k.find_signature("t: sizes", "1.13.0"), nullptr);
  // Path entries keep their meaning; signature entries never match a path.
  EXPECT_EQ(k.find("/corpus/views/a.prog", "1.13.0"), &k.entries[0]);
  EXPECT_EQ(k.find("/corpus/signature", "1.13.0"), nullptr);
}

TEST(KnownDivergenceSignatures, MalformedEntriesNameTheLine) {
  auto message = [](const char* text) {
    try {
      parse_known_divergences(text, "known.txt", ".");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message("signature t: strides 1.13.*  # unquoted\n"),
            "known.txt:1: expected 'signature \"<failure signature>\" <libtorch version glob> # reason'");
  EXPECT_EQ(message("\nsignature \"t: strides\"  # no version\n"),
            "known.txt:2: expected 'signature \"<failure signature>\" <libtorch version glob> # reason'");
  EXPECT_EQ(message("signature \"t: strides\" *\n"), "known.txt:1: every entry needs a reason after '#'");
}

}  // namespace
}  // namespace sc
