// The LibTorch backend records the Observation trace the seeds describe:
// header facts, aliasing, views and their _base, version counters, storage
// numbering and contents, on cpu and meta.
#include <ATen/Context.h>
#include <gtest/gtest.h>
#include <torch/version.h>

#include <cstring>
#include <stdexcept>

#include "oracle/oracle.h"
#include "program/backend.h"
#include "program/parser.h"
#include "tests/oracle/oracle_test_util.h"

namespace sc::oracle {
namespace {

using test_util::run;

const TensorObs& result(const Trace& t, size_t step, size_t i = 0) {
  EXPECT_EQ(t.steps.at(step).outcome, Outcome::Ok) << t.steps.at(step).error_message;
  return t.steps.at(step).results.at(i);
}

int64_t version_of(const StepObs& s, const std::string& name) {
  for (auto& [n, v] : s.versions)
    if (n == name) return v;
  ADD_FAILURE() << name << " has no version";
  return -1;
}

std::vector<float> floats(const StorageObs& s) {
  std::vector<float> out(s.bytes.size() / sizeof(float));
  std::memcpy(out.data(), s.bytes.data(), out.size() * sizeof(float));
  return out;
}

using V = std::vector<int64_t>;

TEST(TorchBackend, NamesItselfAndItsLibTorchVersion) {
  register_backends();
  auto cpu = make_backend("libtorch:cpu");
  EXPECT_EQ(cpu->name(), "libtorch:cpu");
  EXPECT_EQ(cpu->version(), "LibTorch " + libtorch_description());
  EXPECT_EQ(libtorch_version(), TORCH_VERSION);
  EXPECT_EQ(libtorch_description().rfind(TORCH_VERSION, 0), 0u) << libtorch_description();
  EXPECT_EQ(make_backend("libtorch:meta")->name(), "libtorch:meta");
  EXPECT_EQ(run("a = arange 3").backend_version, "LibTorch " + libtorch_description());
}

TEST(TorchBackend, UnknownDeviceIsInvalidArgument) {
  register_backends();
  EXPECT_THROW(make_backend("libtorch:tpu"), std::invalid_argument);
}

TEST(TorchBackend, CudaWithoutADeviceSaysWhy) {
  if (at::hasCUDA()) GTEST_SKIP() << "a CUDA device is present";
  register_backends();
  try {
    make_backend("libtorch:cuda");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind("libtorch:cuda: no CUDA device available (LibTorch " + libtorch_description() + ", built with", 0),
              0u)
        << what;
  }
}

TEST(TorchBackend, CudaRunsWhereADeviceIs) {
  if (!at::hasCUDA()) GTEST_SKIP() << "no CUDA device";
  Trace t = run("a = arange 4\nb = view a [2,2]\nc = t b", "cuda");
  EXPECT_EQ(result(t, 2).strides, (V{1, 2}));
  ASSERT_EQ(t.steps[2].storages.size(), 1u);
  EXPECT_EQ(floats(t.steps[2].storages[0]), (std::vector<float>{0, 1, 2, 3}));
}

// Seed: transpose(0, 2) of (2,3,4) has sizes (4,3,2) and strides (1,4,12), same storage.
TEST(TorchBackend, TransposeSwapsSizesAndStrides) {
  Trace t = run("a = arange 24\nb = view a [2,3,4]\nc = transpose b 0 2");
  const TensorObs& c = result(t, 2);
  EXPECT_EQ(c.sizes, (V{4, 3, 2}));
  EXPECT_EQ(c.strides, (V{1, 4, 12}));
  EXPECT_FALSE(c.contiguous);
  EXPECT_TRUE(c.non_overlapping_and_dense);
  EXPECT_TRUE(c.is_view);
  EXPECT_EQ(c.base, "a");  // _base is the root, not the immediate parent
  EXPECT_EQ(c.storage, 0);
  EXPECT_EQ(c.dtype, "float32");
}

// Seed: zeros(1,1000).expand(1000,1000) has strides (0,1) over 4000 bytes.
TEST(TorchBackend, ExpandHasStrideZeroAndOverlaps) {
  Trace t = run("z = zeros [1,1000]\ng = expand z [1000,1000]");
  const TensorObs& g = result(t, 1);
  EXPECT_EQ(g.strides, (V{0, 1}));
  EXPECT_EQ(g.torch_overlap, Overlap::Yes);
  EXPECT_EQ(g.storage, 0);
  ASSERT_EQ(t.steps[1].storages.size(), 1u);
  EXPECT_EQ(t.steps[1].storages[0].nbytes, 4000);
}

// Seed: as_strided windows overlap; LibTorch's detector says "too hard".
TEST(TorchBackend, ReportsLibTorchsOwnOverlapAnswer) {
  Trace t = run("a = arange 10\nw = as_strided a [4,4] [2,1]");
  EXPECT_EQ(result(t, 1).torch_overlap, Overlap::TooHard);
  EXPECT_EQ(result(t, 1).exact_overlap, Overlap::Yes);
}

// Seed: detach() shares storage; it is not a view (its _base is None).
TEST(TorchBackend, DetachSharesStorageAndIsNoView) {
  Trace t = run("a = arange 6\nd = detach a\nzero_ d");
  const TensorObs& d = result(t, 1);
  EXPECT_EQ(d.storage, 0);
  EXPECT_FALSE(d.is_view);
  EXPECT_EQ(d.same_as, "");
  EXPECT_EQ(floats(t.steps[2].storages[0]), (std::vector<float>(6, 0.0f)));  // zeroes a itself
}

// Seed (fence 3): x[0].add_(1) bumps the shared counter 0 -> 1, x.mul_(2) -> 2.
TEST(TorchBackend, VersionCounterIsSharedByViews) {
  Trace t = run("x = zeros [2,3]\nv = select x 0 0\nadd_ v 1\nmul_ x 2");
  EXPECT_EQ(version_of(t.steps[1], "x"), 0);
  EXPECT_EQ(version_of(t.steps[1], "v"), 0);
  EXPECT_EQ(version_of(t.steps[2], "x"), 1);
  EXPECT_EQ(version_of(t.steps[2], "v"), 1);
  EXPECT_EQ(version_of(t.steps[3], "x"), 2);
  EXPECT_EQ(version_of(t.steps[3], "v"), 2);
  EXPECT_EQ(floats(t.steps[3].storages[0]), (std::vector<float>{2, 2, 2, 0, 0, 0}));
}

// Python's factories (torch.zeros, torch.arange, torch.full, ...) hand out tensors at version 0.
TEST(TorchBackend, FreshTensorsStartAtVersionZero) {
  Trace t = run(
      "a = arange 4\nb = zeros [2]\nc = ones [2]\nd = full [2] 3\ne = tensor [1,2]\n"
      "f = empty_strided [2,2] [1,2]\ng = zeros_like a\nh = empty_like a\ni = clone a");
  for (const char* n : {"a", "b", "c", "d", "e", "f", "g", "h", "i"}) EXPECT_EQ(version_of(t.steps.back(), n), 0) << n;
}

// Seed: x.contiguous() is x when x is already contiguous.
TEST(TorchBackend, ContiguousOfContiguousIsTheSameTensor) {
  Trace t = run("a = arange 6\nb = contiguous a");
  EXPECT_EQ(result(t, 1).same_as, "a");
  Trace u = run("a = arange 6\nb = view a [2,3]\nc = t b\nd = contiguous c");
  EXPECT_EQ(result(u, 3).same_as, "");
  EXPECT_EQ(result(u, 3).storage, 1);
  EXPECT_FALSE(result(u, 3).is_view);
}

// In-place ops return self.
TEST(TorchBackend, InPlaceOpReturnsSelf) {
  Trace t = run("a = arange 3\nb = add_ a 1");
  EXPECT_EQ(result(t, 1).same_as, "a");
}

TEST(TorchBackend, StoragesAreNumberedByFirstAppearance) {
  Trace t = run("a = arange 4\nb = zeros [2]\nc = view a [2,2]\nd = clone c\ne = select b 0 1");
  EXPECT_EQ(result(t, 0).storage, 0);
  EXPECT_EQ(result(t, 1).storage, 1);
  EXPECT_EQ(result(t, 2).storage, 0);
  EXPECT_EQ(result(t, 3).storage, 2);
  EXPECT_EQ(result(t, 4).storage, 1);
  ASSERT_EQ(t.steps[4].storages.size(), 3u);
  EXPECT_EQ(t.steps[4].storages[0].nbytes, 16);
  EXPECT_EQ(t.steps[4].storages[1].nbytes, 8);
  EXPECT_EQ(t.steps[4].storages[2].nbytes, 16);
}

TEST(TorchBackend, StorageContentsAreTheFullBytes) {
  Trace t = run("a = arange 6\nb = slice a 0 1 4 2\nfill_ b 9");
  const StorageObs& s = t.steps[2].storages.at(0);
  EXPECT_TRUE(s.has_contents);
  EXPECT_TRUE(s.undefined.empty());
  EXPECT_EQ(floats(s), (std::vector<float>{0, 9, 2, 9, 4, 5}));
  EXPECT_NE(s.hash, 0u);
}

// Seed (fence 4): to(channels_last) on (2,3,4,5) has strides (60,1,15,3).
TEST(TorchBackend, ChannelsLastFacts) {
  Trace t = run("a = arange 120\nb = view a [2,3,4,5]\nc = to b format=channels_last");
  const TensorObs& c = result(t, 2);
  EXPECT_EQ(c.strides, (V{60, 1, 15, 3}));
  EXPECT_FALSE(c.contiguous);
  EXPECT_TRUE(c.channels_last);
  EXPECT_FALSE(c.channels_last_3d);
  EXPECT_TRUE(c.non_overlapping_and_dense);
}

TEST(TorchBackend, MetaDeviceHasHeadersButNoContents) {
  Trace t = run("a = arange 24\nb = view a [2,3,4]\nc = transpose b 0 2\nadd_ c 1", "meta");
  EXPECT_EQ(t.backend, "libtorch:meta");
  EXPECT_EQ(result(t, 2).strides, (V{1, 4, 12}));
  ASSERT_EQ(t.steps[3].storages.size(), 1u);
  EXPECT_FALSE(t.steps[3].storages[0].has_contents);
  EXPECT_TRUE(t.steps[3].storages[0].bytes.empty());
  EXPECT_EQ(t.steps[3].storages[0].nbytes, 96);
  EXPECT_EQ(version_of(t.steps[3], "a"), 1);
}

TEST(TorchBackend, OracleNeverMarksStepsUndefined) {
  Trace t = run("a = arange 10\nw = as_strided a [4,4] [2,1]\nmul_ w 2");
  EXPECT_FALSE(t.steps[2].undefined);
}

TEST(TorchBackend, BudgetStopsTheStepBeforeItRuns) {
  register_backends();
  auto backend = make_backend("libtorch:cpu");
  RunOptions o;
  o.budget_bytes = 100;
  Trace t = backend->run(parse_program("a = zeros [10]\nb = zeros [100]"), o);
  EXPECT_EQ(t.steps[0].outcome, Outcome::Ok);
  EXPECT_EQ(t.steps[1].outcome, Outcome::OverBudget);
  EXPECT_EQ(t.steps[1].storages.size(), 1u);
}

}  // namespace
}  // namespace sc::oracle
