// engine/version_profile: the table of behaviour changes, profile choice, since().
#include "engine/version_profile.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "engine/creation.h"
#include "engine/error.h"
#include "engine/views.h"

namespace sc::engine {
namespace {

TEST(VersionProfile, TableIsInEnumOrderAndEveryEntryNamesItsCause) {
  auto changes = version_changes();
  ASSERT_EQ(changes.size(), static_cast<size_t>(Change::kCount));
  std::set<std::string_view> names;
  for (size_t i = 0; i < changes.size(); ++i) {
    const ChangeInfo& c = changes[i];
    EXPECT_EQ(static_cast<size_t>(c.change), i) << c.name;
    EXPECT_TRUE(names.insert(c.name).second) << "duplicate " << c.name;
    EXPECT_FALSE(c.what.empty()) << c.name;
    EXPECT_FALSE(c.cause.empty()) << c.name;
    // Every change lies between the oldest and the newest profile: 1.13 lacks it, 2.15 has it.
    EXPECT_GT(c.since, (PyTorchVersion{1, 13})) << c.name;
    EXPECT_LE(c.since, (PyTorchVersion{2, 15})) << c.name;
  }
}

TEST(VersionProfile, ParsesLibTorchVersionStrings) {
  EXPECT_EQ(parse_pytorch_version("2.15.0"), (PyTorchVersion{2, 15}));
  EXPECT_EQ(parse_pytorch_version("2.15.0+cu132"), (PyTorchVersion{2, 15}));
  EXPECT_EQ(parse_pytorch_version("1.13.0"), (PyTorchVersion{1, 13}));
  EXPECT_EQ(parse_pytorch_version("2.11"), (PyTorchVersion{2, 11}));
  EXPECT_EQ(parse_pytorch_version("2.1.0a0+git1234"), (PyTorchVersion{2, 1}));
  EXPECT_FALSE(parse_pytorch_version("latest"));
  EXPECT_FALSE(parse_pytorch_version("2"));
  EXPECT_FALSE(parse_pytorch_version(""));
  EXPECT_FALSE(parse_pytorch_version("2.x"));
}

TEST(VersionProfile, KnownVersionsPickTheirOwnProfile) {
  for (const char* v : {"1.13.1", "2.0.1", "2.5.1", "2.6.0", "2.7.1", "2.8.0", "2.9.1", "2.10.0", "2.11.0", "2.12.1", "2.13.0", "2.14.1", "2.15.0"}) {
    auto c = choose_profile(v);
    ASSERT_TRUE(c) << v;
    EXPECT_EQ(c->profile, parse_pytorch_version(v)) << v;
    EXPECT_TRUE(c->exact) << v;
    EXPECT_EQ(c->note(), "") << v;
  }
  EXPECT_EQ(known_profiles().size(), 13u);
}

TEST(VersionProfile, UnknownVersionsPickTheNearestAndSaySo) {
  auto a = choose_profile("2.4.1");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->profile, (PyTorchVersion{2, 5}));
  EXPECT_FALSE(a->exact);
  EXPECT_EQ(a->note(), "PyTorch 2.4.1 has no profile of its own: the engine imitates 2.5, the nearest");
  EXPECT_EQ(choose_profile("1.12.1")->profile, (PyTorchVersion{1, 13}));
  EXPECT_EQ(choose_profile("3.2")->profile, (PyTorchVersion{2, 15}));
  EXPECT_FALSE(choose_profile("nightly"));
}

// The measured 2.x wheels differ from one another (docs/versions.md, "Measured
// LibTorch versions"): each profile has exactly the changes its wheel showed.
TEST(VersionProfile, MeasuredWheelsHaveTheirOwnChanges) {
  struct Expect {
    const char* version;
    Change change;
    bool has;
  };
  for (const Expect& e : {
           Expect{"2.5", Change::ViewShapeErrorNamesIndex, false},
           Expect{"2.5", Change::ArangeBoundMessage, false},
           Expect{"2.5", Change::UnflattenWrapsErrors, false},
           Expect{"2.5", Change::UnfoldChecksSize, false},
           Expect{"2.5", Change::AsStridedChecksOffsetOverflow, false},
           Expect{"2.5", Change::FloatToHalfCopyTailKeepsPayload, false},
           Expect{"2.5", Change::ScalarFillReducedFloatUnchecked, false},
           Expect{"2.5", Change::CopyFloatHalfSkipsOverlapChecks, true},
           Expect{"2.5", Change::HalfFromFloatKeepsNanPayload, true},
           Expect{"2.5", Change::NarrowChecksStartInRange, true},
           Expect{"2.5", Change::LargeNegativeSymInt, true},
           Expect{"2.5", Change::ViewDtypeSameDtypeUnchecked, true},
           Expect{"2.5", Change::ViewDtypeSameDtypeChecked, false},
           Expect{"2.6", Change::ViewDtypeSameDtypeChecked, true},
           Expect{"2.6", Change::UnfoldChecksSize, true},
           Expect{"2.6", Change::AsStridedChecksOffsetOverflow, false},
           Expect{"2.6", Change::ViewShapeErrorNamesIndex, false},
           Expect{"2.7", Change::AsStridedChecksOffsetOverflow, true},
           Expect{"2.7", Change::ViewShapeErrorNamesIndex, false},
           Expect{"2.7", Change::ArangeBoundMessage, false},
           Expect{"2.7", Change::UnflattenWrapsErrors, false},
           Expect{"2.7", Change::DispatchErrorIsNotImplemented, false},
           Expect{"2.7", Change::ScalarFillReducedFloatUnchecked, false},
           Expect{"2.7", Change::FloatToHalfCopyTailKeepsPayload, false},
           Expect{"2.8", Change::FloatToHalfCopyTailKeepsPayload, true},
           Expect{"2.8", Change::ViewShapeErrorNamesIndex, true},
           Expect{"2.8", Change::ArangeBoundMessage, true},
           Expect{"2.8", Change::ZerosChecksSizes, false},
           Expect{"2.8", Change::CheckedConvertC10Names, false},
           Expect{"2.8", Change::SymbolicResultReadRaises, false},
           Expect{"2.8", Change::DispatchErrorIsNotImplemented, true},
           Expect{"2.8", Change::UnsqueezeSymIntGeometry, true},
           Expect{"2.9", Change::ZerosChecksSizes, true},
           Expect{"2.9", Change::CheckedConvertC10Names, false},
           Expect{"2.9", Change::SymbolicResultReadRaises, true},
           Expect{"2.9", Change::SymbolicResultNoPythonError, false},
           Expect{"2.9", Change::SymbolicResultReadInternalAssert, false},
           Expect{"2.10", Change::SymbolicResultReadInternalAssert, true},
           Expect{"2.10", Change::CheckedConvertC10Names, true},
           Expect{"2.10", Change::SymbolicResultNoPythonError, false},
           Expect{"2.11", Change::ZerosChecksSizes, true},
           Expect{"2.11", Change::SymbolicResultReadRaises, true},
           Expect{"2.11", Change::AsStridedChecksOffsetOverflow, true},
           Expect{"2.11", Change::AsStridedChecksNegativeOffsetFirst, false},
           Expect{"2.11", Change::ClampNanSingleBound, false},
           Expect{"2.11", Change::DispatchErrorIsNotImplemented, true},
           Expect{"2.11", Change::UnsqueezeSymIntGeometry, true},
           Expect{"2.12", Change::AsStridedChecksNegativeOffsetFirst, true},
           Expect{"2.12", Change::ClampNanSingleBound, true},
           Expect{"2.12", Change::SymbolicResultNoPythonError, false},
           Expect{"2.13", Change::SymbolicResultNoPythonError, true},
           Expect{"2.13", Change::SymbolicResultStorageOffsetError, false},
           Expect{"2.13", Change::BoolNegSubNotImplemented, false},
           Expect{"2.13", Change::FloatToIntOverflowsAtMaxPlusOne, false},
           Expect{"2.14", Change::SymbolicResultStorageOffsetError, true},
           Expect{"2.14", Change::BoolNegSubNotImplemented, true},
           Expect{"2.14", Change::FloatToIntOverflowsAtMaxPlusOne, true},
           Expect{"2.14", Change::ClampIntegerBoundsSaturate, false},
           Expect{"2.14", Change::HeapSymIntInIntArrayRef, false},
           Expect{"2.15", Change::ClampIntegerBoundsSaturate, true},
           Expect{"2.15", Change::HeapSymIntInIntArrayRef, true},
       }) {
    ProfileScope p(e.version);
    EXPECT_EQ(since(e.change), e.has) << e.version << " " << change_info(e.change).name;
  }
}

TEST(VersionProfile, SinceFollowsTheCurrentProfile) {
  {
    ProfileScope p("1.13");
    EXPECT_FALSE(since(Change::ViewShapeErrorNamesIndex));
    EXPECT_EQ(current_profile().profile, (PyTorchVersion{1, 13}));
  }
  {
    ProfileScope p("2.15");
    for (const ChangeInfo& c : version_changes()) EXPECT_TRUE(since(c.change)) << c.name;
  }
}

// since() reads a table refreshed by set_profile: for every profile (and a
// version between them) it answers as the comparison with the table's
// `since`, and restoring a profile restores the answers.
TEST(VersionProfile, SinceAgreesWithTheTableForEveryProfile) {
  const auto before = [] {
    std::vector<bool> a;
    for (const ChangeInfo& c : version_changes()) a.push_back(since(c.change));
    return a;
  }();
  for (const char* v : {"1.13", "2.0", "2.5", "2.6", "2.7", "2.8", "2.11", "2.12", "2.13", "2.14", "2.15", "1.0", "9.9"}) {
    ProfileScope p(v);
    for (const ChangeInfo& c : version_changes())
      EXPECT_EQ(since(c.change), current_profile().profile >= c.since) << v << " " << c.name;
  }
  size_t i = 0;
  for (const ChangeInfo& c : version_changes()) EXPECT_EQ(since(c.change), before[i++]) << c.name;
}

// One behaviour through the engine under each profile: view's error message.
TEST(VersionProfile, EngineErrorsFollowTheProfile) {
  Tensor a = arange(12, DType::Float32, Device::CPU);
  auto message = [&] {
    try {
      view(a, {-2, 6});
    } catch (const TorchError& e) {
      return e.message;
    }
    return std::string("no error");
  };
  {
    ProfileScope p("1.13");
    EXPECT_EQ(message(), "invalid shape dimension -2");
  }
  {
    ProfileScope p("2.15");
    EXPECT_EQ(message(), "invalid shape dimension -2 at index 0 of shape [-2, 6]");
  }
}

// Measured on each wheel: as_strided's negative offset (2.11 counts it, in
// uint64, in the size overflow check; 2.12 refuses it first), and what reading
// a result with symbolic sizes raises (corpus/edges/as_strided.prog,
// corpus/versions/view_dtype_symbolic_result.prog).
TEST(VersionProfile, AsStridedAndSymbolicResultErrorsFollowTheMeasuredWheels) {
  Tensor x = arange(12, DType::Float32, Device::CPU);
  Tensor big = zeros({0, int64_t{1} << 62}, DType::Float32, Device::CPU);
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const TorchError& e) {
      return e.message;
    }
    return std::string("no error");
  };
  auto negative_offset = [&] { as_strided(x, {-3}, {4}, -2); };
  auto empty_lists = [&] { as_strided(x, {}, {}, -5); };
  auto minus_one = [&] { as_strided(x, {2}, {1}, -1); };
  auto symbolic = [&] { view_dtype(big, DType::Float16); };
  {
    // 2.8 dies reading the result (Change::SymbolicResultReadRaises): the step is refused.
    ProfileScope p("2.8");
    EXPECT_THROW(symbolic(), StepRefused);
    Tensor small = zeros({0, 4}, DType::Float32, Device::CPU);
    EXPECT_EQ(view_dtype(small, DType::Float16).sizes, (Shape{0, 8}));  // concrete results are not refused
  }
  {
    ProfileScope p("2.9");
    EXPECT_EQ(message(symbolic), "cannot access PyObject for Tensor - no interpreter set");
  }
  {
    ProfileScope p("2.11");
    EXPECT_EQ(message(negative_offset), "Storage size calculation overflowed with sizes=[-3] and strides=[4]");
    EXPECT_EQ(message(empty_lists), "Storage size calculation overflowed with sizes=[]");
    EXPECT_EQ(message(minus_one), "Tensor: invalid storage offset -1");  // the uint64 sum wraps back to 4 bytes
    EXPECT_EQ(message(symbolic),
              "interpreter INTERNAL ASSERT FAILED at \"/pytorch/c10/core/impl/PyObjectSlot.h\":29, please report a "
              "bug to PyTorch. cannot access PyObject for Tensor - no interpreter set");
  }
  {
    ProfileScope p("2.12");
    EXPECT_EQ(message(negative_offset), "Tensor: invalid storage offset -2");
    EXPECT_EQ(message(empty_lists), "Tensor: invalid storage offset -5");
  }
  {
    ProfileScope p("2.13");
    EXPECT_EQ(message(symbolic),
              "PyTorch was compiled without Python support. Cannot access Python interpreter from C++.");
  }
  {
    ProfileScope p("2.14");
    EXPECT_EQ(message(symbolic), "Cannot call storage_offset() on tensor with symbolic sizes/strides");
  }
}

}  // namespace
}  // namespace sc::engine
