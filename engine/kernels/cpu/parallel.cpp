#include "engine/kernels/cpu/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace sc::engine::cpu {
namespace {

std::atomic<int> g_threads{1};
std::atomic<int64_t> g_min_elements{kParallelMinElements};

// Note [CPU kernel thread pool]: the workers are started once, on the first
// parallel loop that wants them, and sleep on a condition variable between
// loops (starting threads per loop cost tens of microseconds, as much as a
// 1M-element kernel's share). One loop at a time: a loop started while
// another runs (from another thread) runs on its caller alone, with the same
// result, since every range writes only its own elements.
// A sleeping worker takes tens of microseconds to wake (futex, scheduler;
// measured on this KVM guest: a 1M-element float16 conversion on 2 threads
// took 80 us of wall time against 56 us on one). So a worker that finished a
// loop first spins for kSpin on the loop counter before it sleeps, and the
// caller spins as long for the workers' pieces before it sleeps; loops that
// follow each other (a benchmark, a program's steps) find the workers awake.
// LibTorch's OpenMP workers spin the same way. Every field is still written
// under the mutex; the spins only read the two atomics.
constexpr auto kSpin = std::chrono::microseconds(200);

template <class Done>
void spin_until(const Done& done) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; !done(); ++i) {
    if ((i & 63) != 63) continue;
    if (std::chrono::steady_clock::now() - start > kSpin) return;
    std::this_thread::yield();  // more threads than cores (--engine-threads 3 here): let the working one run
  }
}

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& w : workers_) w.join();
  }

  // Runs task(1..tasks-1) on workers and task(0) here; returns when all are
  // done. False (nothing run) when another loop holds the pool.
  bool run(int64_t tasks, const std::function<void(int64_t)>& task) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      while (static_cast<int64_t>(workers_.size()) < tasks - 1) {
        const int64_t index = static_cast<int64_t>(workers_.size()) + 1;
        workers_.emplace_back([this, index] { work(index); });
      }
      task_ = &task;
      tasks_ = tasks;
      remaining_ = tasks - 1;
      ++generation_;
    }
    wake_.notify_all();
    task(0);
    spin_until([this] { return remaining_.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return remaining_ == 0; });
    task_ = nullptr;
    return true;
  }

 private:
  // Worker `index` runs task(index) of every loop with more than index tasks.
  void work(int64_t index) {
    uint64_t seen = 0;
    while (true) {
      spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (index >= tasks_) continue;
      const std::function<void(int64_t)>* task = task_;
      lock.unlock();
      (*task)(index);
      lock.lock();
      if (--remaining_ == 0) done_.notify_one();
    }
  }

  std::mutex busy_;   // held for a whole loop
  std::mutex mutex_;  // guards the fields below
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int64_t)>* task_ = nullptr;
  int64_t tasks_ = 0;
  std::atomic<int64_t> remaining_{0};
  std::atomic<uint64_t> generation_{0};
  bool stop_ = false;
};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

void set_num_threads(int n) {
  if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  g_threads.store(n);
}

int num_threads() { return g_threads.load(); }

void set_parallel_min_elements(int64_t n) { g_min_elements.store(std::max<int64_t>(n, 1)); }

int64_t parallel_min_elements() { return g_min_elements.load(); }

ScopedThreads::ScopedThreads(int n) : threads_(num_threads()), min_elements_(parallel_min_elements()) {
  set_num_threads(std::max(n, 1));
  if (n > 1) set_parallel_min_elements(1);
}

ScopedThreads::~ScopedThreads() {
  set_num_threads(threads_);
  set_parallel_min_elements(min_elements_);
}

int64_t parallel_pieces(int64_t numel) {
  const int64_t threads = num_threads();
  return threads > 1 && numel >= parallel_min_elements() ? threads : 1;
}

void parallel_tasks(int64_t tasks, const std::function<void(int64_t)>& task) {
  if (tasks <= 1) {
    if (tasks == 1) task(0);
    return;
  }
  std::exception_ptr error;
  std::mutex error_mutex;
  const std::function<void(int64_t)> guarded = [&](int64_t t) {
    try {
      task(t);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  if (!pool().run(tasks, guarded))
    for (int64_t t = 0; t < tasks; ++t) guarded(t);
  if (error) std::rethrow_exception(error);
}

void parallel_for(int64_t outer, int64_t numel, const std::function<void(int64_t, int64_t)>& body) {
  const int64_t threads = std::min<int64_t>(num_threads(), outer);
  if (threads <= 1 || numel < parallel_min_elements()) {
    body(0, outer);
    return;
  }
  parallel_tasks(threads, [&](int64_t t) {
    const int64_t begin = outer * t / threads, end = outer * (t + 1) / threads;
    if (begin < end) body(begin, end);
  });
}

}  // namespace sc::engine::cpu
