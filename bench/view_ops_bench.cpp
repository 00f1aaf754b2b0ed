// Header-only ops: engine view functions (engine/views.h) vs at::Tensor
// methods. Nothing is allocated but the result header on either side (the
// input is built outside the timed loop; argument lists are prebuilt, so the
// engine's `const Shape&` and LibTorch's IntArrayRef are both borrowed).
// LibTorch runs in normal mode, as the harness runs it; the
// libtorch_inference variant runs the same ops under c10::InferenceMode.
#include "bench/bench_common.h"
#include "engine/views.h"

namespace sc::bench {
namespace {

using engine::Shape;
using ETensor = engine::Tensor;

// One view op on both sides, over a contiguous float32 input of `input` sizes.
template <class OpE, class OpT>
void add_view(std::string_view op, const Shape& input, OpE op_e, OpT op_t) {
  PairOptions o;
  o.inference_variant = true;
  o.unit = benchmark::kNanosecond;
  add_pair(
      op, "", [input] { return engine_iota(input); }, op_e, [input] { return torch_iota(input); }, op_t, o);
}

const bool registered = [] {
  {
    const Shape to{128, 32};
    add_view(
        "View", {8, 16, 32}, [to](const ETensor& x) { return engine::view(x, to); },
        [to](const at::Tensor& x) { return x.view(to); });
  }
  add_view(
      "Transpose", {8, 16, 32}, [](const ETensor& x) { return engine::transpose(x, 0, 2); },
      [](const at::Tensor& x) { return x.transpose(0, 2); });
  {
    const Shape dims{3, 1, 0, 2};
    add_view(
        "Permute", {2, 3, 4, 5}, [dims](const ETensor& x) { return engine::permute(x, dims); },
        [dims](const at::Tensor& x) { return x.permute(dims); });
  }
  add_view(
      "Slice", {64, 128}, [](const ETensor& x) { return engine::slice(x, 1, 8, 120, 2); },
      [](const at::Tensor& x) { return x.slice(1, 8, 120, 2); });
  {
    const Shape to{64, 128};
    add_view(
        "Expand", {1, 128}, [to](const ETensor& x) { return engine::expand(x, to); },
        [to](const at::Tensor& x) { return x.expand(to); });
  }
  add_view(
      "Unfold", {1024}, [](const ETensor& x) { return engine::unfold(x, 0, 8, 4); },
      [](const at::Tensor& x) { return x.unfold(0, 8, 4); });
  {
    const Shape size{32, 32}, stride{256, 2};
    add_view(
        "AsStrided", {64, 128}, [=](const ETensor& x) { return engine::as_strided(x, size, stride, 5); },
        [=](const at::Tensor& x) { return x.as_strided(size, stride, 5); });
  }
  {
    // A contiguous input: reshape is a view (computeStride succeeds).
    const Shape to{-1, 32};
    add_view(
        "Reshape_View", {8, 16, 32}, [to](const ETensor& x) { return engine::reshape(x, to); },
        [to](const at::Tensor& x) { return x.reshape(to); });
  }
  return true;
}();

}  // namespace
}  // namespace sc::bench
