// The engine's op table hands the common errors of generated programs back
// through EngineStepContext::error instead of throwing them (Note [errors
// returned, not thrown], engine/checked.h): a throw costs ~15k instructions
// per failing step of every fuzz execution (issue 10). For each op family
// converted, a failing step run through engine_op_table() must throw nothing
// and return LibTorch's error (messages as LibTorch 2.15 and 1.13 both give
// them, or the part of the message both share).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "program/engine_ops.h"
#include "program/parser.h"

namespace sc {
namespace {

struct Case {
  const char* program;  // the last step raises
  engine::ErrorKind kind;
  const char* message;  // exact, or its start when `prefix`
  bool prefix = false;
  bool any_kind = false;  // the kind changed between versions (Change::BoolNegSubNotImplemented)
};

using K = engine::ErrorKind;
const Case kCases[] = {
    {"v0 = zeros [2,3]\nv1 = flatten v0 5", K::IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
    {"v0 = zeros [2,3]\nv1 = movedim v0 [0] [7]", K::IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 7)"},
    {"v0 = zeros [2,3]\nv1 = permute v0 [0,0]", K::RuntimeError, "permute(): duplicate dims are not allowed."},
    {"v0 = zeros [2,3]\nv1, v2 = unbind v0 9", K::IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 9)"},
    {"v0 = zeros [2,3]\nv1, v2 = split v0 1 9", K::IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 9)"},
    {"v0 = zeros [2,3]\nv1, v2 = chunk v0 2 9", K::IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 9)"},
    {"v0 = zeros [2,3]\nv1, v2 = split v0 [1,2] 0", K::RuntimeError,
     "split_with_sizes expects split_sizes to sum exactly to 2 (input tensor's size at dimension 0), but got "
     "split_sizes=[1, 2]"},
    {"v0 = zeros [2,3]\nv1 = unflatten v0 1 [4,4]", K::RuntimeError,
     "unflatten: Provided sizes [4, 4] don't multiply up to the size of dim 1 (3) in the input tensor"},
    {"v0 = zeros [] dtype=float32\nv1 = view v0 dtype=float64", K::RuntimeError,
     "self.dim() cannot be 0 to view Float as Double (different element sizes)"},
    {"v0 = zeros [2,3]\nv1 = clamp_ v0", K::RuntimeError,
     "torch.clamp: At least one of 'min' or 'max' must not be None"},
    {"v0 = zeros [2,3] dtype=int32\nclamp_ v0 1.5", K::RuntimeError,
     "result type Float can't be cast to the desired output type int"},
    {"v0 = zeros [2,3]\nv1 = zeros [2]\nfill_ v0 v1", K::RuntimeError,
     "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions."},
    {"v0 = zeros [2,3] dtype=int8\nfill_ v0 300", K::RuntimeError,
     "value cannot be converted to type int8_t without overflow"},
    {"v0 = full [2] 300 dtype=int8", K::RuntimeError, "value cannot be converted to type int8_t without overflow"},
    {"v0 = zeros [2,3] dtype=bool\nv1 = neg v0", K::RuntimeError,
     "Negation, the `-` operator, on a bool tensor is not supported.", true, true},
    {"v0 = zeros [2,3] dtype=bool\nv1 = zeros [2,3] dtype=bool\nv2 = neg v0 out=v1", K::RuntimeError,
     "Negation, the `-` operator, on a bool tensor is not supported.", true, true},
    {"v0 = arange -5", K::RuntimeError, "upper bound and ", true},
    {"v0 = empty_strided [2] [1,1]", K::RuntimeError,
     "dimensionality of sizes (1) must match dimensionality of strides (2)"},
    {"v0 = zeros [2,3]\nv1 = repeat v0 [2]", K::RuntimeError,
     "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"},
    {"v0 = zeros [2,3]\nv1 = index_select v0 5 [0]", K::IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
    {"v0 = zeros [2,3]\nv1 = zeros [4]\ncopy_ v0 v1", K::RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
    {"v0 = zeros [2,3]\nv1 = flip v0 [0,0]", K::RuntimeError, "dim 0 appears multiple times in the list of dims"},
    // as_strided's checks (check_as_strided), through the view ops built on them
    {"v0 = zeros [2,3]\nv1 = as_strided v0 [4,4] [4,1]", K::RuntimeError,
     "setStorage: sizes [4, 4], strides [4, 1], storage offset 0, and itemsize 4 requiring a storage size of 64 are "
     "out of bounds for storage of size 24"},
    {"v0 = zeros [2,3]\nv1 = as_strided v0 [2] [-1]", K::RuntimeError,
     "as_strided: Negative strides are not supported at the moment, got strides: [-1]"},
    {"v0 = zeros [2,3]\nv1 = as_strided v0 [2,2] [1]", K::RuntimeError, "mismatch in length of strides and shape"},
    {"v0 = zeros [2,3]\nv1 = unfold v0 1 5 1", K::RuntimeError, "maximum size for tensor at dimension 1 is 3 but size is 5"},
    {"v0 = zeros [2,3]\nv1 = unfold v0 1 2 0", K::RuntimeError, "step is 0 but must be > 0"},
    {"v0 = zeros [2,3]\nv1 = unfold v0 4 2 1", K::IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 4)"},
    {"v0 = zeros [2,3]\nv1 = slice v0 0 0 2 0", K::RuntimeError, "slice step must be positive"},
    {"v0 = zeros [2,3]\nv1 = slice v0 7", K::IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 7)"},
    {"v0 = zeros [2,3]\nv1 = reshape v0 [4,4]", K::RuntimeError, "shape '[4, 4]' is invalid for input of size 6"},
};

TEST(EngineErrorsReturned, FailingStepsThrowNothingThroughTheOpTable) {
  for (const Case& c : kCases) {
    const Program p = parse_program(c.program, "case.prog");
    std::map<std::string, engine::Tensor> env;
    const Lookup<engine::Tensor> lookup = [&](const std::string& n) -> const engine::Tensor& { return env.at(n); };
    EngineStepContext ctx;
    for (size_t i = 0; i < p.steps.size(); ++i) {
      const Step& s = p.steps[i];
      const bool last = i + 1 == p.steps.size();
      ctx.error.reset();
      std::vector<engine::Tensor> results;
      try {
        results = engine_op_table().at(s.op)(ArgReader(s), lookup, ctx);
      } catch (const engine::TorchError& e) {
        ADD_FAILURE() << c.program << "\nstep " << i << " threw: " << e.message;
        break;
      }
      if (!last) {
        ASSERT_FALSE(ctx.error) << c.program << "\nsetup step " << i << ": " << ctx.error->message;
        for (size_t k = 0; k < s.outputs.size() && k < results.size(); ++k) env[s.outputs[k]] = results[k];
        continue;
      }
      ASSERT_TRUE(ctx.error) << c.program << "\nthe last step returned no error";
      EXPECT_TRUE(results.empty()) << c.program;
      if (!c.any_kind) {
        EXPECT_EQ(ctx.error->kind, c.kind) << c.program;
      }
      if (c.prefix)
        EXPECT_EQ(ctx.error->message.substr(0, std::string(c.message).size()), c.message) << c.program;
      else
        EXPECT_EQ(ctx.error->message, c.message) << c.program;
    }
  }
}

}  // namespace
}  // namespace sc
