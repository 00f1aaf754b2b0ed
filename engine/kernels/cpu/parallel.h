#pragma once
// Threads for the CPU kernels.
//
// Note [CPU kernel threads]: the kernels run on one thread unless
// set_num_threads() says otherwise (default 1, so a run is deterministic and
// the harness behaves as it always has). With more, a kernel whose loop has
// at least kParallelMinElements elements splits it into one piece per
// thread, run by a pool of workers started once (Note
// [CPU kernel thread pool], parallel.cpp). The strided loops split the
// elements in memory-walk order (TensorIterator's idea), so a single long
// contiguous run is shared too, at boundaries that keep every run's vector
// chunks where one thread has them (Note [Pieces of a run], loop.h); the
// tiled and strip-mined loops split their outermost dim (parallel_for).
// Only pure kernels that write each location once run this way (copy, fill,
// the elementwise ops); the undefined-byte bookkeeping stays on one thread.
#include <cstdint>
#include <functional>

namespace sc::engine::cpu {

// 8x at::internal::GRAIN_SIZE: the pool's workers sleep between loops (they
// do not spin as LibTorch's OpenMP threads do), and waking one costs the
// caller about as much as copying 2^15 floats. Measured with 2^15: the
// 65,536-element Clone_Contiguous_AllThreads/256 took 3.5-4.1 us of the
// caller's time, 2.1-2.3 us on one thread.
inline constexpr int64_t kParallelMinElements = int64_t{1} << 18;

// The loop size from which kernels split (default kParallelMinElements; a
// test lowers it to split small loops). n >= 1.
void set_parallel_min_elements(int64_t n);
int64_t parallel_min_elements();

// n >= 1 threads for later kernels (n <= 0: the hardware's thread count).
void set_num_threads(int n);
int num_threads();

// For its lifetime: n threads (n >= 1), and with n > 1 every loop split
// (parallel_min_elements 1), so that small loops take the parallel paths;
// then the earlier thread count and threshold again. A program that names
// its engine thread count (`#! engine-threads N`, program/ir.h) runs so.
class ScopedThreads {
 public:
  explicit ScopedThreads(int n);
  ~ScopedThreads();
  ScopedThreads(const ScopedThreads&) = delete;
  ScopedThreads& operator=(const ScopedThreads&) = delete;

 private:
  int threads_;
  int64_t min_elements_;
};

// Calls body(begin, end) over disjoint ranges covering [0, outer), on up to
// num_threads() threads when numel >= parallel_min_elements() and outer > 1,
// else once on this thread. Waits for all; the first exception thrown by a
// range is rethrown here.
void parallel_for(int64_t outer, int64_t numel, const std::function<void(int64_t, int64_t)>& body);

// How many pieces a loop of numel elements is split into: num_threads() when
// it is above 1 and numel >= parallel_min_elements(), else 1.
int64_t parallel_pieces(int64_t numel);

// Calls task(t) for every t in [0, tasks), each on its own thread of the
// pool (task 0 on this one) when tasks > 1; waits for all. When the pool is
// busy with another loop, every task runs here, in order. The first
// exception thrown by a task is rethrown here.
void parallel_tasks(int64_t tasks, const std::function<void(int64_t)>& task);

}  // namespace sc::engine::cpu
