#include "program/diff.h"

#include <gtest/gtest.h>

#include <cstring>

#include "engine/nan_choice.h"
#include "program/chosen_nans.h"
#include "program/parser.h"

namespace sc {
namespace {

// A program and a matching hand-built trace: a = arange 4 (float32), b = view a [2,2].
struct Fixture {
  Program program = parse_program("a = arange 4\nb = view a [2,2]\nadd_ b 1\n", "f.prog");
  Trace trace;

  Fixture() {
    trace.backend = "left";
    TensorObs a;
    a.dtype = "float32";
    a.sizes = {4};
    a.strides = {1};
    a.contiguous = a.non_overlapping_and_dense = true;
    a.storage = 0;
    TensorObs b = a;
    b.sizes = {2, 2};
    b.strides = {2, 1};
    b.is_view = true;
    b.base = "a";
    StorageObs s;
    s.id = 0;
    s.nbytes = 16;
    for (float f : {0.f, 1.f, 2.f, 3.f}) {
      uint8_t raw[4];
      std::memcpy(raw, &f, 4);
      s.bytes.insert(s.bytes.end(), raw, raw + 4);
    }
    s.hash = contents_hash(s.bytes.data(), s.bytes.size(), nullptr);
    StepObs s0;
    s0.results = {a};
    s0.versions = {{"a", 0}};
    s0.storages = {s};
    StepObs s1;
    s1.results = {b};
    s1.versions = {{"a", 0}, {"b", 0}};
    s1.storages = {s};
    StepObs s2 = s1;
    s2.results = {b};
    s2.results[0].same_as = "b";
    s2.versions = {{"a", 1}, {"b", 1}};
    trace.steps = {s0, s1, s2};
  }
};

DiffResult diff_with(const std::function<void(Trace&)>& change, const Fixture& f = Fixture()) {
  Trace b = f.trace;
  b.backend = "right";
  change(b);
  return diff_traces(f.program, f.trace, b);
}

TEST(Diff, EqualTracesPass) {
  Fixture f;
  DiffResult d = diff_traces(f.program, f.trace, f.trace);
  EXPECT_EQ(d.verdict, Verdict::Pass);
  EXPECT_FALSE(d.first);
}

TEST(Diff, EachFieldIsReportedAtItsStep) {
  struct Case {
    std::function<void(Trace&)> change;
    size_t step;
    std::string field;
  };
  const std::vector<Case> cases = {
      {[](Trace& t) { t.steps[1].outcome = Outcome::Error; t.steps[1].error_kind = "RuntimeError"; }, 1, "outcome"},
      {[](Trace& t) { t.steps[1].results[0].dtype = "float64"; }, 1, "result 0 dtype"},
      {[](Trace& t) { t.steps[1].results[0].sizes = {4, 1}; }, 1, "result 0 sizes"},
      {[](Trace& t) { t.steps[1].results[0].strides = {1, 2}; }, 1, "result 0 strides"},
      {[](Trace& t) { t.steps[1].results[0].storage_offset = 1; }, 1, "result 0 storage_offset"},
      {[](Trace& t) { t.steps[0].results[0].contiguous = false; }, 0, "result 0 is_contiguous"},
      {[](Trace& t) { t.steps[1].results[0].channels_last = true; }, 1, "result 0 is_contiguous(channels_last)"},
      {[](Trace& t) { t.steps[1].results[0].channels_last_3d = true; }, 1, "result 0 is_contiguous(channels_last_3d)"},
      {[](Trace& t) { t.steps[1].results[0].non_overlapping_and_dense = false; }, 1, "result 0 is_non_overlapping_and_dense"},
      {[](Trace& t) { t.steps[2].results[0].same_as = ""; }, 2, "result 0 same tensor as"},
      {[](Trace& t) { t.steps[1].results[0].is_view = false; }, 1, "result 0 is_view"},
      {[](Trace& t) { t.steps[1].results[0].base = "?"; }, 1, "result 0 _base"},
      {[](Trace& t) { t.steps[1].results[0].storage = 1; }, 1, "result 0 storage"},
      {[](Trace& t) { t.steps[1].results[0].torch_overlap = Overlap::TooHard; }, 1, "result 0 has_internal_overlap"},
      {[](Trace& t) { t.steps[1].results[0].exact_overlap = Overlap::Yes; }, 1, "result 0 exact internal overlap"},
      {[](Trace& t) { t.steps[1].results.clear(); }, 1, "result count"},
      {[](Trace& t) { t.steps[2].warnings = {"careful"}; }, 2, "warnings"},
      {[](Trace& t) { t.steps[2].versions[1].second = 2; }, 2, "versions"},
      {[](Trace& t) { t.steps[1].storages.push_back(t.steps[1].storages[0]); }, 1, "storage count"},
      {[](Trace& t) { t.steps[1].storages[0].nbytes = 32; }, 1, "storage 0 nbytes"},
      {[](Trace& t) { t.steps[2].storages[0].bytes[5] ^= 1; }, 2, "storage 0 contents"},
      {[](Trace& t) { t.steps.pop_back(); }, 2, "step count"},
  };
  for (const Case& c : cases) {
    DiffResult d = diff_with(c.change);
    ASSERT_EQ(d.verdict, Verdict::Fail) << c.field;
    ASSERT_TRUE(d.first) << c.field;
    EXPECT_EQ(d.first->step, c.step) << c.field;
    EXPECT_EQ(d.first->field, c.field);
  }
}

TEST(Diff, ErrorKindAndMessage) {
  auto error_both = [](Trace& t) {
    t.steps[1].outcome = Outcome::Error;
    t.steps[1].results.clear();
    t.steps[1].error_kind = "RuntimeError";
    t.steps[1].error_message = "view size is not compatible";
  };
  Fixture f;
  error_both(f.trace);
  DiffResult d = diff_with([&](Trace& t) { t.steps[1].error_kind = "IndexError"; }, f);
  EXPECT_EQ(d.first->field, "error kind");
  d = diff_with([&](Trace& t) { t.steps[1].error_message += "."; }, f);
  EXPECT_EQ(d.first->field, "error message");
  d = diff_with([](Trace&) {}, f);
  EXPECT_EQ(d.verdict, Verdict::Pass);
}

TEST(Diff, FirstDifferingElementIsDecodedAndLocated) {
  DiffResult d = diff_with([](Trace& t) {
    float v = 9.5f;
    std::memcpy(t.steps[2].storages[0].bytes.data() + 8, &v, 4);  // element 2
  });
  ASSERT_EQ(d.verdict, Verdict::Fail);
  EXPECT_EQ(d.first->left, "2");
  EXPECT_EQ(d.first->right, "9.5");
  EXPECT_NE(d.first->detail.find("float32 element 2"), std::string::npos) << d.first->detail;
  EXPECT_NE(d.first->detail.find("a[2]"), std::string::npos) << d.first->detail;
  EXPECT_NE(d.first->detail.find("b[1,0]"), std::string::npos) << d.first->detail;
  Fixture f;
  Trace b = f.trace;
  std::memcpy(b.steps[2].storages[0].bytes.data() + 8, "\0\0\x18\x41", 4);
  std::string report = format_diff(f.program, f.trace, b, diff_traces(f.program, f.trace, b));
  EXPECT_NE(report.find("f.prog:3: add_ b 1"), std::string::npos) << report;
}

// Note [NaN bits]: where every value reads the storage as one floating dtype,
// two NaNs are equal whatever their sign and payload; a NaN against a number
// is still a difference.
TEST(Diff, NaNsCompareEqualWhateverTheirBits) {
  Fixture f;
  Trace left = f.trace;
  const uint32_t quiet = 0x7fc00000u, negative_payload = 0xffc00001u;
  std::memcpy(left.steps[2].storages[0].bytes.data() + 4, &quiet, 4);
  Trace right = left;
  std::memcpy(right.steps[2].storages[0].bytes.data() + 4, &negative_payload, 4);
  EXPECT_EQ(diff_traces(f.program, left, right).verdict, Verdict::Pass);
  float number = 1.0f;
  std::memcpy(right.steps[2].storages[0].bytes.data() + 4, &number, 4);
  DiffResult d = diff_traces(f.program, left, right);
  ASSERT_EQ(d.verdict, Verdict::Fail);
  EXPECT_EQ(d.first->field, "storage 0 contents");
}

// Note [NaN bits]: once any value reads the storage as an integer (or as
// another floating dtype), the NaN bits are part of the program and compared.
TEST(Diff, NaNBitsAreComparedWhereAValueReadsThemAsIntegers) {
  for (const char* other : {"int32", "float16"}) {
    Fixture f;
    Trace left = f.trace;
    left.steps[1].results[0].dtype = other;  // b: a view of a's storage as `other`
    const uint32_t quiet = 0x7fc00000u, negative_payload = 0xffc00001u;
    std::memcpy(left.steps[2].storages[0].bytes.data() + 4, &quiet, 4);
    Trace right = left;
    std::memcpy(right.steps[2].storages[0].bytes.data() + 4, &negative_payload, 4);
    DiffResult d = diff_traces(f.program, left, right);
    ASSERT_EQ(d.verdict, Verdict::Fail) << other;
    EXPECT_EQ(d.first->field, "storage 0 contents");
    EXPECT_EQ(d.first->step, 2u);
  }
}

// Note [NaN bits]: a NaN the engine flags as chosen between two NaN operands
// (engine/nan_choice.h) compares as a NaN even where the bits are read as
// integers; a number there is still a difference.
TEST(Diff, NaNsChosenBetweenTwoNanOperandsCompareAsNaNs) {
  Fixture f;
  Trace left = f.trace;
  left.steps[1].results[0].dtype = "int32";
  const uint32_t quiet = 0x7fc00000u, negative_payload = 0xffc00001u;
  std::memcpy(left.steps[2].storages[0].bytes.data() + 4, &quiet, 4);
  left.steps[2].storages[0].nan_choice.assign(16, 0);
  for (int k = 4; k < 8; ++k) left.steps[2].storages[0].nan_choice.edit()[k] = 1;
  Trace right = left;
  right.steps[2].storages[0].nan_choice.clear();  // LibTorch's side flags nothing
  std::memcpy(right.steps[2].storages[0].bytes.data() + 4, &negative_payload, 4);
  EXPECT_EQ(diff_traces(f.program, left, right).verdict, Verdict::Pass);
  float number = 1.0f;
  std::memcpy(right.steps[2].storages[0].bytes.data() + 4, &number, 4);
  EXPECT_EQ(diff_traces(f.program, left, right).verdict, Verdict::Fail);
}

// Note [Chosen NaNs checked] (program/chosen_nans.h): a storage whose
// backend found an element flagged as a chosen NaN holding a number is a
// difference, with contents recorded or hashes only, whichever side it is.
TEST(Diff, AnElementFlaggedAsAChosenNaNThatHoldsANumberIsADifference) {
  const uint8_t f32 = engine::nan_choice_code(engine::DType::Float32);
  Fixture f;
  Trace left = f.trace;
  StorageObs& st = left.steps[2].storages[0];
  st.nan_choice.assign(16, 0);
  for (int k = 4; k < 8; ++k) st.nan_choice.edit()[k] = f32;
  st.chosen_nan_number = first_flagged_number(st.bytes.data(), st.nbytes, st.nan_choice, st.undefined);
  ASSERT_EQ(st.chosen_nan_number, 4);  // element 1 holds 1.0
  const Trace& right = f.trace;  // LibTorch's side flags nothing: the same bytes
  DiffResult d = diff_traces(f.program, left, right);
  ASSERT_EQ(d.verdict, Verdict::Fail);
  EXPECT_EQ(d.first->field, "storage 0 chosen NaN");
  EXPECT_EQ(d.first->step, 2u);
  EXPECT_EQ(d.first->left, "1");
  EXPECT_NE(d.first->detail.find("left flags float32 element 1 (byte 4)"), std::string::npos) << d.first->detail;
  EXPECT_EQ(diff_traces(f.program, right, left).verdict, Verdict::Fail);  // either side
  Trace hashes = left, hashes_right = right;  // hashes only
  hashes.steps[2].storages[0].bytes.clear();
  hashes_right.steps[2].storages[0].bytes.clear();
  d = diff_traces(f.program, hashes, hashes_right);
  ASSERT_EQ(d.verdict, Verdict::Fail);
  EXPECT_EQ(d.first->left, "(contents not recorded)");
  // bytes marked undefined on the other side: not compared
  Trace undefined_right = right;
  undefined_right.steps[2].storages[0].undefined.assign(16, 0);
  undefined_right.steps[2].storages[0].undefined.edit()[5] = 1;
  EXPECT_EQ(diff_traces(f.program, left, undefined_right).verdict, Verdict::Undefined);
}

// Two NaNs that print alike are shown with their bits.
TEST(Diff, NaNsThatPrintAlikeShowTheirBits) {
  Fixture f;
  Trace left = f.trace;
  left.steps[1].results[0].dtype = "int32";
  const uint32_t a = 0x7fc00000u, b = 0x7fc00001u;
  std::memcpy(left.steps[2].storages[0].bytes.data() + 4, &a, 4);
  Trace right = left;
  std::memcpy(right.steps[2].storages[0].bytes.data() + 4, &b, 4);
  DiffResult d = diff_traces(f.program, left, right);
  ASSERT_EQ(d.verdict, Verdict::Fail);
  EXPECT_NE(d.first->left.find("0x7fc00000"), std::string::npos) << d.first->left;
  EXPECT_NE(d.first->right.find("0x7fc00001"), std::string::npos) << d.first->right;
}

TEST(Diff, HashesAreComparedWhenOnlyHashesExist) {
  DiffResult d = diff_with([](Trace& t) {
    for (StepObs& s : t.steps) s.storages[0].bytes.clear();
  });
  EXPECT_EQ(d.verdict, Verdict::Pass);
  d = diff_with([](Trace& t) {
    t.steps[2].storages[0].bytes.clear();
    t.steps[2].storages[0].hash ^= 1;
  });
  EXPECT_EQ(d.verdict, Verdict::Fail);
  EXPECT_EQ(d.first->field, "storage 0 contents");
}

TEST(Diff, MetaHasNoContentsToCompare) {
  DiffResult d = diff_with([](Trace& t) {
    for (StepObs& s : t.steps) {
      s.storages[0].has_contents = false;
      s.storages[0].bytes.clear();
    }
  });
  EXPECT_EQ(d.verdict, Verdict::Pass);
}

TEST(Diff, UndefinedBytesAreNotComparedAndTheVerdictSaysSo) {
  DiffResult d = diff_with([](Trace& t) {
    StorageObs& s = t.steps[2].storages[0];
    s.bytes[5] ^= 0xff;
    s.undefined.assign(16, 0);
    s.undefined.edit()[5] = 1;
  });
  EXPECT_EQ(d.verdict, Verdict::Undefined);
  EXPECT_NE(d.note.find("f.prog:3"), std::string::npos) << d.note;
  // A difference outside the undefined bytes still fails.
  d = diff_with([](Trace& t) {
    StorageObs& s = t.steps[2].storages[0];
    s.bytes[6] ^= 0xff;
    s.undefined.assign(16, 0);
    s.undefined.edit()[5] = 1;
  });
  EXPECT_EQ(d.verdict, Verdict::Fail);
  // A step marked undefined is never a pass.
  d = diff_with([](Trace& t) {
    t.steps[2].undefined = true;
    t.steps[2].undefined_reason = "overlapping in-place";
  });
  EXPECT_EQ(d.verdict, Verdict::Undefined);
  EXPECT_NE(d.note.find("overlapping in-place"), std::string::npos);
}

TEST(Diff, OverBudgetIsSkippedNeverPass) {
  DiffResult d = diff_with([](Trace& t) {
    t.steps[1].outcome = Outcome::OverBudget;
    t.steps[1].note = "zeros would allocate too much";
  });
  EXPECT_EQ(d.verdict, Verdict::Skipped);
  EXPECT_NE(d.note.find("zeros would allocate too much"), std::string::npos);
  EXPECT_NE(d.note.find("f.prog:2"), std::string::npos);
  // A difference before the over-budget step still fails.
  d = diff_with([](Trace& t) {
    t.steps[0].results[0].strides = {2};
    t.steps[1].outcome = Outcome::OverBudget;
  });
  EXPECT_EQ(d.verdict, Verdict::Fail);
}

}  // namespace
}  // namespace sc
