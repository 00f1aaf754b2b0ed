#include "program/trace_text.h"

#include <gtest/gtest.h>

#include "program/backend.h"
#include "program/compare.h"
#include "program/diff.h"
#include "program/parser.h"

namespace sc {
namespace {

Trace sample_trace() {
  Trace t;
  t.backend = "libtorch:cpu";
  t.backend_version = "LibTorch 1.13.1";
  StepObs s0;
  TensorObs r;
  r.dtype = "float32";
  r.sizes = {2, 3};
  r.strides = {3, 1};
  r.storage_offset = 7;
  r.contiguous = r.non_overlapping_and_dense = true;
  r.channels_last = true;
  r.same_as = "x";
  r.is_view = true;
  r.base = "?";
  r.storage = 1;
  r.torch_overlap = Overlap::TooHard;
  r.exact_overlap = Overlap::Yes;
  s0.results = {r, r};
  s0.results[1].is_view = false;
  s0.results[1].base = "";
  s0.results[1].same_as = "";
  s0.results[1].sizes = {};
  s0.results[1].strides = {};
  s0.warnings = {"a \"quoted\" warning\nover two lines", "tab\there"};
  s0.undefined = true;
  s0.undefined_reason = "in-place on overlapping elements";
  s0.versions = {{"a", 0}, {"b_2", 3}};
  StorageObs st;
  st.id = 0;
  st.nbytes = 12;
  st.hash = 0xfedcba9876543210ull;
  st.undefined = {0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  st.nan_choice = {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0};  // Note [NaN operand choice]
  StorageObs meta;
  meta.id = 1;
  meta.nbytes = 64;
  meta.has_contents = false;
  s0.storages = {st, meta};
  StepObs s1;
  s1.outcome = Outcome::Error;
  s1.error_kind = "IndexError";
  s1.error_message = "Dimension out of range (expected to be in range of [-1, 0], but got 5)\x01";
  StepObs s2;
  s2.outcome = Outcome::Skipped;
  s2.note = "'q' is unbound";
  StepObs s3;
  s3.outcome = Outcome::OverBudget;
  s3.note = "zeros [100000,100000] float32 would allocate 40000000000 bytes";
  t.steps = {s0, s1, s2, s3};
  return t;
}

Program four_steps() {
  return parse_program("a = arange 4\nb = view a [2,2]\nc = t b\nd = zeros [100000,100000]\n", "p.prog");
}

TEST(TraceText, RecordedLinesRoundTrip) {
  Trace t = sample_trace();
  std::vector<std::string> lines = serialize_trace(t);
  for (const std::string& l : lines) {
    EXPECT_EQ(l.rfind("#> ", 0), 0u) << l;
    EXPECT_EQ(l.find('\n'), std::string::npos) << l;
  }
  Trace back = parse_recorded(lines);
  EXPECT_EQ(back.backend, t.backend);
  EXPECT_EQ(back.backend_version, t.backend_version);
  ASSERT_EQ(back.steps.size(), t.steps.size());
  for (size_t i = 0; i < t.steps.size(); ++i) {
    const StepObs &x = t.steps[i], &y = back.steps[i];
    EXPECT_EQ(x.outcome, y.outcome);
    EXPECT_EQ(x.results, y.results);
    EXPECT_EQ(x.error_kind, y.error_kind);
    EXPECT_EQ(x.error_message, y.error_message);
    EXPECT_EQ(x.warnings, y.warnings);
    EXPECT_EQ(x.versions, y.versions);
    EXPECT_EQ(x.undefined, y.undefined);
    EXPECT_EQ(x.undefined_reason, y.undefined_reason);
    EXPECT_EQ(x.note, y.note);
    ASSERT_EQ(x.storages.size(), y.storages.size());
    for (size_t k = 0; k < x.storages.size(); ++k) {
      EXPECT_EQ(x.storages[k].id, y.storages[k].id);
      EXPECT_EQ(x.storages[k].nbytes, y.storages[k].nbytes);
      EXPECT_EQ(x.storages[k].has_contents, y.storages[k].has_contents);
      if (x.storages[k].has_contents) EXPECT_EQ(x.storages[k].hash, y.storages[k].hash);
      EXPECT_EQ(x.storages[k].undefined, y.storages[k].undefined);
      EXPECT_EQ(x.storages[k].nan_choice, y.storages[k].nan_choice);
    }
  }
  // Serializing the parsed trace gives the same lines.
  EXPECT_EQ(serialize_trace(back), lines);
  // The recording and the trace agree under the diff (one side has hashes only).
  Program p = four_steps();
  EXPECT_NE(diff_traces(p, t, back).verdict, Verdict::Fail);
}

TEST(TraceText, RecordingSurvivesAProgramFile) {
  Program p = four_steps();
  std::string text = "a = arange 4\nb = view a [2,2]\nc = t b\nd = zeros [100000,100000]\n";
  for (const std::string& l : serialize_trace(sample_trace())) text += l + "\n";
  Program q = parse_program(text);
  EXPECT_TRUE(q.same_as(p));
  Trace back = parse_recorded(q.recorded);
  EXPECT_EQ(back.steps.size(), 4u);
}

TEST(TraceText, MalformedRecordingsAreErrors) {
  const std::vector<std::vector<std::string>> bad = {
      {"#> step 0 ok"},                                   // no header
      {"#> trace x \"v\"", "#> step 1 ok"},               // out of order
      {"#> trace x \"v\"", "#> step 0 exploded"},         // unknown outcome
      {"#> trace x \"v\"", "#> step 0 ok", "#> versions 0 a"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> storages 0 0:12"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> storages 0 0:12:zz"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> storages 0 0:12:00:u=3-99"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> storages 0 0:12:00:n=3-99"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> storages 0 0:12:00:x=3-4"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> warning 0 \"unterminated"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> result 0 float32 sizes=[2"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> frobnicate 0"},
      {"#> trace x \"v\"", "#> step 0 ok", "#> warning 3 \"w\""},
      // the step index past int64's last: compared, not incremented (UBSan: parser_fuzzer)
      {"#> trace x \"v\"", "#> step 0 ok", "#> warning 9223372036854775807 \"w\""},
      {"#> trace x \"v\\q\""},
  };
  for (const auto& lines : bad) {
    EXPECT_THROW(parse_recorded(lines), RecordingError) << lines.back();
    try {
      parse_recorded(lines);
    } catch (const RecordingError& e) {  // names one of the lines (replay reports its file line)
      EXPECT_GE(e.index, 0) << lines.back();
      EXPECT_LT(e.index, static_cast<int>(lines.size())) << lines.back();
    }
  }
}

TEST(TraceText, ReadableRenderingShowsTheFacts) {
  Trace t = sample_trace();
  std::string text = render_trace(four_steps(), t);
  for (const char* want : {"p.prog:1: a = arange 4", "float32 sizes [2,3] strides [3,1] offset 7 storage 1",
                           "view of ?", "same tensor as x", "overlap: torch too_hard, exact yes",
                           "error IndexError: Dimension out of range", "warning: a \"quoted\"", "versions: a:0 b_2:3",
                           "storage 0: 12 bytes, hash fedcba9876543210", "over_budget", "undefined: in-place"})
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
}

TEST(TraceText, EngineTraceRecordsAndReplaysAgainstItself) {
  Program p = parse_program("a = arange 6\nb = zeros [2,3] dtype=int32\nc = ones [4]\nd = full [2] 1.5\n", "e.prog");
  auto engine = make_backend("engine:cpu");
  RunOptions o;
  o.record_contents = false;
  Trace t = engine->run(p, o);
  p.recorded = serialize_trace(t);
  Comparison c = compare_with_recording(p, *engine, o);
  EXPECT_EQ(c.diff.verdict, Verdict::Pass) << format_diff(p, c.left, c.right, c.diff);
  // A changed hash in the recording is found.
  std::string& last = p.recorded.back();
  size_t colon = last.rfind(':');
  last[colon + 1] = last[colon + 1] == '0' ? '1' : '0';
  c = compare_with_recording(p, *engine, o);
  EXPECT_EQ(c.diff.verdict, Verdict::Fail);
  EXPECT_EQ(c.diff.first->step, 3u);
  std::string side = render_side_by_side(p, c.left, c.right);
  EXPECT_NE(side.find(" ! "), std::string::npos) << side;
}

}  // namespace
}  // namespace sc
