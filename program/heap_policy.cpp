#include "program/heap_policy.h"

#include <cstdlib>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace sc {

// Note [The harness keeps its heap]: a fuzz execution allocates its
// tensors' storages, for two backends, and frees them when the program ends;
// the next program allocates much the same again. glibc serves a block above
// its mmap threshold (128 KiB at first, then the largest mapped block freed
// so far) with a fresh mmap and unmaps it on free, and gives the heap's free
// top back to the kernel past its trim threshold. So each program faulted in
// again the pages the last one had just returned: perf stat of BM_FuzzExec
// counted 411 page faults per 64 programs for the differential run, 78 for
// LibTorch alone and 279 for the engine alone, each a trip into the kernel
// (counted in the thread's CPU time). With blocks of up to 32 MiB kept in the
// heap and its top trimmed only past 1 GiB: ~4, ~2 and ~0.3; the
// differential's CPU time fell ~12% at load 18 (issue 10, speed9's notes).
// What it costs: a process keeps its peak heap mapped (programs run under a
// budget: 64 MiB per backend in the fuzzer). What it cannot change: bytes a
// program reads before anything wrote them are undefined on both sides
// (LibTorch's empty: whatever the heap held, fresh pages or freed ones; the
// engine's fresh storage is zeroed or poisoned, Note [Poisoned fresh
// storage]), and the diff never compares them.
void keep_heap_between_programs() {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHeapBlockBytes));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(kHeapTrimBytes));
#endif
}

}  // namespace sc
