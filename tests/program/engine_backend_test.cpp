// engine:cuda (program/engine_backend.cpp): where it cannot run (no CUDA
// kernels built, no GPU) asking for it is a usage error that says why, never
// a crash; where it can, a program's trace on engine:cuda equals engine:cpu's.
// A program's `#! engine-threads N` holds for its run on engine:cpu only.
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/kernels/cpu/parallel.h"
#include "engine/storage.h"

#include "program/backend.h"
#include "program/diff.h"
#include "program/parser.h"

namespace sc {
namespace {

TEST(EngineCudaBackend, UnavailableIsAUsageErrorSayingWhy) {
  register_engine_backend();
  const std::optional<std::string> why = engine_cuda_unavailable();
  if (!why) GTEST_SKIP() << "engine:cuda can run here (a GPU is present)";
  EXPECT_EQ(why->rfind("engine:cuda: ", 0), 0u) << *why;
  try {
    make_backend("engine:cuda");
    ADD_FAILURE() << "engine:cuda was made without a usable GPU";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), *why);
  }
  // The CPU engine is unaffected.
  EXPECT_NO_THROW(make_backend("engine:cpu"));
}

TEST(EngineCudaBackend, TraceEqualsTheCpuEngines) {
  register_engine_backend();
  if (auto why = engine_cuda_unavailable()) GTEST_SKIP() << *why;
  const Program p = parse_program(
      "a = arange 24\n"
      "b = view a [2,3,4]\n"
      "c = transpose b 0 2\n"
      "d = contiguous c\n"
      "e = to d dtype=float16\n"
      "f = add c 1.5\n"
      "g = empty_strided [2,3] [1,2] dtype=int8\n"
      "copy_ g f\n"
      "h = flip b [0,2]\n"
      "i = index_select b 1 [2,0]\n"
      "j = repeat g [2,1]\n"
      "clamp_ b 3 9\n"
      "div_ b 2\n"  // 1/2 is exact: a CUDA division by a CPU scalar multiplies by its reciprocal

      "k = zeros [2,2] dtype=int32\n"
      "add k 5 out=k\n");
  auto cpu = make_backend("engine:cpu");
  auto gpu = make_backend("engine:cuda");
  const Trace tc = cpu->run(p, {});
  const Trace tg = gpu->run(p, {});
  const DiffResult d = diff_traces(p, tc, tg);
  EXPECT_NE(d.verdict, Verdict::Fail) << format_diff(p, tc, tg, d);
}

TEST(EngineBackend, ProgramEngineThreadsHoldForItsRunOnly) {
  namespace cpu = engine::cpu;
  register_engine_backend();
  auto engine = make_backend("engine:cpu");
  const Program threaded = parse_program(
      "#! engine-threads 3\n"
      "a = arange 5000\n"
      "b = view a [50,100]\n"
      "c = t b\n"
      "d = contiguous c\n"
      "e = to d dtype=float16\n"
      "f = add c b\n"
      "mul_ c 3\n"
      "g = zeros [100,50] dtype=int8\n"
      "copy_ g c\n");
  std::vector<std::pair<int, int64_t>> seen;  // threads, split threshold at each step
  RunOptions o;
  o.on_step = [&](const std::string&, size_t) { seen.emplace_back(cpu::num_threads(), cpu::parallel_min_elements()); };
  const Trace t3 = engine->run(threaded, o);
  ASSERT_EQ(seen.size(), threaded.steps.size());
  for (const auto& s : seen) EXPECT_EQ(s, std::make_pair(3, int64_t{1}));
  EXPECT_EQ(cpu::num_threads(), 1);
  EXPECT_EQ(cpu::parallel_min_elements(), cpu::kParallelMinElements);

  Program plain = threaded;
  plain.engine_threads = 0;
  seen.clear();
  const Trace t1 = engine->run(plain, o);
  for (const auto& s : seen) EXPECT_EQ(s, std::make_pair(1, cpu::kParallelMinElements));
  const DiffResult d = diff_traces(threaded, t3, t1);
  EXPECT_EQ(d.verdict, Verdict::Pass) << format_diff(threaded, t3, t1, d);
}

// The harness's engine poisons fresh storages (Note [Poisoned fresh storage]).
TEST(EngineBackend, RegisteringPoisonsFreshStorage) {
  register_engine_backend();
  EXPECT_TRUE(engine::poison_fresh_storage());
}

// Note [index_select on CUDA]: an index out of range fails a device-side
// assert in LibTorch's kernel (and poisons the context), so engine:cuda refuses
// the step with that reason; an empty result is returned without a look at
// the indices (the CPU engine checks them: LibTorch's CPU kernel does).
TEST(EngineCudaBackend, IndexSelectFollowsTheCudaKernelsChecks) {
  register_engine_backend();
  if (auto why = engine_cuda_unavailable()) GTEST_SKIP() << *why;
  const Program p = parse_program(
      "a = arange 6\n"
      "b = index_select a 0 [6]\n"
      "c = index_select a 0 [-1]\n"
      "d = zeros [2,0]\n"
      "e = index_select d 0 [7]\n"
      "f = index_select a 0 [5,0]\n");
  const Trace tg = make_backend("engine:cuda")->run(p, {});
  const Trace tc = make_backend("engine:cpu")->run(p, {});
  ASSERT_EQ(tg.steps.size(), 6u);
  for (size_t i : {1u, 2u}) {
    EXPECT_EQ(tg.steps[i].outcome, Outcome::Refused) << i;
    EXPECT_NE(tg.steps[i].note.find("device-side assert"), std::string::npos) << tg.steps[i].note;
  }
  EXPECT_EQ(tg.steps[4].outcome, Outcome::Ok);
  EXPECT_EQ(tc.steps[4].outcome, Outcome::Error);
  EXPECT_EQ(tg.steps[5].outcome, Outcome::Ok);
}

}  // namespace
}  // namespace sc
