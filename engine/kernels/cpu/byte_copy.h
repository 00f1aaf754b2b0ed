#pragma once
// Note [Short contiguous copies]: a same-dtype copy's contiguous runs are
// often short and many (a row broadcast down the rows: one 4 KiB run per
// row). glibc's memmove copies a few KiB with `rep movsb` on this machine's
// AMD EPYC, which costs more than a plain vector loop: 1024 rows of 4 KiB
// from one L1-resident row took 47-63 us with memmove, 35 us with an AVX2
// or AVX-512 load/store loop (the same with the source at any offset). From
// a few hundred KiB on, memmove (its non-temporal stores past the cache
// size included) is as fast or faster, so long runs keep it.
#include <cstddef>

namespace sc::engine::cpu {

// Below this many bytes a run is copied by copy_bytes' own loop.
inline constexpr size_t kShortCopyBytes = size_t{256} << 10;

// memmove(d, s, n): the vector loop (AVX2 where the CPU has it) when the
// ranges are disjoint and n < kShortCopyBytes, memmove otherwise.
void copy_bytes(std::byte* d, const std::byte* s, size_t n);

// Whether copy_bytes' AVX2 loop runs on this CPU (for tests).
bool copy_bytes_uses_avx2();

}  // namespace sc::engine::cpu
