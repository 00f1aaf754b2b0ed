#pragma once
// Note [Exhaust surface forms] (`stridecheck exhaust --phase 5`): programs
// written by people reading LibTorch use forms of the language that neither
// the generator's draws nor the class enumeration make: a default written
// out (`flatten x 0 -1`, `slice x 0 none none 1`), `none` where an optional
// integer or scalar was given, a list argument with one element at each
// edge of its domain (a dim at -rank-1, -rank, rank-1, rank; a size at -1,
// 0, 2^31, past -2^62 where 2.x holds a SymInt on the heap, INT64_MIN/MAX),
// a list one shorter or longer than the rank, empty or with a repeated
// entry, an integer where a one-element list is accepted (split, movedim)
// and the reverse, the memory format's long spellings (preserve_format,
// contiguous_format), every dtype= (view: without the size), keywords in the
// other order, out= naming an operand, plain scalars of each kind (0.0,
// 1.0, -1, true, false) and literals mixing bool, int and float values, and
// the input as the second tensor operand (view_as, expand_as, copy_, the
// binary ops' other): beside itself, and beside a new 0-d or size-1 self (an
// input the generator draws only as self: its stale header's negative size
// reaches expand_as's "leading, non-existing dimension").
// Each form is one edit of the op's step at its first valid classes
// (program/exhaust.h, Note [Exhaust combinations]) on every float32 layout
// of the catalogue and on int64 1-d, float16 transposed and bool 4-d.
#include <cstddef>
#include <string>
#include <vector>

#include "program/ir.h"

namespace sc {

struct SurfaceForm {
  Step step;
  std::string what;  // "dims[1] = -4", "start_dim written out (0)"
  std::vector<Step> before;  // steps the form needs before the op's step
};

// The forms of `step` (a checked step of the op table) on an input of `rank`;
// some may fail the signature check (the caller drops those).
std::vector<SurfaceForm> surface_forms(const Step& step, size_t rank);

}  // namespace sc
