#pragma once
// Structure-aware mutation of the view-chain fuzzer's input (fuzz/
// view_chain_fuzzer.cpp: LLVMFuzzerCustomMutator). The input is a choice
// list, two bytes per choice (Choices::from_bytes); the generator reads it in
// draw units (GenerationLog::unit_starts): the first creation step, the step
// count, then one unit per step. A byte-level mutation in the middle of a
// program usually changes how every later choice is read; these mutations
// work on whole units, so the steps before the edit stay what they were:
//   delete     remove one unit (one step)
//   duplicate  copy one unit to another unit boundary
//   insert     fresh random choices as a new unit at a boundary
//   replace    one unit's choices by fresh ones (another step there)
//   swap       exchange two units
//   argument   one choice inside a unit set to a new value (any value is in
//              the domain: Choices::below reduces it), or nudged by +-1
//   longer     the step count set to its maximum, the tail extended
#include <cstddef>
#include <cstdint>
#include <string>

#include "program/generator.h"

namespace sc {

enum class ChoiceMutation { Delete, Duplicate, Insert, Replace, Swap, Argument, Longer };
const char* mutation_name(ChoiceMutation m);

struct ChoiceMutationResult {
  size_t size = 0;  // the new input size (<= max_size)
  ChoiceMutation kind = ChoiceMutation::Argument;
  size_t unit = 0;  // the (non-empty) unit it changed; a boundary for insert/duplicate
  // The choices it removed or replaced, as indices into the input's choices
  // (begin == end: inserted at begin).
  size_t begin = 0, end = 0;
};

// Mutates data[0, size) in place into at most max_size bytes (max_size >= 2).
// Deterministic for a given seed. Runs the generator once (with the engine,
// to learn the unit boundaries).
ChoiceMutationResult mutate_choices(uint8_t* data, size_t size, size_t max_size, uint32_t seed,
                                    const GeneratorPolicy& policy = {});

}  // namespace sc
