// The brute-force check of the engine's UNDEFINED claims: right claims pass,
// every kind of wrong claim is a finding, and an engine run whose overlap
// answers are flipped (a mutated solver) is caught.
#include "program/undefined_check.h"

#include <gtest/gtest.h>

#include "program/backend.h"
#include "program/parser.h"
#include "tests/program/engine_run_util.h"

namespace sc {
namespace {

using engine::ClaimGeometry;
using engine::MemOverlap;
using engine::UndefinedClaim;
using Kind = UndefinedClaim::Kind;

UndefinedClaim internal(ClaimGeometry g, MemOverlap answer, std::vector<int64_t> marked = {}) {
  UndefinedClaim c;
  c.kind = Kind::InternalOverlap;
  c.written = std::move(g);
  c.answer = answer;
  c.marked = std::move(marked);
  return c;
}

UndefinedClaim input(Kind kind, ClaimGeometry w, ClaimGeometry in, MemOverlap answer) {
  UndefinedClaim c;
  c.kind = kind;
  c.written = std::move(w);
  c.input = std::move(in);
  c.answer = answer;
  return c;
}

// sizes [2,2] strides [1,1]: element offsets 0,1,1,2 -- location 1 twice.
const ClaimGeometry kDiagonalWindow{{2, 2}, {1, 1}, 0, 4};

TEST(UndefinedCheck, InternalOverlapYesNeedsALocationReachedTwiceAndMarksExactlyThose) {
  EXPECT_EQ(check_claim(internal(kDiagonalWindow, MemOverlap::Yes, {4})), "");
  EXPECT_NE(check_claim(internal(kDiagonalWindow, MemOverlap::Yes, {})), "");      // missed location
  EXPECT_NE(check_claim(internal(kDiagonalWindow, MemOverlap::Yes, {0, 4})), "");  // one too many
  EXPECT_NE(check_claim(internal({{2, 3}, {3, 1}, 0, 4}, MemOverlap::Yes, {})), "");  // dense: no overlap
}

TEST(UndefinedCheck, InternalOverlapNoMustFindNoLocationTwice) {
  EXPECT_EQ(check_claim(internal({{2, 3}, {1, 2}, 5, 2}, MemOverlap::No)), "");
  std::string f = check_claim(internal(kDiagonalWindow, MemOverlap::No));
  EXPECT_NE(f.find("claimed No"), std::string::npos) << f;
  EXPECT_NE(check_claim(internal({{3}, {0}, 0, 1}, MemOverlap::No)), "");  // a broadcast
  EXPECT_EQ(check_claim(internal({{1, 4}, {0, 1}, 0, 1}, MemOverlap::No)), "");  // stride 0 on a size-1 dim
  EXPECT_EQ(check_claim(internal({{0, 4}, {0, 0}, 0, 1}, MemOverlap::No)), "");  // empty
}

// Offsets in ascending, descending and mixed order (the check sorts only the
// mixed ones): the same locations reached twice, whatever the order.
TEST(UndefinedCheck, LocationsReachedTwiceInAnyEnumerationOrder) {
  // descending with repeats: offsets 10,9,9,8 (bytes 40,36,36,32)
  EXPECT_EQ(check_claim(internal({{2, 2}, {-1, -1}, 10, 4}, MemOverlap::Yes, {36})), "");
  EXPECT_NE(check_claim(internal({{2, 2}, {-1, -1}, 10, 4}, MemOverlap::Yes, {40})), "");
  EXPECT_NE(check_claim(internal({{2, 2}, {-1, -1}, 10, 4}, MemOverlap::No)), "");
  // strictly descending: no repeats
  EXPECT_EQ(check_claim(internal({{3, 2}, {-2, -1}, 10, 1}, MemOverlap::No)), "");
  // mixed order: sizes [3,2] strides [1,2]: offsets 0,2,1,3,2,4 (2 twice)
  EXPECT_EQ(check_claim(internal({{3, 2}, {1, 2}, 0, 1}, MemOverlap::Yes, {2})), "");
  EXPECT_NE(check_claim(internal({{3, 2}, {1, 2}, 0, 1}, MemOverlap::No)), "");
  // mixed order without repeats: 0,3,1,4,2,5
  EXPECT_EQ(check_claim(internal({{3, 2}, {1, 3}, 0, 1}, MemOverlap::No)), "");
  // all equal (stride 0): ascending and descending at once
  EXPECT_EQ(check_claim(internal({{3}, {0}, 7, 2}, MemOverlap::Yes, {14})), "");
}

TEST(UndefinedCheck, TooHardOnASmallTensorIsAFinding) {
  EXPECT_NE(check_claim(internal(kDiagonalWindow, MemOverlap::TooHard)), "");
}

TEST(UndefinedCheck, InputOverlapComparesBytesNotElements) {
  const ClaimGeometry w{{4}, {1}, 0, 4};  // bytes [0, 16)
  EXPECT_EQ(check_claim(input(Kind::InputOverlap, w, {{2}, {1}, 4, 4}, MemOverlap::No)), "");  // [16, 24)
  EXPECT_NE(check_claim(input(Kind::InputOverlap, w, {{2}, {1}, 4, 4}, MemOverlap::Yes)), "");
  EXPECT_NE(check_claim(input(Kind::InputOverlap, w, {{2}, {1}, 3, 4}, MemOverlap::No)), "");   // [12, 20)
  // An int8 view reaching byte 15 (the last byte of element 3) overlaps; byte 16 does not.
  EXPECT_EQ(check_claim(input(Kind::InputOverlap, w, {{1}, {1}, 15, 1}, MemOverlap::Yes)), "");
  EXPECT_EQ(check_claim(input(Kind::InputOverlap, w, {{1}, {1}, 16, 1}, MemOverlap::No)), "");
  // Interleaved: even and odd elements never meet.
  EXPECT_EQ(check_claim(input(Kind::InputOverlap, {{3}, {2}, 0, 4}, {{3}, {2}, 1, 4}, MemOverlap::No)), "");
  EXPECT_NE(check_claim(input(Kind::InputOverlap, {{3}, {2}, 0, 4}, {{3}, {2}, 1, 4}, MemOverlap::Yes)), "");
}

TEST(UndefinedCheck, InputAlignedMeansEveryElementReadsItsOwnBytes) {
  const ClaimGeometry w{{2, 3}, {3, 1}, 2, 4};
  EXPECT_EQ(check_claim(input(Kind::InputAligned, w, {{2, 3}, {3, 1}, 2, 4}, MemOverlap::No)), "");
  EXPECT_EQ(check_claim(input(Kind::InputAligned, {{1, 3}, {7, 1}, 0, 4}, {{3}, {1}, 0, 4}, MemOverlap::No)), "");
  EXPECT_NE(check_claim(input(Kind::InputAligned, w, {{2, 3}, {3, 1}, 2, 2}, MemOverlap::No)), "");  // float16 view
  EXPECT_NE(check_claim(input(Kind::InputAligned, w, {{3}, {1}, 2, 4}, MemOverlap::No)), "");        // broadcast
  EXPECT_NE(check_claim(input(Kind::InputAligned, w, {{2, 3}, {1, 2}, 2, 4}, MemOverlap::No)), "");  // transposed
}

// copy_'s fbgemm float32 <-> float16 path over its own source: the elements
// whose input an earlier element's write reaches, exactly.
TEST(UndefinedCheck, InputReadInMemoryOrderMarksTheElementsReadAfterAnEarlierWrite) {
  auto claim = [](ClaimGeometry w, ClaimGeometry in, std::vector<int64_t> marked) {
    UndefinedClaim c = input(Kind::InputReadInMemoryOrder, std::move(w), std::move(in), MemOverlap::Yes);
    c.marked = std::move(marked);
    return c;
  };
  // 4 float32 written over the float16 view of their own first 8 bytes: elements 1..3
  const ClaimGeometry f32{{4}, {1}, 0, 4}, f16{{4}, {1}, 0, 2};
  EXPECT_EQ(check_claim(claim(f32, f16, {4, 8, 12})), "");
  EXPECT_NE(check_claim(claim(f32, f16, {})), "");
  EXPECT_NE(check_claim(claim(f32, f16, {0, 4, 8, 12})), "");
  // float16 written over the first half of its float32 source: every read comes first
  const ClaimGeometry h8{{8}, {1}, 0, 2}, f8{{8}, {1}, 0, 4};
  EXPECT_EQ(check_claim(claim(h8, f8, {})), "");
  EXPECT_NE(check_claim(claim(h8, f8, {2})), "");
  // not the same element order, or not dense
  EXPECT_NE(check_claim(claim({{2, 2}, {1, 2}, 0, 2}, {{2, 2}, {2, 1}, 0, 4}, {})), "");
  EXPECT_NE(check_claim(claim({{2}, {2}, 0, 2}, {{2}, {2}, 0, 4}, {})), "");
}

TEST(UndefinedCheck, ReadsUndefinedMarksExactlyTheElementsReadingAFlaggedByte) {
  UndefinedClaim c;
  c.kind = Kind::ReadsUndefined;
  c.written = {{2, 2}, {2, 1}, 0, 4};  // element bytes 0, 4, 8, 12 of another storage
  c.input = {{2}, {1}, 1, 2};           // int16 elements at bytes [2, 4) and [4, 6), broadcast over rows
  c.window_begin = 2;
  c.window_mask = {0, 0, 0, 1};  // byte 5: the second input element is undefined
  c.marked = {4, 12};            // column 1 of both rows
  EXPECT_EQ(check_claim(c), "");
  c.marked = {4};
  EXPECT_NE(check_claim(c), "");
  c.marked = {0, 4, 8, 12};
  EXPECT_NE(check_claim(c), "");
  c.window_mask.clear();  // all defined
  c.marked = {};
  EXPECT_EQ(check_claim(c), "");
  c.input_is_bool = true;  // a bool byte 2 reads undefined
  c.input.itemsize = 1;
  c.window_begin = 1;
  c.window_bytes = {0, 2};
  c.marked = {4, 12};
  EXPECT_EQ(check_claim(c), "");
  c.marked = {};
  EXPECT_NE(check_claim(c), "");
}

TEST(UndefinedCheck, ClaimsPastTheEnumerationLimitAreCountedNotChecked) {
  bool too_big = false;
  EXPECT_EQ(check_claim(internal({{1 << 9, 1 << 9}, {1, 1}, 0, 1}, MemOverlap::No), &too_big), "");
  EXPECT_TRUE(too_big);
  UndefinedCheck u = check_undefined({internal({{1 << 9, 1 << 9}, {1, 1}, 0, 1}, MemOverlap::No),
                                      internal(kDiagonalWindow, MemOverlap::Yes, {4})},
                                     Trace{});
  EXPECT_TRUE(u.ok());
  EXPECT_EQ(u.checked, 1);
  EXPECT_EQ(u.too_big, 1);
}

// Runs `text` on the engine under a ClaimLog.
struct EngineRun {
  std::vector<UndefinedClaim> claims;
  Trace trace;
};
EngineRun run_engine(const std::string& text) {
  engine::ClaimLog log;
  EngineRun r;
  r.trace = testing::run_on_engine(text);
  r.claims = log.claims();
  return r;
}

const char* kOverlappingWrites = R"(
a = arange 8
b = as_strided a [2,2] [1,1] 0
add_ b 1
c = as_strided a [2,2] [2,1] 0
d = as_strided a [2,2] [1,1] 1
copy_ c d
e = as_strided a [2,2] [1,1] 5
copy_ c e
)";

TEST(UndefinedCheck, TheEngineClaimsHoldOnOverlappingWrites) {
  EngineRun r = run_engine(kOverlappingWrites);
  UndefinedCheck u = check_undefined(r.claims, r.trace);
  EXPECT_TRUE(u.ok()) << format_undefined_check(u);
  int yes = 0, no = 0;
  for (const UndefinedClaim& c : r.claims) {
    if (c.kind != Kind::InternalOverlap && c.kind != Kind::InputOverlap) continue;
    yes += c.answer == MemOverlap::Yes;
    no += c.answer == MemOverlap::No;
  }
  EXPECT_GE(yes, 2);  // add_ on b; copy_ c d
  EXPECT_GE(no, 2);   // c itself; copy_ c e
  EXPECT_GE(u.checked, static_cast<int64_t>(r.claims.size()));
}

// A mutated solver, as the mutation run plants one: every overlap answer
// flipped (Yes <-> No, the marked locations kept) is caught, one at a time.
TEST(UndefinedCheck, AFlippedOverlapAnswerIsCaught) {
  EngineRun r = run_engine(kOverlappingWrites);
  int flipped = 0;
  for (size_t i = 0; i < r.claims.size(); ++i) {
    const UndefinedClaim& c = r.claims[i];
    if ((c.kind != Kind::InternalOverlap && c.kind != Kind::InputOverlap) || c.answer == MemOverlap::TooHard) continue;
    std::vector<UndefinedClaim> mutated = r.claims;
    mutated[i].answer = c.answer == MemOverlap::Yes ? MemOverlap::No : MemOverlap::Yes;
    UndefinedCheck u = check_undefined(mutated, r.trace);
    EXPECT_FALSE(u.ok()) << "claim " << i << " flipped was not caught";
    ++flipped;
  }
  EXPECT_GE(flipped, 4);
  // And an exact-overlap answer in the trace.
  Trace t = r.trace;
  for (StepObs& s : t.steps)
    for (TensorObs& o : s.results)
      if (o.exact_overlap == Overlap::Yes) o.exact_overlap = Overlap::No;
  EXPECT_FALSE(check_undefined({}, t).ok());
}

// Note [The trace's overlap answers, enumerated once per geometry]: results
// of one sizes, strides and answer at other offsets (unbind's pieces) are
// enumerated once, a wrong answer still reported; past kTraceOverlapElements
// per trace the rest are counted too big, not checked.
TEST(UndefinedCheck, TraceOverlapAnswersAreEnumeratedOncePerGeometryWithinABudget) {
  auto result = [](std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset, Overlap answer) {
    TensorObs o;
    o.sizes = std::move(sizes);
    o.strides = std::move(strides);
    o.storage_offset = offset;
    o.exact_overlap = answer;
    return o;
  };
  // 100 pieces [2,2] strides [1,1] (location 1 twice): right answers pass, each counted.
  Trace t;
  t.steps.resize(1);
  for (int64_t k = 0; k < 100; ++k) t.steps[0].results.push_back(result({2, 2}, {1, 1}, 4 * k, Overlap::Yes));
  UndefinedCheck u = check_undefined({}, t);
  EXPECT_TRUE(u.ok()) << format_undefined_check(u);
  EXPECT_EQ(u.checked, 100);
  // The same pieces answered No: one finding, for the first piece.
  for (TensorObs& o : t.steps[0].results) o.exact_overlap = Overlap::No;
  u = check_undefined({}, t);
  ASSERT_EQ(u.findings.size(), 1u) << format_undefined_check(u);
  EXPECT_NE(u.findings[0].find("step 0 result 0 exact overlap"), std::string::npos) << u.findings[0];
  // Geometries of their own past the budget: 100 results of 65,536 elements
  // each, strides that differ; the first 64 checked, the rest too big.
  Trace big;
  big.steps.resize(1);
  for (int64_t k = 0; k < 100; ++k) big.steps[0].results.push_back(result({256, 256}, {256 + k, 1}, 0, Overlap::No));
  u = check_undefined({}, big);
  EXPECT_TRUE(u.ok()) << format_undefined_check(u);
  EXPECT_EQ(u.checked, kTraceOverlapElements / 65536);
  EXPECT_EQ(u.too_big, 100 - kTraceOverlapElements / 65536);
}

// An input claimed to overlap (everything marked undefined) although every
// element reads exactly its own bytes over-claims: LibTorch's result is defined.
TEST(UndefinedCheck, AnOverlapClaimOnALinedUpInputIsAFinding) {
  const ClaimGeometry w{{2, 3}, {3, 1}, 2, 4};
  std::string f = check_claim(input(Kind::InputOverlap, w, {{2, 3}, {3, 1}, 2, 4}, MemOverlap::Yes));
  EXPECT_NE(f.find("lined up"), std::string::npos) << f;
  EXPECT_NE(check_claim(input(Kind::InputOverlap, w, {{3}, {1}, 2, 4}, MemOverlap::TooHard)), "");
  EXPECT_EQ(check_claim(input(Kind::InputOverlap, w, {{2, 3}, {1, 2}, 2, 4}, MemOverlap::Yes)), "");  // transposed
}

// Every write's end state: the elements left undefined are exactly those its
// claims justify. An empty_like read (undefined elements carried along), a
// write whose elements overlap (a location written twice), an aliasing input
// LibTorch lets through (TooHard: all undefined), a fill that clears them,
// and a write of part of an undefined tensor then a read of the rest.
const char* kUndefinedWrites = R"(
a = arange 8 dtype=float32
u = empty_like a
b = add u 1
c = as_strided a [2,2] [1,1] 0
add_ c 1
d = as_strided a [4] [1] 0
e = as_strided a [4] [2] 0
copy_ d e
fill_ d 3
f = as_strided u [3] [1] 1
g = as_strided a [3] [1] 2
copy_ f g
h = as_strided u [3] [1] 0
add_ h 1
)";

