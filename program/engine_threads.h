#pragma once
// Note [Searched engine threads]: the engine's CPU kernels split their loops
// over threads (engine/kernels/cpu/parallel.h), and a wrong split (a piece
// boundary, the last piece, a run cut where a vector chunk starts elsewhere)
// shows only when a loop is split. So the searches run each program on a
// thread count of its own, 1..kMaxSearchedEngineThreads, with every loop
// split (Program::engine_threads, `#! engine-threads N`): the view-chain
// fuzz target and `stridecheck generate --engine-threads random` draw the
// count from the choice after the program's last one, so the program itself
// is the one the same choices always gave, and the count is reproducible
// from the seed or the fuzzer input (decode and generate print it as the
// program's first line); an exhausted choice list draws 1 (shorter lists are
// simpler programs). The property tests (properties/generators.h) draw it
// with RapidCheck beside the choice list, so it shrinks on its own. The
// trace must not depend on the count: the engine on any count is compared
// with LibTorch on one thread.
#include <cstddef>
#include <cstdint>

#include "program/generator.h"

namespace sc {

inline constexpr int kMaxSearchedEngineThreads = 4;

// 1 + choices.below(kMaxSearchedEngineThreads): 1..4, 1 when exhausted.
int draw_engine_threads(Choices& choices);

// The program a view-chain fuzzer input stands for: generate_program on the
// input's choices, then its engine thread count drawn from the next choice.
Program fuzz_input_program(const uint8_t* data, size_t size, const GeneratorPolicy& policy = {},
                           GenerationLog* log = nullptr);

}  // namespace sc
