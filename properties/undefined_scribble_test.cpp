// The engine's undefined-contents flow is sound: no byte it calls defined
// depends on bytes it called undefined. The program runs twice on the engine,
// once as it is and once with every byte it marks undefined overwritten
// (engine::Storage::set_undefined_scribble); the diff skips undefined bytes,
// so the two traces must agree. A flag the flow drops (a result of an op
// reading an unwritten empty_like, not marked) compares garbage against
// LibTorch only when LibTorch's garbage happens to differ from the engine's
// bytes; here it differs every time. No oracle needed.
// (Found by scripts/mutation.sh, round 6: elementwise.cpp's
// mark_elements_undefined(result, ...) could be removed unnoticed.)
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/storage.h"
#include "program/backend.h"
#include "program/compare.h"
#include "program/printer.h"
#include "properties/generators.h"

namespace sc::properties {
namespace {

// The engine backend with the scribble byte set for the duration of a run.
class ScribblingEngine final : public Backend {
 public:
  ScribblingEngine(Backend& engine, int byte) : engine_(engine), byte_(byte) {}
  std::string name() const override { return engine_.name(); }
  std::string version() const override { return engine_.version(); }
  Trace run(const Program& p, const RunOptions& options) override {
    struct Reset {
      ~Reset() { engine::Storage::set_undefined_scribble(-1); }
    } reset;
    engine::Storage::set_undefined_scribble(byte_);
    return engine_.run(p, options);
  }

 private:
  Backend& engine_;
  int byte_;
};

Backend& engine_backend() {
  static std::unique_ptr<Backend> b = [] {
    register_engine_backend();
    return make_backend("engine:cpu");
  }();
  return *b;
}

RC_GTEST_PROP(EngineUndefinedFlow, NoDefinedByteDependsOnUndefinedBytes, ()) {
  GeneratorPolicy policy;
  policy.write_empty_like_percent = 40;  // more reads of unwritten empty_likes
  const GeneratedProgram g = *gen_program(policy);
  // 0xff: NaN in every floating dtype, -1 in every integer one, an invalid bool.
  const int byte = *rc::gen::element(0x00, 0xff, 0xa5, 0x7f, 0x80, 0x01);
  ScribblingEngine plain(engine_backend(), -1), scribbled(engine_backend(), byte);
  RunOptions options;
  options.record_contents = false;
  options.budget_bytes = int64_t{16} << 20;
  Comparison c = compare_backends(g.program, plain, scribbled, options);
  RC_CLASSIFY(c.diff.verdict == Verdict::Undefined, "undefined");
  if (c.diff.verdict == Verdict::Fail)
    RC_FAIL("undefined bytes overwritten with " + std::to_string(byte) + " changed a defined result\n" +
            format_diff(g.program, c.left, c.right, c.diff));
}

}  // namespace
}  // namespace sc::properties
