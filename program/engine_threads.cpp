#include "program/engine_threads.h"

namespace sc {

int draw_engine_threads(Choices& choices) {
  return 1 + static_cast<int>(choices.below(static_cast<uint32_t>(kMaxSearchedEngineThreads)));
}

Program fuzz_input_program(const uint8_t* data, size_t size, const GeneratorPolicy& policy, GenerationLog* log) {
  Choices choices = Choices::from_bytes(data, size);
  Program p = generate_program(choices, policy, log);
  p.engine_threads = draw_engine_threads(choices);
  return p;
}

}  // namespace sc
