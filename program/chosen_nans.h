#pragma once
// Note [Chosen NaNs checked]: the engine flags the elements whose NaN bits
// LibTorch's compiled loops choose between two NaN operands (Note [NaN
// operand choice], engine/nan_choice.h), and the diff compares a flagged
// element as a NaN whatever its bits (Note [NaN bits], program/diff.cpp). So
// an engine that flagged more elements than LibTorch's loops choose would pass
// every comparison by construction. Like the UNDEFINED claims
// (program/undefined_check.h), the flags are checked: every element flagged
// as a chosen NaN of a floating dtype (each of its bytes carries that dtype's
// code, at an element boundary of that dtype) must hold a NaN of that dtype.
// The engine's own bytes are enough: where LibTorch's bytes differ, the diff
// excuses them only when both sides hold NaNs (nan_pair_excused), so what
// only this check sees is a flag on bytes both sides agree on, a number.
// The traced backend runs it on every flagged storage it observes
// (StorageObs::chosen_nan_number), with or without recorded contents, and
// the diff reports a flagged number as a difference ("storage N chosen NaN").
// Not checked: bytes marked undefined, an element partly overwritten since
// (some of its flags cleared, or another dtype's), and non-floating codes (a
// chosen NaN converted to an integer reads as undefined there).
#include <cstdint>
#include <vector>

namespace sc {

// The byte offset of the first element flagged as a chosen NaN (flags: one
// per byte, 1 + the engine::DType it was written as; empty: none) that holds
// no NaN of its flagged dtype in `bytes`; -1 when every flagged element does.
int64_t first_flagged_number(const uint8_t* bytes, int64_t nbytes, const std::vector<uint8_t>& flags,
                             const std::vector<uint8_t>& undefined);

}  // namespace sc
