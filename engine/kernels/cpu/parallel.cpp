#include "engine/kernels/cpu/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace sc::engine::cpu {
namespace {
std::atomic<int> g_threads{1};
}  // namespace

void set_num_threads(int n) {
  if (n <= 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  g_threads.store(n);
}

int num_threads() { return g_threads.load(); }

void parallel_for(int64_t outer, int64_t numel, const std::function<void(int64_t, int64_t)>& body) {
  const int64_t threads = std::min<int64_t>(num_threads(), outer);
  if (threads <= 1 || numel < kParallelMinElements) {
    body(0, outer);
    return;
  }
  std::exception_ptr error;
  std::mutex error_mutex;
  auto run = [&](int64_t t) {
    const int64_t begin = outer * t / threads, end = outer * (t + 1) / threads;
    if (begin >= end) return;
    try {
      body(begin, end);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(threads - 1));
  for (int64_t t = 1; t < threads; ++t) workers.emplace_back(run, t);
  run(0);
  for (std::thread& w : workers) w.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace sc::engine::cpu
