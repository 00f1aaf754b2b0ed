// stridecheck_cuda_bench: the engine's CUDA kernels against LibTorch's CUDA
// kernels, and a device-to-device cudaMemcpy of half the case's traffic (the
// same bytes read and written) as the bandwidth limit. Names follow
// bench/bench_common.h: BM_<Op>/<engine|libtorch|memcpy>/<arg>.
//
// Each iteration is timed with CUDA events on the default stream (manual
// time: the GPU's time, not the host's); bytes/s counts bytes read + written.
// Both sides allocate their results inside the timed loop (the engine from
// its caching allocator, which also zero-fills, LibTorch from its own); the
// copy_ cases write into a destination allocated once.
// Exits 0 after saying why where there is no GPU or LibTorch has no CUDA.
#include <ATen/ATen.h>
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <functional>
#include <string>

#include "bench/bench_common.h"
#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/inplace.h"
#include "engine/kernels/cuda/kernels.h"
#include "engine/views.h"
#include "oracle/oracle.h"

namespace sc::bench {
namespace {

using engine::Device;
using engine::DType;
using ETensor = engine::Tensor;

void timed(benchmark::State& state, const std::function<void()>& op, int64_t bytes) {
  op();  // warm-up: allocator caches, lazy module loading
  cudaDeviceSynchronize();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (auto _ : state) {
    cudaEventRecord(start, 0);
    op();
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    state.SetIterationTime(ms / 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  state.SetBytesProcessed(state.iterations() * bytes);
}

ETensor engine_iota_cuda(const engine::Shape& sizes, DType d = DType::Float32) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return engine::view(engine::arange(n, d, Device::CUDA), sizes);
}
at::Tensor torch_iota_cuda(const engine::Shape& sizes, at::ScalarType d = at::kFloat) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return at::arange(n, at::TensorOptions().dtype(d).device(at::kCUDA)).view(sizes);
}

// Registers the three sides of one case. make_*() build the inputs once and
// return the operation to time.
void add_case(const std::string& op, const std::string& arg, int64_t bytes,
              std::function<std::function<void()>()> make_engine, std::function<std::function<void()>()> make_torch) {
  auto reg = [&](std::string_view side, std::function<std::function<void()>()> make) {
    add(op, side, arg, [make, bytes](benchmark::State& s) { timed(s, make(), bytes); })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  };
  reg(kEngine, make_engine);
  reg(kTorch, make_torch);
  reg("memcpy", [bytes] {
    const size_t n = static_cast<size_t>(bytes / 2);
    void *src = nullptr, *dst = nullptr;
    cudaMalloc(&src, n);
    cudaMalloc(&dst, n);
    // Freed at exit: one pair per memcpy case.
    return std::function<void()>([=] { cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, 0); });
  });
}

void register_cases() {
  constexpr int64_t kN = 8192;                 // 8192 x 8192 float32: 256 MiB
  constexpr int64_t kElems = kN * kN;
  constexpr int64_t kBytes = kElems * 4;
  const std::string mat = "8192x8192";
  add_case("Clone_Contiguous", mat, 2 * kBytes,
           [=] { ETensor x = engine_iota_cuda({kN, kN}); return std::function<void()>([x] { engine::clone(x); }); },
           [=] { at::Tensor x = torch_iota_cuda({kN, kN}); return std::function<void()>([x] { x.clone(); }); });
  add_case("Contiguous_Transposed", mat, 2 * kBytes,
           [=] {
             ETensor x = engine::transpose(engine_iota_cuda({kN, kN}), 0, 1);
             return std::function<void()>([x] { engine::contiguous(x); });
           },
           [=] {
             at::Tensor x = torch_iota_cuda({kN, kN}).t();
             return std::function<void()>([x] { x.contiguous(); });
           });
  const engine::Shape nchw{32, 256, 64, 128};  // 256 MiB of float32
  const std::string img = "32x256x64x128";
  add_case("Contiguous_ChannelsLast", img, 2 * kBytes,
           [=] {
             ETensor x = engine_iota_cuda(nchw);
             return std::function<void()>([x] { engine::contiguous(x, engine::MemoryFormat::ChannelsLast); });
           },
           [=] {
             at::Tensor x = torch_iota_cuda(nchw);
             return std::function<void()>([x] { x.contiguous(at::MemoryFormat::ChannelsLast); });
           });
  add_case("Contiguous_FromChannelsLast", img, 2 * kBytes,
           [=] {
             ETensor x = engine::contiguous(engine_iota_cuda(nchw), engine::MemoryFormat::ChannelsLast);
             return std::function<void()>([x] { engine::contiguous(x); });
           },
           [=] {
             at::Tensor x = torch_iota_cuda(nchw).contiguous(at::MemoryFormat::ChannelsLast);
             return std::function<void()>([x] { x.contiguous(); });
           });
  add_case("CopyConvert_F32_to_F16", "64M", kElems * (4 + 2),
           [=] {
             ETensor src = engine_iota_cuda({kElems});
             ETensor dst = engine::empty({kElems}, DType::Float16, Device::CUDA);
             return std::function<void()>([=] { engine::copy_(dst, src); });
           },
           [=] {
             at::Tensor src = torch_iota_cuda({kElems});
             at::Tensor dst = at::empty({kElems}, at::TensorOptions().dtype(at::kHalf).device(at::kCUDA));
             return std::function<void()>([=]() mutable { dst.copy_(src); });
           });
  add_case("CopyBroadcast_Row", mat, kBytes + kN * 4,
           [=] {
             ETensor src = engine_iota_cuda({kN});
             ETensor dst = engine::empty({kN, kN}, DType::Float32, Device::CUDA);
             return std::function<void()>([=] { engine::copy_(dst, src); });
           },
           [=] {
             at::Tensor src = torch_iota_cuda({kN});
             at::Tensor dst = at::empty({kN, kN}, at::TensorOptions().device(at::kCUDA));
             return std::function<void()>([=]() mutable { dst.copy_(src); });
           });
  add_case("Add_Contiguous", "64M", 3 * kBytes,
           [=] {
             ETensor a = engine_iota_cuda({kElems}), b = engine_iota_cuda({kElems});
             return std::function<void()>([=] { engine::add(a, engine::Operand::of(b)); });
           },
           [=] {
             at::Tensor a = torch_iota_cuda({kElems}), b = torch_iota_cuda({kElems});
             return std::function<void()>([=] { at::add(a, b); });
           });
}

}  // namespace
}  // namespace sc::bench

int main(int argc, char** argv) {
  sc::engine::cuda::install();
  std::string why;
  if (sc::engine::cuda::device_count(&why) == 0) {
    std::printf("stridecheck_cuda_bench: skipped: no CUDA device (%s)\n", why.c_str());
    return 0;
  }
  if (!at::hasCUDA()) {
    std::printf("stridecheck_cuda_bench: skipped: this LibTorch (%s) has no CUDA\n",
                sc::oracle::libtorch_description().c_str());
    return 0;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  benchmark::AddCustomContext("gpu", prop.name);
  benchmark::AddCustomContext("libtorch", sc::oracle::libtorch_description());
  benchmark::AddCustomContext("timing", "CUDA events on the default stream (manual time)");
  sc::bench::register_cases();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
