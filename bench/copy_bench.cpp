// Copies. Where each side allocates:
//  - contiguous() of a transposed tensor, clone(), contiguous(channels_last):
//    both sides allocate the result every iteration (fair: the 4096x4096 cases
//    pay ~64 MiB of fresh pages each time on both sides; the engine also
//    zero-fills every new storage before copying into it);
//  - copy_ (dtype conversion, broadcast): the destination is allocated once,
//    outside the timed loop, on both sides; nothing is allocated inside it.
// The allocating copies of one dtype also run a memcpy of the bytes they
// write, allocating the same way (BM_<op>/memcpy/<arg>: the bandwidth limit).
// Every pair has an _AllThreads variant (both sides on every hardware thread,
// run after the one-thread benchmarks; see bench_common.h).
#include "bench/bench_common.h"
#include "engine/copy.h"
#include "engine/creation.h"
#include "engine/elementwise.h"
#include "engine/inplace.h"
#include "engine/views.h"

namespace sc::bench {
namespace {

using engine::DType;
using engine::Shape;
using ETensor = engine::Tensor;

struct EPair {
  ETensor dst, src;
};
struct TPair {
  at::Tensor dst, src;
};

// contiguous(channels_last) of a contiguous float32 tensor of sizes s.
void add_channels_last(const Shape& s, const std::string& arg, bool all_threads) {
  const int64_t n = s[0] * s[1] * s[2] * s[3];
  PairOptions o;
  o.elements = n;
  o.bytes = 2 * n * 4;
  o.min_time = 0.3;
  o.memcpy_bytes = n * 4;
  o.memcpy_allocates = true;
  o.all_threads = all_threads;
  add_pair(
      all_threads ? "ChannelsLast_AllThreads" : "ChannelsLast", arg, [s] { return engine_iota(s); },
      [](const ETensor& x) { return engine::contiguous(x, engine::MemoryFormat::ChannelsLast); },
      [s] { return torch_iota(s); },
      [](const at::Tensor& x) { return x.contiguous(at::MemoryFormat::ChannelsLast); }, o);
}

const bool registered = [] {
  for (int64_t n : {256, 4096})
    for (bool all_threads : {false, true}) {
      const std::string arg = std::to_string(n);
      const std::string suffix = all_threads ? "_AllThreads" : "";
      PairOptions o;
      o.elements = n * n;
      o.bytes = 2 * n * n * 4;
      if (n >= 4096) o.min_time = 0.3;
      o.memcpy_bytes = n * n * 4;
      o.memcpy_allocates = true;
      o.all_threads = all_threads;
      // contiguous() of the transpose of a contiguous n x n float32 tensor.
      add_pair(
          "Contiguous_Transposed" + suffix, arg, [n] { return engine::transpose(engine_iota({n, n}), 0, 1); },
          [](const ETensor& x) { return engine::contiguous(x); },
          [n] { return torch_iota({n, n}).transpose(0, 1); }, [](const at::Tensor& x) { return x.contiguous(); },
          o);
      add_pair(
          "Clone_Contiguous" + suffix, arg, [n] { return engine_iota({n, n}); },
          [](const ETensor& x) { return engine::clone(x); }, [n] { return torch_iota({n, n}); },
          [](const at::Tensor& x) { return x.clone(); }, o);
    }

  constexpr int64_t kN = int64_t{1} << 20;
  for (bool all_threads : {false, true}) {
    const std::string suffix = all_threads ? "_AllThreads" : "";
    PairOptions o;
    o.all_threads = all_threads;
    o.elements = kN;
    o.bytes = kN * (4 + 2);
    // Sources 0, 1/32, 2/32, ... < 32768: every value is in float16's range
    // and most need rounding (0, 1, 2, ... up to 2^20 would mostly overflow
    // to inf, a branch that says little about the conversion).
    add_pair(
        "CopyConvert_F32_to_F16" + suffix, "1M",
        [] {
          const ETensor src = engine::mul(engine_iota({kN}), engine::Operand::of(engine::Scalar::floating(1.0 / 32)));
          return EPair{engine::empty({kN}, DType::Float16), src};
        },
        [](EPair& p) { return engine::copy_(p.dst, p.src); },
        [] { return TPair{at::empty({kN}, at::kHalf), torch_iota({kN}).mul(1.0 / 32)}; },
        [](TPair& p) { return p.dst.copy_(p.src); }, o);
    // The other way round: float16 -> float32.
    PairOptions back = o;
    add_pair(
        "CopyConvert_F16_to_F32" + suffix, "1M",
        [] {
          const ETensor src = engine::mul(engine_iota({kN}), engine::Operand::of(engine::Scalar::floating(1.0 / 32)));
          ETensor h = engine::empty({kN}, DType::Float16);
          engine::copy_(h, src);
          return EPair{engine::empty({kN}, DType::Float32), h};
        },
        [](EPair& p) { return engine::copy_(p.dst, p.src); },
        [] { return TPair{at::empty({kN}, at::kFloat), torch_iota({kN}).mul(1.0 / 32).to(at::kHalf)}; },
        [](TPair& p) { return p.dst.copy_(p.src); }, back);
    add_pair(
        "CopyConvert_F32_to_BF16" + suffix, "1M",
        [] {
          const ETensor src = engine::mul(engine_iota({kN}), engine::Operand::of(engine::Scalar::floating(1.0 / 32)));
          return EPair{engine::empty({kN}, DType::BFloat16), src};
        },
        [](EPair& p) { return engine::copy_(p.dst, p.src); },
        [] { return TPair{at::empty({kN}, at::kBFloat16), torch_iota({kN}).mul(1.0 / 32)}; },
        [](TPair& p) { return p.dst.copy_(p.src); }, o);
  }
  for (bool all_threads : {false, true}) {
    PairOptions o;
    o.all_threads = all_threads;
    o.elements = kN;
    o.bytes = kN * (8 + 4);
    add_pair(
        all_threads ? "CopyConvert_I64_to_F32_AllThreads" : "CopyConvert_I64_to_F32", "1M",
        [] { return EPair{engine::empty({kN}, DType::Float32), engine_iota({kN}, DType::Int64)}; },
        [](EPair& p) { return engine::copy_(p.dst, p.src); },
        [] { return TPair{at::empty({kN}, at::kFloat), torch_iota({kN}, at::kLong)}; },
        [](TPair& p) { return p.dst.copy_(p.src); }, o);
  }
  for (bool all_threads : {false, true}) {
    // dst [1024,1024] float32 <- src [1024] (a row broadcast down the rows).
    PairOptions o;
    o.all_threads = all_threads;
    o.elements = kN;
    o.bytes = kN * 4 + 1024 * 4;
    add_pair(
        all_threads ? "CopyBroadcast_Row_AllThreads" : "CopyBroadcast_Row", "1024x1024",
        [] { return EPair{engine::empty({1024, 1024}, DType::Float32), engine_iota({1024})}; },
        [](EPair& p) { return engine::copy_(p.dst, p.src); },
        [] { return TPair{at::empty({1024, 1024}, at::kFloat), torch_iota({1024})}; },
        [](TPair& p) { return p.dst.copy_(p.src); }, o);
  }
  add_channels_last({32, 64, 56, 56}, "32x64x56x56", false);
  add_channels_last({32, 64, 56, 56}, "32x64x56x56", true);
  // 64 MiB of float32 (the bandwidth goal is read at this size).
  add_channels_last({64, 64, 64, 64}, "64x64x64x64", false);
  add_channels_last({64, 64, 64, 64}, "64x64x64x64", true);
  return true;
}();

}  // namespace
}  // namespace sc::bench
