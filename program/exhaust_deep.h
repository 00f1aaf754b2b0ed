#pragma once
// Note [Exhaust deep chains] (`stridecheck exhaust --phase 7`): phase 3's
// chains (Note [Exhaust chains], program/exhaust.h) are two steps on float32.
// Phase 7 makes
//  - the same first steps (each view op at its first valid classes and at
//    each valid class alone) on int64, float16 and bool layouts (contiguous
//    3-d, transposed, non-dense, stride 0, overlapping), where the copy and
//    conversion kernels take their dtype-specific paths and a bool's bytes
//    are checked; layout "dtype chain";
//  - three-step chains: each float32 chain whose first step is at its first
//    valid classes (layout "chain"), then each view op at its first valid
//    classes on it, kept where the engine runs it; layout "chain of three".
// Then every op with an input at its first valid classes, with the write
// through its result; on the three-step chains a deterministic sample: op o
// takes chain c when fnv1a(o + "|" + c's name) % kDeepChainSample == 0 (a
// quarter; all of them, ExhaustPolicy::wide, about 150,000 cases).
#include <string_view>
#include <vector>

#include "program/exhaust.h"

namespace sc {

inline constexpr uint64_t kDeepChainSample = 4;

// The deep chain inputs (x bound by the last view), made once per seed.
const std::vector<ExhaustInput>& exhaust_deep_chain_inputs(const ExhaustPolicy& policy);
// Whether op runs on the deep chain `in` (the sampling rule above).
bool deep_chain_sampled(std::string_view op, const ExhaustInput& in, const ExhaustPolicy& policy);

}  // namespace sc
