#pragma once
// How a harness process's malloc treats the memory its programs free
// (Note [The harness keeps its heap], heap_policy.cpp).

namespace sc {

// Keeps freed blocks of up to kHeapBlockBytes in the heap for the next
// program, and the heap's free top mapped up to kHeapTrimBytes. glibc only
// (a no-op elsewhere, and under AddressSanitizer's own allocator).
// register_engine_backend calls it once, so every process that runs
// programs (stridecheck, the fuzz targets, the benchmarks, the tests) does.
void keep_heap_between_programs();

inline constexpr long kHeapBlockBytes = 32L << 20;  // glibc's largest mmap threshold on 64-bit
inline constexpr long kHeapTrimBytes = 1L << 30;

}  // namespace sc
