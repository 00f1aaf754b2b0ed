// Elementwise ops on float32, 1M elements. add and mul allocate their result
// every iteration on both sides (4 MiB: after the first iteration malloc
// reuses the freed block on both sides, so this measures the kernels and the
// op's set-up, not page faults); add_ writes in place and allocates nothing.
// Every pair has an _AllThreads variant (run after the one-thread ones).
#include "bench/bench_common.h"
#include "engine/elementwise.h"
#include "engine/inplace.h"
#include "engine/views.h"

namespace sc::bench {
namespace {

using engine::Operand;
using engine::Shape;
using ETensor = engine::Tensor;

struct EPair {
  ETensor a, b;
};
struct TPair {
  at::Tensor a, b;
};

const bool registered = [] {
  constexpr int64_t kN = int64_t{1} << 20;
  const std::string arg = "1M";
  {
    PairOptions o;
    o.elements = kN;
    o.bytes = 3 * kN * 4;
    for (bool all_threads : {false, true}) {
      o.all_threads = all_threads;
      add_pair(
          all_threads ? "Add_Contiguous_AllThreads" : "Add_Contiguous", arg,
          [] { return EPair{engine_iota({kN}), engine_iota({kN})}; },
          [](EPair& p) { return engine::add(p.a, Operand::of(p.b)); },
          [] { return TPair{torch_iota({kN}), torch_iota({kN})}; }, [](TPair& p) { return at::add(p.a, p.b); },
          o);
    }
  }
  for (bool all_threads : {false, true}) {
    // [1024,1024] + [1024]: the second operand broadcast along dim 0.
    PairOptions o;
    o.all_threads = all_threads;
    o.elements = kN;
    o.bytes = 2 * kN * 4 + 1024 * 4;
    add_pair(
        all_threads ? "Add_Broadcast_AllThreads" : "Add_Broadcast", arg, [] { return EPair{engine_iota({1024, 1024}), engine_iota({1024})}; },
        [](EPair& p) { return engine::add(p.a, Operand::of(p.b)); },
        [] { return TPair{torch_iota({1024, 1024}), torch_iota({1024})}; },
        [](TPair& p) { return at::add(p.a, p.b); }, o);
  }
  for (bool all_threads : {false, true}) {
    // a.add_(1.0): a Python-float scalar, in place. Values grow by 1 per
    // iteration; float32 stays finite over any benchmark's iterations.
    PairOptions o;
    o.all_threads = all_threads;
    o.elements = kN;
    o.bytes = 2 * kN * 4;
    add_pair(
        all_threads ? "AddScalar_Inplace_AllThreads" : "AddScalar_Inplace", arg, [] { return engine_iota({kN}); },
        [](ETensor& a) { return engine::add_(a, Operand::of(engine::Scalar::floating(1.0))); },
        [] { return torch_iota({kN}); }, [](at::Tensor& a) { return a.add_(1.0); }, o);
  }
  for (bool all_threads : {false, true}) {
    // a.t() * b with a, b contiguous [1024,1024]: one operand transposed, so
    // one of the two inputs is read across rows whichever order the loop
    // takes. The output strides follow LibTorch's rule on both sides (the
    // pair's geometry check compares them).
    PairOptions o;
    o.all_threads = all_threads;
    o.elements = kN;
    o.bytes = 3 * kN * 4;
    add_pair(
        all_threads ? "Mul_TransposedContiguous_AllThreads" : "Mul_TransposedContiguous", arg,
        [] { return EPair{engine::t(engine_iota({1024, 1024})), engine_iota({1024, 1024})}; },
        [](EPair& p) { return engine::mul(p.a, Operand::of(p.b)); },
        [] { return TPair{torch_iota({1024, 1024}).t(), torch_iota({1024, 1024})}; },
        [](TPair& p) { return at::mul(p.a, p.b); }, o);
  }
  return true;
}();

}  // namespace
}  // namespace sc::bench
