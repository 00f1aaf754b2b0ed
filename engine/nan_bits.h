#pragma once
// Which NaN bits the imitated LibTorch writes on each loop path (the
// conversions themselves: Note [NaN bits of conversions] in engine/half.h).
//
// Note [NaN bits of LibTorch's loops]: LibTorch's CPU kernels run a
// contiguous inner run (every operand contiguous, or one a stride-0 scalar)
// through a vector loop over whole chunks and the rest, the tail, through
// the scalar code; a strided run is all scalar. The two disagree on NaN bits,
// so the engine writes, per element, what the path LibTorch takes for it
// writes. Measured with one intra-op thread (the oracle's), on AVX2 and
// AVX512 alike (the chunk is the same under ATEN_CPU_CAPABILITY=avx2), for
// runs as TensorIterator coalesces them (the engine's loops coalesce the
// same way: a [3,40] contiguous tensor is one run of 120):
//   - float16/bfloat16 add, sub, mul, div, neg (both versions): chunks of
//     kReducedFloatVectorChunk elements. bfloat16 NaNs are 0xffff there,
//     0x7fc0 in the tail ([40] zeros div_ itself: 32 x 0xffff, 8 x 0x7fc0).
//   - clamp_ of a float16/bfloat16 (both versions; float16 only since 2.x):
//     the same chunks go through float, so a NaN there is quieted with its
//     payload (0x7c01 -> 0x7e01) or becomes 0xffff (bfloat16); the tail keeps
//     its bits (generated seed 4197868: a bfloat16 NaN read as float64).
//   - neg of a float16/bfloat16 NaN in the vector chunks: 2.15 flips the
//     sign bit (payload kept, not quieted); 1.13 negates in float and
//     converts back (NegReducedFloatVectorFlipsSign).
//   - float -> bfloat16 copy of a contiguous run: 0xffff for every NaN, the
//     tail included; double -> bfloat16: chunks of kDoubleToBFloat16VectorChunk
//     (16: [48] is all chunks, [979] has a tail of 3 from 976; the [40] once
//     measured could not tell 16 from 32; generated seed 661 of the
//     special-value runs, full [979] of a float64 NaN, on 1.13 and 2.15).
//   - float16 -> float copy_ on fbgemm's path (2.15: same sizes, both
//     contiguous or dst dense with src's strides; to() and promoted inputs
//     too): chunks of kHalfToFloatCopyChunk in memory order quiet the NaN and
//     keep its payload, the tail writes 0x7fffffff
//     (HalfToFloatCopyTailAllOnes); the copy kernel and 1.13 quiet them all.
//   - float32 -> float16 copy_ on the same fbgemm path: chunks of
//     kHalfToFloatCopyChunk quiet and keep the payload's top 10 bits (as
//     c10::Half); 2.5's tail writes kFloatToHalfCopyTailNan (0x7fff) for
//     every NaN, the later ones' tail is like the chunks
//     (FloatToHalfCopyTailKeepsPayload). 1.13 takes no fbgemm path.
// Where LibTorch's own loops leave the bits to the compiler (two NaN
// operands: Note [NaN bits] in program/diff.cpp), the engine writes
// whichever x86 gives its own loop.
#include <cstdint>

#include "engine/half.h"

namespace sc::engine {

inline constexpr int64_t kReducedFloatVectorChunk = 32;
inline constexpr int64_t kDoubleToBFloat16VectorChunk = 16;
inline constexpr int64_t kHalfToFloatCopyChunk = 8;
inline constexpr uint32_t kHalfToFloatCopyTailNan = 0x7fffffffu;
inline constexpr uint16_t kFloatToHalfCopyTailNan = 0x7fff;

// The first element of a run of n that LibTorch's scalar tail writes.
inline constexpr int64_t vector_end(int64_t n, int64_t chunk) { return n - n % chunk; }

// Profile answers (engine/version_profile.h).
bool half_to_float_copy_tail_all_ones();
// Does copy_'s fbgemm float32 -> float16 path write kFloatToHalfCopyTailNan
// in its tail? (The path exists since CopyFloatHalfSkipsOverlapChecks; its
// tail keeps the payload since FloatToHalfCopyTailKeepsPayload.)
bool float_to_half_copy_tail_all_ones();
// Must the engine rewrite that path's chunk NaNs with the payload kept,
// where its own conversion (c10::Half's, profile_half_nan) drops it? (2.0
// to 2.4: FbgemmFloatToHalfChunksKeepPayload before HalfFromFloatKeepsNanPayload.)
bool float_to_half_copy_chunks_keep_payload();
bool neg_reduced_float_vector_flips_sign();

}  // namespace sc::engine
