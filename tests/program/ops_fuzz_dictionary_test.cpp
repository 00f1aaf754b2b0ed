// The parser fuzzer's dictionary (fuzz/parser_fuzzer.dict) names every op of
// the table, so an op added to program/ops.cpp reaches the fuzzer's mutations.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "program/ops.h"

namespace sc {
namespace {

TEST(ParserFuzzerDictionary, NamesEveryOp) {
  std::ifstream in(std::string(STRIDECHECK_SOURCE_DIR) + "/fuzz/parser_fuzzer.dict");
  ASSERT_TRUE(in) << "fuzz/parser_fuzzer.dict is missing";
  std::set<std::string> words;  // the quoted values of `name="value"` lines
  for (std::string line; std::getline(in, line);) {
    const size_t open = line.find('"'), close = line.rfind('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) continue;
    words.insert(line.substr(open + 1, close - open - 1));
  }
  for (const OpSpec& op : all_ops())
    EXPECT_TRUE(words.count(std::string(op.name))) << "add op_" << op.name << "=\"" << op.name
                                                   << "\" to fuzz/parser_fuzzer.dict";
}

}  // namespace
}  // namespace sc
