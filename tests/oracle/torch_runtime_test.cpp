// LibTorch's errors and warnings as the oracle reports them: the Python kind,
// the message without backtrace, no partial state after a raising step, and
// every warning every time.
#include <c10/util/Exception.h>
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "oracle/oracle.h"
#include "oracle/torch_runtime.h"
#include "program/backend.h"
#include "program/parser.h"
#include "tests/oracle/oracle_test_util.h"

namespace sc::oracle {
namespace {

using test_util::run;

template <class Throw>
engine::TorchError translated(Throw&& thrower) {
  try {
    thrower();
  } catch (...) {
    return current_exception_as_torch_error();
  }
  ADD_FAILURE() << "nothing was thrown";
  return engine::TorchError(engine::ErrorKind::RuntimeError, "");
}

TEST(CleanErrorMessage, DropsTheRaisedFromLineAndWhatFollows) {
  EXPECT_EQ(clean_error_message("bad view\nException raised from view_impl at x.cpp:12 (most recent call first):\n"
                                "frame #0: f()\nframe #1: g()\n"),
            "bad view");
  EXPECT_EQ(clean_error_message("Exception raised from f at a.cpp:1"), "");
}

TEST(CleanErrorMessage, DropsALeadingSourceLocation) {
  EXPECT_EQ(clean_error_message("/__w/pytorch/pytorch/build/aten/src/ATen/RegisterCPU_0.cpp:1766: SymIntArrayRef "
                                "expected to contain only concrete integers"),
            "SymIntArrayRef expected to contain only concrete integers");
  EXPECT_EQ(clean_error_message("c10/core/SymInt.h:12: x"), "x");
  EXPECT_EQ(clean_error_message("shape '[2]' is invalid: for input of size 3"), "shape '[2]' is invalid: for input of size 3");
  EXPECT_EQ(clean_error_message("a.cpp:x: not a line"), "a.cpp:x: not a line");
  EXPECT_EQ(clean_error_message("Tensor: invalid storage offset -3"), "Tensor: invalid storage offset -3");
}

TEST(CleanErrorMessage, KeepsMultiLineMessagesAndTrimsTrailingWhitespace) {
  EXPECT_EQ(clean_error_message("line one\nline two  \n\n"), "line one\nline two");
  EXPECT_EQ(clean_error_message("mentions Exception raised from inside a line"),
            "mentions Exception raised from inside a line");
}

TEST(ErrorKinds, MapFromTheC10ExceptionClass) {
  using engine::ErrorKind;
  EXPECT_EQ(translated([] { C10_THROW_ERROR(IndexError, "i"); }).kind, ErrorKind::IndexError);
  EXPECT_EQ(translated([] { C10_THROW_ERROR(ValueError, "v"); }).kind, ErrorKind::ValueError);
  EXPECT_EQ(translated([] { C10_THROW_ERROR(TypeError, "t"); }).kind, ErrorKind::TypeError);
  EXPECT_EQ(translated([] { C10_THROW_ERROR(NotImplementedError, "n"); }).kind, ErrorKind::NotImplementedError);
  EXPECT_EQ(translated([] { TORCH_CHECK(false, "plain check"); }).kind, ErrorKind::RuntimeError);
  engine::TorchError e = translated([] { throw std::runtime_error("shape inference\n"); });
  EXPECT_EQ(e.kind, ErrorKind::RuntimeError);
  EXPECT_EQ(e.message, "shape inference");
}

TEST(ErrorKinds, MessageIsWithoutBacktrace) {
  ensure_torch_runtime();
  engine::TorchError e = translated([] { TORCH_CHECK(false, "expected X, but got Y"); });
  EXPECT_EQ(e.message, "expected X, but got Y");
}

// Seed: view after transpose raises, with LibTorch's message.
TEST(TorchErrors, ViewAfterTransposeIsARuntimeError) {
  Trace t = run("a = arange 12\nb = view a [3,4]\nc = t b\nd = view c [-1]");
  const StepObs& s = t.steps[3];
  EXPECT_EQ(s.outcome, Outcome::Error);
  EXPECT_EQ(s.error_kind, "RuntimeError");
  EXPECT_EQ(s.error_message,
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
            "two contiguous subspaces). Use .reshape(...) instead.");
  EXPECT_TRUE(s.results.empty());
}

TEST(TorchErrors, OutOfRangeIndexIsAnIndexError) {
  Trace t = run("a = arange 3\nb = select a 0 5\nc = transpose a 0 3");
  EXPECT_EQ(t.steps[1].error_kind, "IndexError");
  EXPECT_EQ(t.steps[1].error_message, "select(): index 5 out of range for tensor of size [3] at dimension 0");
  EXPECT_EQ(t.steps[2].error_kind, "IndexError");
  EXPECT_EQ(t.steps[2].error_message, "Dimension out of range (expected to be in range of [-1, 0], but got 3)");
}

// LibTorch 1.13 raises some errors as plain std::runtime_error (e.g. c10's
// overflow check); they are RuntimeErrors with their message.
TEST(TorchErrors, PlainStdRuntimeErrorIsARuntimeError) {
  Trace t = run("a = tensor [300] dtype=uint8");
  EXPECT_EQ(t.steps[0].error_kind, "RuntimeError");
  EXPECT_EQ(t.steps[0].error_message, "value cannot be converted to type uint8 without overflow");
}

TEST(TorchErrors, MessagesCarryNoBacktraceAndAreCheap) {
  std::string text = "a = arange 12\nb = view a [3,4]\nc = t b\n";
  for (int i = 0; i < 200; ++i) text += "d" + std::to_string(i) + " = view c [-1]\n";
  run("a = arange 1");  // one-time setup outside the timing
  auto start = std::chrono::steady_clock::now();
  Trace t = run(text);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (size_t i = 3; i < t.steps.size(); ++i) {
    EXPECT_EQ(t.steps[i].outcome, Outcome::Error);
    EXPECT_EQ(t.steps[i].error_message.find("Exception raised from"), std::string::npos);
    EXPECT_EQ(t.steps[i].error_message.find("frame #"), std::string::npos);
  }
  // With backtraces each error costs ~4.6 ms (~0.6-0.9 s for 200 here); without, ~20 us (~2 ms).
  EXPECT_LT(seconds, 0.15) << "errors seem to capture backtraces";
}

// A step that raises changes nothing: no version bump, no write, no binding.
TEST(TorchErrors, ARaisingStepLeavesNoPartialState) {
  Trace t = run(
      "z = zeros [1,4]\ng = expand z [3,4]\nh = add_ g 1\nk = neg h\n"
      "x = zeros [2,3]\ny = arange 4\ncopy_ x y\nw = add_ x 1.5");
  const StepObs& raised = t.steps[2];
  EXPECT_EQ(raised.outcome, Outcome::Error);
  EXPECT_EQ(raised.error_message,
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.");
  EXPECT_EQ(raised.versions, t.steps[1].versions);
  EXPECT_EQ(raised.storages.at(0).bytes, t.steps[1].storages.at(0).bytes);
  EXPECT_EQ(t.steps[3].outcome, Outcome::Skipped);  // h stays unbound

  const StepObs& copy = t.steps[6];
  EXPECT_EQ(copy.outcome, Outcome::Error);
  EXPECT_EQ(copy.error_message, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  EXPECT_EQ(copy.versions, t.steps[5].versions);

  EXPECT_EQ(t.steps[7].outcome, Outcome::Ok);  // float32 += 1.5 is fine
}

TEST(TorchErrors, ResultTypeCastIsARuntimeError) {
  Trace t = run("a = arange 3 dtype=int64\nadd_ a 1.5");
  EXPECT_EQ(t.steps[1].error_kind, "RuntimeError");
  EXPECT_EQ(t.steps[1].error_message, "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(t.steps[1].versions, t.steps[0].versions);
}

// x.T on a 3-d tensor warns (TORCH_WARN_ONCE in 1.13): every time, as the engine does.
TEST(TorchWarnings, CapturedEveryTimeAndPerStep) {
  Trace t = run("a = zeros [2,3,4]\nb = T a\nc = T a\nd = mT a");
  ASSERT_EQ(t.steps[1].warnings.size(), 1u);
  EXPECT_EQ(t.steps[1].warnings[0].rfind("The use of `x.T` on tensors of dimension other than 2 to reverse their "
                                         "shape is deprecated",
                                         0),
            0u);
  EXPECT_EQ(t.steps[2].warnings, t.steps[1].warnings);
  EXPECT_TRUE(t.steps[0].warnings.empty());
  EXPECT_TRUE(t.steps[3].warnings.empty());
}

TEST(TorchWarnings, AWarningHandlerIsRestoredAfterTheStep) {
  ensure_torch_runtime();
  ::c10::WarningHandler* before = c10_warning::get_warning_handler();
  run("a = zeros [2,3,4]\nb = T a");
  EXPECT_EQ(c10_warning::get_warning_handler(), before);
}

}  // namespace
}  // namespace sc::oracle
