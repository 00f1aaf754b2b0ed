// engine/tensor: identities. next_tensor_id hands out ids from per-thread
// blocks: unique across threads, increasing within one, never 0.
#include "engine/tensor.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace sc::engine {
namespace {

TEST(TensorId, UniqueAcrossThreadsIncreasingWithinOne) {
  constexpr int kThreads = 4, kIds = 5000;  // several blocks per thread
  std::vector<std::vector<uint64_t>> ids(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&ids, t] {
      for (int i = 0; i < kIds; ++i) ids[t].push_back(next_tensor_id());
    });
  for (auto& th : threads) th.join();
  std::set<uint64_t> all;
  for (const auto& v : ids) {
    for (size_t i = 0; i < v.size(); ++i) {
      EXPECT_NE(v[i], 0u);
      if (i > 0) EXPECT_LT(v[i - 1], v[i]);
      all.insert(v[i]);
    }
  }
  EXPECT_EQ(all.size(), size_t{kThreads} * kIds);
}

TEST(TensorId, ViewsAndNewTensorsGetFreshIds) {
  Tensor a = make_tensor(Storage::allocate(16), {2, 2}, {2, 1}, 0, DType::Float32);
  Tensor v = make_view(a, {4}, {1}, 0);
  Tensor w = make_view(v, {2}, {2}, 0);
  EXPECT_NE(a.id, v.id);
  EXPECT_NE(v.id, w.id);
  EXPECT_EQ(v.base_id, a.id);
  EXPECT_EQ(w.base_id, a.id);  // the root, never the parent
  EXPECT_EQ(&w.version(), &a.version());
  EXPECT_EQ(w.storage, a.storage);
}

// Note [one version counter per storage]: views share it (through the
// storage), a new storage starts its own at 0.
TEST(TensorVersion, OneCounterPerStorage) {
  Tensor a = make_tensor(Storage::allocate(16), {4}, {1}, 0, DType::Float32);
  Tensor v = make_view(a, {2}, {2}, 0);
  Tensor b = make_tensor(Storage::allocate(16), {4}, {1}, 0, DType::Float32);
  v.version().value += 1;
  EXPECT_EQ(a.version().value, 1);
  EXPECT_EQ(&a.version(), &a.storage->version());
  EXPECT_EQ(b.version().value, 0);
}

// Headers stay safe to copy and drop on several threads at once: one
// reference per header, counted atomically (the storage's shared_ptr).
TEST(TensorCopies, ViewsMadeAndDroppedOnFourThreadsLeaveOneReference) {
  const Tensor a = make_tensor(Storage::allocate(64), {4, 4}, {4, 1}, 0, DType::Float32);
  constexpr int kThreads = 4, kViews = 20000;
  std::vector<std::vector<Tensor>> kept(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&a, &kept, t] {
      for (int i = 0; i < kViews; ++i) {
        Tensor v = make_view(a, {4, 4}, {1, 4}, 0);  // made and dropped
        if (i % 2 == 0) kept[t].push_back(v);        // copied and kept
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(a.storage.use_count(), 1 + kThreads * kViews / 2);
  for (auto& k : kept) k.clear();
  EXPECT_EQ(a.storage.use_count(), 1);
}

}  // namespace
}  // namespace sc::engine
