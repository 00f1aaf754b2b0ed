// Two messages of one LibTorch check share a template; messages of distinct
// checks do not (program/message_template.h).
#include "program/message_template.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace sc {
namespace {

TEST(MessageTemplate, NumbersAndListsAreReplaced) {
  EXPECT_EQ(message_template("Dimension out of range (expected to be in range of [-2, 1], but got 5)"),
            "Dimension out of range (expected to be in range of [..], but got N)");
  EXPECT_EQ(message_template("shape '[2, -1]' is invalid for input of size 7"),
            "shape '[..]' is invalid for input of size N");
  EXPECT_EQ(message_template("shape '[]' is invalid for input of size 0"), "shape '[..]' is invalid for input of size N");
  EXPECT_EQ(message_template("Clamp min value 1e+10 is outside the representable range of Int"),
            "Clamp min value N is outside the representable range of T");
  EXPECT_EQ(message_template("value -inf and nan and 2.5"), "value N and N and N");
}

TEST(MessageTemplate, NumbersInsideNamesStay) {
  EXPECT_EQ(message_template("required rank 5 tensor to use channels_last_3d format"),
            "required rank N tensor to use channels_last_3d format");
  EXPECT_EQ(message_template("t() expects a tensor with <= 2 dimensions, but self is 3D"),
            "t() expects a tensor with <= N dimensions, but self is ND");
  EXPECT_EQ(message_template("IntArrayRef contains an int that cannot be represented as a SymInt: -4611686018427387905"),
            "IntArrayRef contains an int that cannot be represented as a SymInt: N");
}

TEST(MessageTemplate, TypeNamesAreReplaced) {
  EXPECT_EQ(message_template("Found dtype Float but expected Long"), "Found dtype T but expected T");
  EXPECT_EQ(message_template("value cannot be converted to type int8_t without overflow"),
            "value cannot be converted to type T without overflow");
  EXPECT_EQ(message_template("value cannot be converted to type c10::Half without overflow"),
            "value cannot be converted to type T without overflow");
  EXPECT_EQ(message_template("\"add_cpu\" not implemented for 'Bool'"), "\"add_cpu\" not implemented for 'T'");
  EXPECT_EQ(message_template("expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1)"),
            "expand(torch.T{[..]}, size=[..]): the number of sizes provided (N)");
  EXPECT_EQ(message_template("expand(CPUFloatType{[2]}, size=[]): x"), "expand(T{[..]}, size=[..]): x");
  EXPECT_EQ(message_template("result type Float can't be cast to the desired output type long int"),
            "result type T can't be cast to the desired output type T");
  EXPECT_EQ(message_template("value cannot be converted to type uint8 without overflow"),
            "value cannot be converted to type T without overflow");
  EXPECT_EQ(message_template("result type Float can't be cast to the desired output type BFloat16"),
            "result type T can't be cast to the desired output type T");
}

TEST(MessageTemplate, DistinctChecksStayDistinct) {
  EXPECT_NE(message_template("self.stride(-1) must be 1 to view Float as Double (different element sizes), but got 2"),
            message_template("self.stride(0) must be divisible by 2 to view Float as Double (different element "
                             "sizes), but got 3"));
  EXPECT_NE(message_template("split expects at least a 1-dimensional tensor"),
            message_template("chunk expects at least a 1-dimensional tensor"));
  EXPECT_EQ(message_template("unflatten got an unexpected error:\nshape"), "unflatten got an unexpected error:\\nshape");
}

TEST(ErrorTemplates, ParsesTheListFormat) {
  const auto list = parse_error_templates(
      "# comment\n\nview RuntimeError shape '[..]' is invalid for input of size N  # InferSize.h\n"
      "select IndexError select(): index N out of range for tensor of size [..] at dimension N\n"
      "corpus-only  unbind RuntimeError cannot create std::vector larger than max_size()\n"
      "rare add_ RuntimeError Stride calculation overflowed\n"
      "engine-only T RuntimeError IntArrayRef contains an int that cannot be represented as a SymInt: N\n",
      "list.txt");
  ASSERT_EQ(list.size(), 5u);
  EXPECT_TRUE(list[4].engine_only);
  EXPECT_FALSE(list[4].rare);
  EXPECT_EQ(list[4].op, "T");
  EXPECT_FALSE(list[3].engine_only);
  EXPECT_TRUE(list[3].rare);
  EXPECT_FALSE(list[3].corpus_only);
  EXPECT_EQ(list[3].op, "add_");
  EXPECT_FALSE(list[2].rare);
  EXPECT_FALSE(list[0].corpus_only);
  EXPECT_TRUE(list[2].corpus_only);
  EXPECT_EQ(list[2].op, "unbind");
  EXPECT_EQ(list[2].text, "cannot create std::vector larger than max_size()");
  EXPECT_EQ(list[0].op, "view");
  EXPECT_EQ(list[0].kind, "RuntimeError");
  EXPECT_EQ(list[0].text, "shape '[..]' is invalid for input of size N");
  EXPECT_EQ(list[0].reason, "InferSize.h");
  EXPECT_EQ(list[0].line, 3);
  EXPECT_EQ(list[1].kind, "IndexError");
  EXPECT_THROW(parse_error_templates("view RuntimeError\n", "list.txt"), std::runtime_error);
  EXPECT_THROW(parse_error_templates("view Oops some text\n", "list.txt"), std::runtime_error);
}

}  // namespace
}  // namespace sc
