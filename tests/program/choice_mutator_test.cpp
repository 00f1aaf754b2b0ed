#include "program/choice_mutator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "program/printer.h"

namespace sc {
namespace {

// A fuzzer input like `stridecheck seeds` writes: 16-bit choices, two bytes each.
std::vector<uint8_t> seed_input(uint64_t seed, size_t choices = 200) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < 2 * choices; ++i) bytes.push_back(static_cast<uint8_t>(rng()));
  return bytes;
}

Program program_of(const std::vector<uint8_t>& bytes, GenerationLog* log = nullptr, size_t* used = nullptr) {
  Choices c = Choices::from_bytes(bytes.data(), bytes.size());
  Program p = generate_program(c, {}, log);
  if (used) *used = c.used();
  return p;
}

std::vector<uint8_t> mutated(std::vector<uint8_t> bytes, uint32_t seed, size_t max_size, ChoiceMutationResult* r) {
  const size_t size = std::min(bytes.size(), max_size);
  bytes.resize(std::max(bytes.size(), max_size));
  *r = mutate_choices(bytes.data(), size, max_size, seed);
  bytes.resize(r->size);
  return bytes;
}

TEST(ChoiceMutator, UnitsStartAtTheCreationThenTheStepCountThenOnePerDraftedStep) {
  std::vector<uint8_t> in = seed_input(3);
  GenerationLog log;
  size_t used = 0;
  Program p = program_of(in, &log, &used);
  ASSERT_GE(log.unit_starts.size(), 3u);
  EXPECT_EQ(log.unit_starts[0], 0u);
  EXPECT_EQ(log.unit_starts[2], log.unit_starts[1] + 1);  // the step count is one choice
  for (size_t i = 1; i < log.unit_starts.size(); ++i) EXPECT_LE(log.unit_starts[i - 1], log.unit_starts[i]);
  EXPECT_LE(log.unit_starts.back(), used);
  EXPECT_GE(p.steps.size(), 1u);
}

TEST(ChoiceMutator, DeterministicBoundedAndEveryKindOccurs) {
  std::map<ChoiceMutation, int> kinds;
  for (uint64_t s = 0; s < 20; ++s) {
    std::vector<uint8_t> in = seed_input(s);
    for (uint32_t m = 0; m < 20; ++m) {
      ChoiceMutationResult r1, r2;
      std::vector<uint8_t> a = mutated(in, m, 512, &r1);
      std::vector<uint8_t> b = mutated(in, m, 512, &r2);
      ASSERT_EQ(a, b) << "seed " << s << " mutation seed " << m;
      EXPECT_LE(a.size(), 512u);
      EXPECT_GT(a.size(), 0u);
      EXPECT_EQ(a.size() % 2, 0u);
      ++kinds[r1.kind];
    }
  }
  for (ChoiceMutation k : {ChoiceMutation::Delete, ChoiceMutation::Duplicate, ChoiceMutation::Insert,
                           ChoiceMutation::Replace, ChoiceMutation::Swap, ChoiceMutation::Argument,
                           ChoiceMutation::Longer})
    EXPECT_GT(kinds[k], 0) << mutation_name(k);
}

TEST(ChoiceMutator, RespectsATightMaxSize) {
  std::vector<uint8_t> in = seed_input(5, 40);
  for (uint32_t m = 0; m < 50; ++m) {
    ChoiceMutationResult r;
    std::vector<uint8_t> out = mutated(in, m, 80, &r);
    EXPECT_LE(out.size(), 80u);
  }
  std::vector<uint8_t> empty;
  ChoiceMutationResult r;
  std::vector<uint8_t> out = mutated(empty, 1, 64, &r);
  EXPECT_EQ(r.kind, ChoiceMutation::Insert);
  EXPECT_GT(out.size(), 0u);
}

// What makes it structure-aware: a mutation of a step's unit leaves every
// earlier step as it was (the generator reads the same choices up to there),
// and a delete removes exactly one unit's choices.
TEST(ChoiceMutator, StepMutationsKeepTheStepsBeforeThem) {
  int checked = 0;
  for (uint64_t s = 0; s < 15; ++s) {
    std::vector<uint8_t> in = seed_input(s);
    GenerationLog log;
    size_t used = 0;
    program_of(in, &log, &used);
    for (uint32_t m = 0; m < 15; ++m) {
      ChoiceMutationResult r;
      std::vector<uint8_t> out = mutated(in, m, 1024, &r);
      if (r.kind == ChoiceMutation::Argument || r.kind == ChoiceMutation::Longer) continue;
      if (r.begin <= log.unit_starts[1]) continue;  // the creation unit: every step changes
      // An input read to its end may have cut its last step short (a literal
      // drawn until the choices ran out: value_draws::runs); choices added at
      // the end then lengthen that step, as they would any truncated draw.
      if (r.begin == used && 2 * used >= in.size()) continue;
      // A step mutation starts at a unit boundary.
      EXPECT_TRUE(r.begin == used || std::count(log.unit_starts.begin(), log.unit_starts.end(), r.begin))
          << mutation_name(r.kind) << " at choice " << r.begin;
      // The steps the generator makes from the choices before it are kept.
      std::vector<uint8_t> prefix(in.begin(), in.begin() + static_cast<long>(2 * r.begin));
      Program before = program_of(prefix);
      Program after = program_of(out);
      ASSERT_GE(after.steps.size(), before.steps.size()) << mutation_name(r.kind);
      for (size_t i = 0; i < before.steps.size(); ++i)
        EXPECT_EQ(print_step(after.steps[i]), print_step(before.steps[i])) << mutation_name(r.kind) << " step " << i;
      if (r.kind == ChoiceMutation::Delete) {
        EXPECT_TRUE(r.end == used || std::count(log.unit_starts.begin(), log.unit_starts.end(), r.end));
        std::vector<uint8_t> expect = in;
        expect.erase(expect.begin() + static_cast<long>(2 * r.begin), expect.begin() + static_cast<long>(2 * r.end));
        EXPECT_EQ(out, expect);
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 50);
}

TEST(ChoiceMutator, LongerAsksForTheMostSteps) {
  std::vector<uint8_t> in = seed_input(9, 30);
  for (uint32_t m = 0; m < 200; ++m) {
    ChoiceMutationResult r;
    std::vector<uint8_t> out = mutated(in, m, 1024, &r);
    if (r.kind != ChoiceMutation::Longer) continue;
    GenerationLog log;
    program_of(out, &log);
    Choices c = Choices::from_bytes(out.data(), out.size());
    // unit 1 is the step count: between(1, max_steps) gives max_steps for it.
    for (size_t i = 0; i < log.unit_starts[1]; ++i) c.below(65536);
    EXPECT_EQ(c.between(1, GeneratorPolicy{}.max_steps), GeneratorPolicy{}.max_steps);
    return;
  }
  FAIL() << "no Longer mutation in 200 seeds";
}

}  // namespace
}  // namespace sc
