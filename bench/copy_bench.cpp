// Copies. Where each side allocates:
//  - contiguous() of a transposed tensor, clone(), contiguous(channels_last):
//    both sides allocate the result every iteration (fair: the 4096x4096 cases
//    pay ~64 MiB of fresh pages each time on both sides; the engine also
//    zero-fills every new storage before copying into it);
//  - copy_ (dtype conversion, broadcast): the destination is allocated once,
//    outside the timed loop, on both sides; nothing is allocated inside it.
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

const bool registered = [] {
  for (int64_t n : {256, 4096}) {
    const std::string arg = std::to_string(n);
    PairOptions o;
    o.elements = n * n;
    o.bytes = 2 * n * n * 4;
    if (n >= 4096) o.min_time = 0.3;
    // contiguous() of the transpose of a contiguous n x n float32 tensor.
    add_pair(
        "Contiguous_Transposed", arg, [n] { return engine::transpose(engine_iota({n, n}), 0, 1); },
        [](const ETensor& x) { return engine::contiguous(x); },
        [n] { return torch_iota({n, n}).transpose(0, 1); }, [](const at::Tensor& x) { return x.contiguous(); },
        o);
    add_pair(
        "Clone_Contiguous", arg, [n] { return engine_iota({n, n}); },
        [](const ETensor& x) { return engine::clone(x); }, [n] { return torch_iota({n, n}); },
        [](const at::Tensor& x) { return x.clone(); }, o);
  }

  constexpr int64_t kN = int64_t{1} << 20;
  {
    PairOptions o;
    o.elements = kN;
    o.bytes = kN * (4 + 2);
    // Sources 0, 1/32, 2/32, ... < 32768: every value is in float16's range
    // and most need rounding (0, 1, 2, ... up to 2^20 would mostly overflow
    // to inf, a branch that says little about the conversion).
    add_pair(
        "CopyConvert_F32_to_F16", "1M",
        [] {
          const ETensor src = engine::mul(engine_iota({kN}), engine::Operand::of(engine::Scalar::floating(1.0 / 32)));
          return EPair{engine::empty({kN}, DType::Float16), src};
        },
        [](EPair& p) { return engine::copy_(p.dst, p.src); },
        [] { return TPair{at::empty({kN}, at::kHalf), torch_iota({kN}).mul(1.0 / 32)}; },
        [](TPair& p) { return p.dst.copy_(p.src); }, o);
  }
  {
    PairOptions o;
    o.elements = kN;
    o.bytes = kN * (8 + 4);
    add_pair(
        "CopyConvert_I64_to_F32", "1M",
        [] { return EPair{engine::empty({kN}, DType::Float32), engine_iota({kN}, DType::Int64)}; },
        [](EPair& p) { return engine::copy_(p.dst, p.src); },
        [] { return TPair{at::empty({kN}, at::kFloat), torch_iota({kN}, at::kLong)}; },
        [](TPair& p) { return p.dst.copy_(p.src); }, o);
  }
  {
    // dst [1024,1024] float32 <- src [1024] (a row broadcast down the rows).
    PairOptions o;
    o.elements = kN;
    o.bytes = kN * 4 + 1024 * 4;
    add_pair(
        "CopyBroadcast_Row", "1024x1024",
        [] { return EPair{engine::empty({1024, 1024}, DType::Float32), engine_iota({1024})}; },
        [](EPair& p) { return engine::copy_(p.dst, p.src); },
        [] { return TPair{at::empty({1024, 1024}, at::kFloat), torch_iota({1024})}; },
        [](TPair& p) { return p.dst.copy_(p.src); }, o);
  }
  {
    // contiguous(channels_last) of a contiguous (32,64,56,56) float32 tensor.
    const Shape s{32, 64, 56, 56};
    const int64_t n = 32 * 64 * 56 * 56;
    PairOptions o;
    o.elements = n;
    o.bytes = 2 * n * 4;
    o.min_time = 0.3;
    add_pair(
        "ChannelsLast", "32x64x56x56", [s] { return engine_iota(s); },
        [](const ETensor& x) { return engine::contiguous(x, engine::MemoryFormat::ChannelsLast); },
        [s] { return torch_iota(s); },
        [](const at::Tensor& x) { return x.contiguous(at::MemoryFormat::ChannelsLast); }, o);
  }
  return true;
}();

}  // namespace
}  // namespace sc::bench
