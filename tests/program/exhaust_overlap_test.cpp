#include "program/exhaust_overlap.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "program/backend.h"
#include "program/parser.h"

namespace sc {
namespace {

// get_overlap_status (aten/src/ATen/MemoryOverlap.cpp) of two observed
// tensors: "No", "Full", "Partial", "TooHard" (the same object: "Full").
std::string overlap_status(const TensorObs& a, const TensorObs& b, int64_t itemsize_a, int64_t itemsize_b) {
  auto numel = [](const TensorObs& t) {  // the pairs' views are small
    int64_t n = 1;
    for (int64_t s : t.sizes) n *= s;
    return n;
  };
  if (numel(a) == 0 || numel(b) == 0) return "No";
  if (!a.non_overlapping_and_dense || !b.non_overlapping_and_dense) return "TooHard";
  if (a.storage != b.storage) return "No";
  const int64_t a0 = a.storage_offset * itemsize_a, a1 = a0 + numel(a) * itemsize_a;
  const int64_t b0 = b.storage_offset * itemsize_b, b1 = b0 + numel(b) * itemsize_b;
  if (a0 == b0 && a1 == b1) return a.strides == b.strides ? "Full" : "Partial";
  return a0 < b1 && b0 < a1 ? "Partial" : "No";
}

int64_t itemsize(const std::string& dtype) {
  if (dtype == "float64" || dtype == "int64") return 8;
  if (dtype == "float32" || dtype == "int32") return 4;
  if (dtype == "float16" || dtype == "bfloat16" || dtype == "int16") return 2;
  return 1;
}

// Each pair is the relation its name says, as the engine lays it out, and
// together they reach every answer of get_overlap_status and of
// has_internal_overlap (an expanded operand) on one storage.
TEST(ExhaustOverlap, EachPairIsTheRelationItNames) {
  const std::map<std::string, std::string> expected = {
      {"the base and an as_strided alias", "Full"},
      {"same data, two views", "Full"},
      {"same data, other chains", "Full"},
      {"same range, transposed", "Partial"},
      {"shifted by one element", "Partial"},
      {"shifted columns of a matrix", "TooHard"},
      {"adjacent halves", "No"},
      {"interleaved, disjoint", "TooHard"},
      {"interleaved, overlapping", "TooHard"},
      {"expanded row over its matrix", "TooHard"},
      {"overlapping as_strided, shifted", "TooHard"},
      {"0-d element inside", "Partial"},
      {"the base and a 0-d element of it", "Partial"},
      {"row inside its matrix (broadcast)", "Partial"},
      {"reinterpreted bytes", "Full"},  // the same bytes and strides, another dtype: not copy_'s same data
      {"empty, at one offset", "No"},
      {"view of a view of a view, same data", "TooHard"},
      {"view of a view of a view, shifted", "TooHard"},
  };
  const std::unique_ptr<Backend> engine = make_backend("engine:cpu");
  RunOptions run;
  run.record_contents = false;
  std::set<std::string> answers;
  for (const OverlapPair& pair : overlap_pairs(engine::DType::Float32)) {
    const Program program = parse_program(pair.text, "<pair>");
    const Trace t = engine->run(program, run);
    std::map<std::string, const TensorObs*> bound;
    for (size_t i = 0; i < program.steps.size(); ++i) {
      ASSERT_EQ(t.steps[i].outcome, Outcome::Ok) << pair.relation << ": step " << i;
      for (size_t o = 0; o < program.steps[i].outputs.size(); ++o)
        bound[program.steps[i].outputs[o]] = &t.steps[i].results[o];
    }
    ASSERT_TRUE(bound.count(pair.p) && bound.count(pair.q)) << pair.relation;
    const TensorObs& p = *bound[pair.p];
    const TensorObs& q = *bound[pair.q];
    EXPECT_EQ(p.storage, q.storage) << pair.relation;
    const std::string status = overlap_status(p, q, itemsize(p.dtype), itemsize(q.dtype));
    answers.insert(status);
    ASSERT_TRUE(expected.count(pair.relation)) << pair.relation;
    EXPECT_EQ(status, expected.at(pair.relation)) << pair.relation;
    if (pair.relation == "expanded row over its matrix") EXPECT_EQ(p.torch_overlap, Overlap::Yes);
    if (pair.relation == "overlapping as_strided, shifted") EXPECT_EQ(p.torch_overlap, Overlap::TooHard);
  }
  EXPECT_EQ(answers, (std::set<std::string>{"No", "Full", "Partial", "TooHard"}));
}

}  // namespace
}  // namespace sc
