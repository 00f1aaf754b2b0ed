// parallel_for's contract (engine/kernels/cpu/parallel.h), drawn directly:
// the kernels split a loop over threads only from 2^18 elements on, with
// threads switched on (the searches' programs lower that threshold to 1:
// Note [Searched engine threads]; this property keeps the default). Every index of
// [0, outer) is handed to the body exactly once; with n threads and a loop
// that is big enough the ranges run on min(n, outer) distinct threads, else
// the whole loop runs once on the caller's thread; a range that throws makes
// parallel_for throw. (Found by scripts/mutation.sh: the worker loop's start
// and step, and set_num_threads' store, could be mutated unnoticed.)
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/kernels/cpu/parallel.h"

namespace sc::properties {
namespace {

namespace cpu = engine::cpu;

// Restores the harness's one thread whatever the property does.
struct ThreadsFor {
  explicit ThreadsFor(int n) { cpu::set_num_threads(n); }
  ~ThreadsFor() { cpu::set_num_threads(1); }
};

RC_GTEST_PROP(ParallelFor, CoversEveryIndexOnceOnUpToNThreads, ()) {
  const int threads = *rc::gen::inRange(1, 6);
  const int64_t outer = *rc::gen::inRange<int64_t>(0, 40);
  const int64_t numel = *rc::gen::arbitrary<bool>()
                            ? cpu::kParallelMinElements + *rc::gen::inRange<int64_t>(0, 1000)
                            : *rc::gen::inRange<int64_t>(0, cpu::kParallelMinElements);
  // A range holding this index throws (none when it is outer).
  const int64_t throw_at = *rc::gen::arbitrary<bool>() ? outer : *rc::gen::inRange<int64_t>(0, outer + 1);
  ThreadsFor set(threads);
  RC_ASSERT(cpu::num_threads() == threads);

  std::mutex m;
  std::vector<int> hits(static_cast<size_t>(outer), 0);
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::set<std::thread::id> ids;
  bool thrown = false;
  try {
    cpu::parallel_for(outer, numel, [&](int64_t b, int64_t e) {
      std::lock_guard<std::mutex> lock(m);
      ranges.emplace_back(b, e);
      ids.insert(std::this_thread::get_id());
      for (int64_t i = b; i < e && i < outer; ++i) ++hits[static_cast<size_t>(std::max<int64_t>(i, 0))];
      if (b <= throw_at && throw_at < e) throw std::runtime_error("range failed");
    });
  } catch (const std::runtime_error&) {
    thrown = true;
  }
  RC_ASSERT(thrown == (throw_at < outer));
  RC_ASSERT(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
  const bool split = threads > 1 && numel >= cpu::kParallelMinElements && outer > 1;
  if (!split) {
    RC_ASSERT(ranges == (std::vector<std::pair<int64_t, int64_t>>{{0, outer}}));
    RC_ASSERT(ids == std::set<std::thread::id>{std::this_thread::get_id()});
    return;
  }
  const size_t expected = static_cast<size_t>(std::min<int64_t>(threads, outer));
  RC_ASSERT(ranges.size() == expected);
  RC_ASSERT(ids.size() == expected);
  RC_ASSERT(ids.count(std::this_thread::get_id()) == 1u);
  for (const auto& [b, e] : ranges) RC_ASSERT(0 <= b && b < e && e <= outer);
}

}  // namespace
}  // namespace sc::properties
