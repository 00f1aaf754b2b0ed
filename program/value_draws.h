#pragma once
// Special floating values and their bit patterns, drawn from a choice list
// (program/generator.h's Choices): the values where LibTorch's loops and
// conversions branch on the data rather than on the layout. The generator's
// scalar, literal and "special-value run" draws (program/generator.cpp) and
// any other search that derives values (the corpus-neighbour search) share
// these tables, so a class means the same values everywhere.
//
// Note [Special-value runs]: a CPU kernel's NaN bits depend on the path an
// element takes (Note [NaN bits of LibTorch's loops], engine/nan_bits.h: the
// vector chunks of a contiguous run, its scalar tail, a strided run), and the
// engine's thread pieces must cut runs where one thread's loop would (Note
// [Pieces of a run], engine/kernels/cpu/loop.h). A bug there shows only when
// NaNs (with payloads and signs that a path keeps or drops) sit in long
// reduced-float runs, past 64 elements and around the 8/16/32/64-element
// boundaries, on two or more engine threads, and when some value reads the
// bits (an integer view: Note [NaN bits] in program/diff.cpp). The same holds
// for the values that round differently by path (ties at float16/bfloat16
// precision, subnormals flushed or kept, the finite limits that overflow to
// inf). So the generator draws whole tensors of such values: literals and
// fills of runs of one special value, and integer bit patterns viewed as a
// floating dtype (the only way a program writes a NaN payload or a negative NaN).
#include <cstdint>
#include <vector>

#include "engine/dtype.h"
#include "program/generator.h"

namespace sc::value_draws {

// One special value for a tensor of `d` (any floating dtype; float32 values
// for the others): NaN, +-inf, -0.0, the dtype's smallest subnormal and
// normal, its largest finite values (and just past them: they round to inf),
// a value halfway between two neighbours at float16 or bfloat16 precision
// (round-to-nearest-even picks the even one: a path that rounds otherwise
// differs), or a plain small value between runs.
double special_float(Choices& c, engine::DType d);
// A value halfway between two neighbours at float16, bfloat16 or float32
// precision (1 + 2^-11, 2049, 2^-25, 65520; 1 + 2^-8, 257; 2^24 + 1, ...).
double rounding_tie(Choices& c);
// d's smallest subnormal, smallest normal or largest finite value, either sign.
double finite_limit(Choices& c, engine::DType d);

// A bit pattern of a floating dtype `d` as the signed integer of its width
// (int16 for float16/bfloat16, int32 for float32, int64 for float64): NaNs
// with various payloads and both signs (signalling and quiet, payload bits
// that a conversion keeps or drops), +-inf, -0.0, the smallest subnormal,
// the largest finite value, or 1.0.
int64_t special_bits(Choices& c, engine::DType d);

// The signed integer dtype of d's width (Int16, Int32, Int64; Int8 for 1 byte).
engine::DType bits_dtype(engine::DType d);

// A length for a run-bearing tensor: past 64 elements and around the
// 8/16/32/64-element boundaries of the vector loops and the thread pieces
// (63, 64, 65, 127, 129, 192+-1, ...), sometimes up to ~1100.
int64_t boundary_length(Choices& c);

// n values in runs: each run repeats one draw of `draw` 1..80 times (a run
// may be one element), so a vector chunk holds one value or a boundary
// between two.
template <class Draw>
std::vector<decltype(std::declval<Draw&>()())> runs(Choices& c, int64_t n, Draw&& draw) {
  std::vector<decltype(draw())> out;
  out.reserve(static_cast<size_t>(n));
  while (static_cast<int64_t>(out.size()) < n) {
    const auto v = draw();
    const int64_t len = c.percent(25) ? 1 : c.between(2, 80);
    for (int64_t k = 0; k < len && static_cast<int64_t>(out.size()) < n; ++k) out.push_back(v);
    if (c.exhausted()) break;  // a short choice list: a short tensor
  }
  return out;
}

}  // namespace sc::value_draws