TEST(UndefinedCheck, TheElementsLeftUndefinedAfterAWriteAreExactlyTheClaimedOnes) {
  EngineRun r = run_engine(kUndefinedWrites);
  UndefinedCheck u = check_undefined(r.claims, r.trace);
  EXPECT_TRUE(u.ok()) << format_undefined_check(u);
  int done = 0, flipped = 0;
  for (size_t i = 0; i < r.claims.size(); ++i) {
    const UndefinedClaim& c = r.claims[i];
    if (c.kind != Kind::WriteDone || !c.checkable) continue;
    ++done;
    // A needless undefined flag, or a flag cleared that a claim justifies:
    // flip the flags of the first element (in index order, at byte offset
    // storage_offset * itemsize - window_begin).
    std::vector<UndefinedClaim> mutated = r.claims;
    UndefinedClaim& m = mutated[i];
    const int64_t first = c.written.storage_offset * c.written.itemsize - c.window_begin;
    if (m.window_mask.empty()) m.window_mask.assign(static_cast<size_t>(first + c.written.itemsize), 0);
    for (int64_t b = 0; b < c.written.itemsize; ++b) {
      auto& flag = m.window_mask[static_cast<size_t>(first + b)];
      flag = flag ? 0 : 1;
    }
    UndefinedCheck mu = check_undefined(mutated, r.trace);
    EXPECT_FALSE(mu.ok()) << "write " << i << ": the first element's flags flipped were not caught";
    if (!mu.ok()) {
      EXPECT_NE(mu.findings[0].find("after a write"), std::string::npos) << mu.findings[0];
    }
    ++flipped;
  }
  EXPECT_EQ(done, 6);  // add (result), add_, copy_, fill_, copy_, add_
  EXPECT_EQ(flipped, done);
}

TEST(UndefinedCheck, ClaimsAreCheckableOnlyForTheCpuEngineBesideALibTorch) {
  EXPECT_TRUE(claims_checkable({"engine:cpu", "libtorch:cpu"}));
  EXPECT_TRUE(claims_checkable({"engine:cpu", "libtorch:meta"}));
  EXPECT_FALSE(claims_checkable({"libtorch:cpu", "engine:cpu"}));
  EXPECT_FALSE(claims_checkable({"engine:cuda", "libtorch:cuda"}));
  EXPECT_FALSE(claims_checkable({"engine:cpu", "engine:cpu"}));
  EXPECT_FALSE(claims_checkable({"engine:cpu"}));
}

}  // namespace
}  // namespace sc
