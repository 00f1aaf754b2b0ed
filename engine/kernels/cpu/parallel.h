#pragma once
// Threads for the CPU kernels.
//
// Note [CPU kernel threads]: the kernels run on one thread unless
// set_num_threads() says otherwise (default 1, so a run is deterministic and
// the harness behaves as it always has). With more, a kernel whose loop has
// at least kParallelMinElements elements splits its outermost loop dim into
// one contiguous range per thread (at::parallel_for's idea, with a grain far
// above at::internal::GRAIN_SIZE), run by a pool of workers started once
// (Note [CPU kernel thread pool], parallel.cpp). Only pure kernels that write each location once run
// this way (copy, fill, the elementwise ops); the undefined-byte bookkeeping
// stays on one thread.
#include <cstdint>
#include <functional>

namespace sc::engine::cpu {

inline constexpr int64_t kParallelMinElements = int64_t{1} << 18;

// n >= 1 threads for later kernels (n <= 0: the hardware's thread count).
void set_num_threads(int n);
int num_threads();

// Calls body(begin, end) over disjoint ranges covering [0, outer), on up to
// num_threads() threads when numel >= kParallelMinElements and outer > 1,
// else once on this thread. Waits for all; the first exception thrown by a
// range is rethrown here.
void parallel_for(int64_t outer, int64_t numel, const std::function<void(int64_t, int64_t)>& body);

}  // namespace sc::engine::cpu
