#include "program/exhaust_deep.h"

#include <gtest/gtest.h>

#include <set>

namespace sc {
namespace {

size_t arrows(const std::string& name) {
  size_t n = 0;
  for (size_t at = name.find(" -> "); at != std::string::npos; at = name.find(" -> ", at + 1)) ++n;
  return n;
}

// Note [Exhaust deep chains]: two-step chains on int64, float16 and bool in
// each of the five layouts, three-step float32 chains whose last view reads
// x0 (the second view, renamed) and binds x, and the quarter sample.
TEST(DeepChains, OtherDtypesAndThreeStepsAndTheSample) {
  const std::vector<ExhaustInput>& deep = exhaust_deep_chain_inputs(ExhaustPolicy{});
  std::set<std::string> starts;
  size_t three = 0, taken = 0;
  for (const ExhaustInput& in : deep) {
    const Step& last = in.steps.back();
    EXPECT_EQ(std::get<Name>(last.args.at(0)).id, "x0") << in.name;
    EXPECT_EQ(last.outputs.at(0), "x") << in.name;
    if (in.layout == "chain of three") {
      EXPECT_EQ(in.dtype, engine::DType::Float32);
      EXPECT_EQ(arrows(in.name), 2u) << in.name;
      ++three;
      taken += deep_chain_sampled("add_", in, ExhaustPolicy{});
      ExhaustPolicy wide;
      wide.wide = true;
      EXPECT_TRUE(deep_chain_sampled("add_", in, wide));
    } else {
      EXPECT_EQ(arrows(in.name), 1u) << in.name;
      starts.insert(in.name.substr(0, in.name.find(" -> ")));
      EXPECT_TRUE(deep_chain_sampled("add_", in, ExhaustPolicy{}));
    }
  }
  for (const char* d : {"int64", "float16", "bool"})
    for (const char* l : {"contiguous 3-d", "transposed", "non-dense", "stride 0", "overlapping"})
      EXPECT_TRUE(starts.count(std::string(d) + " " + l)) << d << " " << l;
  EXPECT_GT(three, 1000u);
  EXPECT_GT(taken * 6, three);  // about a quarter
  EXPECT_LT(taken * 3, three);
}

}  // namespace
}  // namespace sc
