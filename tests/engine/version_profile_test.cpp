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
    // Every change lies between the two profiles: 1.13 lacks it, 2.15 has it.
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
  auto a = choose_profile("2.15.0");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->profile, (PyTorchVersion{2, 15}));
  EXPECT_TRUE(a->exact);
  EXPECT_EQ(a->note(), "");
  auto b = choose_profile("1.13.0");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->profile, (PyTorchVersion{1, 13}));
  EXPECT_TRUE(b->exact);
}

TEST(VersionProfile, UnknownVersionsPickTheNearestAndSaySo) {
  auto a = choose_profile("2.11.0");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->profile, (PyTorchVersion{2, 15}));
  EXPECT_FALSE(a->exact);
  EXPECT_EQ(a->note(), "PyTorch 2.11.0 has no profile of its own: the engine imitates 2.15, the nearest");
  EXPECT_EQ(choose_profile("1.12.1")->profile, (PyTorchVersion{1, 13}));
  EXPECT_EQ(choose_profile("2.0.1")->profile, (PyTorchVersion{2, 15}));  // 2.0 is 15 minors from 2.15, 87 from 1.13
  EXPECT_EQ(choose_profile("3.2")->profile, (PyTorchVersion{2, 15}));
  EXPECT_FALSE(choose_profile("nightly"));
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
  for (const char* v : {"1.13", "2.8", "2.15", "1.0", "9.9"}) {
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

}  // namespace
}  // namespace sc::engine
