// A law about the search: the generator reaches every error template of the
// checked-in lists (program/message_template.h), within its first seeds, on
// the engine imitating each list's PyTorch: corpus/error_templates.txt on 2.15
// and corpus/error_templates_1.13.txt on 1.13 (the engine raises LibTorch's
// messages; the differential tests check that they match; no LibTorch runs
// here). A template a list marks `corpus-only` is one the generator did not
// reach when the list was made (a hand-made program in the corpus does); one
// marked `rare` was reached by only one of the two searches below: any change
// of the generator's draws may move it past the seed counts. Neither is
// asserted; the test lists the rare ones it missed and the marked ones both
// searches reach (whose mark may go). One marked `engine-only` is raised by
// the generated programs only at steps the oracle refuses on that LibTorch
// (the engine raises it; nothing is compared): listed so that it is not
// reported as missing from the list, never asserted.
// STRIDECHECK_MESSAGE_REACH_DUMP=1 prints "REACH <mixed> <one-op> <mixed
// seed> <one-op seed> op kind template" for every entry (how the marks and
// the first programs of the lists were set; '-': not reached).
// STRIDECHECK_MESSAGE_REACH_PROGRAMS=DIR writes the program that first raised
// each template there (mixed-<seed>.prog, <op>-<seed>.prog), so that
// `stridecheck replay DIR` checks the engine's messages against the LibTorch
// of the profile.
// STRIDECHECK_MESSAGE_REACH_SWARM=P draws both searches with
// GeneratorPolicy::swarm_percent = P (Note [Swarm programs]; default 0): the
// law holds for swarm campaigns too (measured with P = 50).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/version_profile.h"
#include "program/backend.h"
#include "program/generator.h"
#include "program/message_template.h"
#include "program/printer.h"

namespace sc {
namespace {

// Two searches, and a template counts as reached when either reaches it:
// seeds 0..kSeeds-1 of the default policy (every op mixed, as campaigns run),
// and for each op of the list seeds 0..kSeedsPerOp-1 of a policy that draws
// only that op (the preparation steps of the layout classes still run other
// ops), its boundary and invalid classes five times as often: a rare
// template of a rarely drawn op appears far sooner there.
// Each template's first seed is a draw of chance, so the counts leave room:
// the test prints the latest first seeds of each search.
constexpr uint64_t kSeeds = 60000;
constexpr uint64_t kSeedsPerOp = 1500;
// The one-op search draws the boundary and invalid classes this much more
// often (GeneratorPolicy::boundary_weight_percent): two rare classes meet
// 25 times sooner.
constexpr int kBoundaryWeightPercent = 500;

uint64_t seed_count(const char* variable, uint64_t otherwise) {
  if (const char* env = std::getenv(variable)) return std::strtoull(env, nullptr, 10);
  return otherwise;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

using Key = std::tuple<std::string, std::string, std::string>;  // op, kind, template

// The law for one profile and its list: both searches on the engine imitating
// `version`, every unmarked entry of `list` (under corpus/) reached.
void expect_every_listed_template_reached(const std::string& version, const std::string& list, uint64_t mixed_seeds,
                                          uint64_t seeds_per_op) {
  engine::ProfileScope profile(version);
  const std::vector<ErrorTemplate> listed = read_error_templates(std::string(STRIDECHECK_SOURCE_DIR) + "/corpus/" + list);
  ASSERT_FALSE(listed.empty());
  register_engine_backend();
  auto engine = make_backend("engine:cpu");
  RunOptions options;
  options.budget_bytes = int64_t{16} << 20;  // as generate --stats
  options.record_contents = false;
  // first seed of each template in the mixed search, and in its op's own
  std::map<Key, uint64_t> first_seed, first_seed_op;
  const char* programs_dir = std::getenv("STRIDECHECK_MESSAGE_REACH_PROGRAMS");
  auto search = [&](const GeneratorPolicy& policy, uint64_t seeds, const std::string& only_op,
                    std::map<Key, uint64_t>& first) {
    for (uint64_t seed = 0; seed < seeds; ++seed) {
      Choices choices = Choices::from_seed(seed);
      const Program p = generate_program(choices, policy);
      const Trace t = engine->run(p, options);
      bool first_of_some = false;
      for (size_t i = 0; i < p.steps.size() && i < t.steps.size(); ++i)
        if (t.steps[i].outcome == Outcome::Error && (only_op.empty() || p.steps[i].op == only_op))
          first_of_some |=
              first.try_emplace({p.steps[i].op, t.steps[i].error_kind, message_template(t.steps[i].error_message)}, seed)
                  .second;
      if (first_of_some && programs_dir) {  // to replay each entry's first program against the LibTorch
        const std::string name = std::string(programs_dir) + "/" + (only_op.empty() ? "mixed" : only_op) + "-" +
                                 std::to_string(seed) + ".prog";
        std::ofstream(name) << "# the first program of a template in the message-reach law (PyTorch " << version
                            << (only_op.empty() ? ", every op mixed" : ", " + only_op + " alone") << ")\n"
                            << print_program(p);
      }
    }
  };
  const uint64_t seeds = seed_count("STRIDECHECK_MESSAGE_REACH_SEEDS", mixed_seeds);
  seeds_per_op = seed_count("STRIDECHECK_MESSAGE_REACH_SEEDS_PER_OP", seeds_per_op);
  GeneratorPolicy mixed;
  mixed.swarm_percent = static_cast<int>(seed_count("STRIDECHECK_MESSAGE_REACH_SWARM", 0));
  search(mixed, seeds, "", first_seed);
  std::set<std::string> ops;
  for (const ErrorTemplate& e : listed) ops.insert(e.op);
  for (const std::string& op : ops) {
    GeneratorPolicy policy = mixed;
    policy.ops = {op};
    policy.boundary_weight_percent = kBoundaryWeightPercent;
    search(policy, seeds_per_op, op, first_seed_op);
  }
  std::map<Key, uint64_t> either = first_seed;  // reached by either search
  for (const auto& [key, seed] : first_seed_op) either.try_emplace(key, seed);
  std::set<Key> in_list;
  int reached = 0;
  const bool dump = std::getenv("STRIDECHECK_MESSAGE_REACH_DUMP") != nullptr;
  std::string marked_reached;  // corpus-only or rare entries both searches reach: the mark may go
  for (const ErrorTemplate& e : listed) {
    const Key key{e.op, e.kind, e.text};
    EXPECT_TRUE(in_list.insert(key).second) << "line " << e.line << " repeats an entry";
    const auto it = either.find(key);
    if (dump) {
      auto seed_of = [&](const std::map<Key, uint64_t>& first) {
        const auto f = first.find(key);
        return f == first.end() ? std::string("-") : std::to_string(f->second);
      };
      std::printf("REACH %d %d %s %s %s %s %s\n", first_seed.count(key) ? 1 : 0, first_seed_op.count(key) ? 1 : 0,
                  seed_of(first_seed).c_str(), seed_of(first_seed_op).c_str(), e.op.c_str(), e.kind.c_str(),
                  e.text.c_str());
    }
    if (e.engine_only) continue;  // not LibTorch's: reached or not, nothing to assert
    if (e.rare || e.corpus_only) {  // not asserted: listed below when both searches reach one
      if (first_seed.count(key) && first_seed_op.count(key))
        marked_reached += "  line " + std::to_string(e.line) + ": " + e.op + " " + e.kind + " " + e.text.substr(0, 90) + "\n";
      continue;
    }
    EXPECT_TRUE(it != either.end()) << "line " << e.line << ": not reached in " << seeds << " generated programs nor in "
                                    << seeds_per_op << " of its op alone\n  " << e.op << " " << e.kind << " " << e.text;
    reached += it != either.end();
  }
  // The rarest: the listed templates each search reached last, or not at all
  // (where smaller counts would fail first; raise their classes' weights).
  for (const auto* first : {&first_seed, &first_seed_op}) {
    std::vector<std::pair<uint64_t, const ErrorTemplate*>> latest;
    int never = 0;
    for (const ErrorTemplate& e : listed) {
      if (e.corpus_only || e.rare || e.engine_only) continue;
      const auto it = first->find({e.op, e.kind, e.text});
      if (it == first->end()) ++never;
      else latest.emplace_back(it->second, &e);
    }
    std::sort(latest.begin(), latest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::printf("%s search: %d listed templates never reached; the latest first seeds:\n",
                first == &first_seed ? "mixed" : "one-op", never);
    for (size_t i = 0; i < latest.size() && i < 8; ++i)
      std::printf("  seed %llu: %s %s %.90s\n", static_cast<unsigned long long>(latest[i].first),
                  latest[i].second->op.c_str(), latest[i].second->kind.c_str(), latest[i].second->text.c_str());
  }
  std::string rare_unreached;
  for (const ErrorTemplate& e : listed)
    if (e.rare && !either.count({e.op, e.kind, e.text}))
      rare_unreached += "  line " + std::to_string(e.line) + ": " + e.op + " " + e.kind + " " + e.text.substr(0, 90) + "\n";
  std::printf("entries marked rare and not reached this time:\n%s", rare_unreached.empty() ? "  none\n" : rare_unreached.c_str());
  std::printf("entries marked corpus-only or rare that both searches reach (drop the mark):\n%s",
              marked_reached.empty() ? "  none\n" : marked_reached.c_str());
  std::string unlisted;
  for (const auto& [key, seed] : either)
    if (!in_list.count(key))
      unlisted += "  " + std::get<0>(key) + " " + std::get<1>(key) + " " + std::get<2>(key) + "  # seed " +
                  std::to_string(seed) + "\n";
  std::printf("%s on PyTorch %s: %d listed templates reached (%llu mixed programs, %llu per op); reached but not listed "
              "(add them):\n%s",
              list.c_str(), version.c_str(), reached, static_cast<unsigned long long>(seeds), static_cast<unsigned long long>(seeds_per_op),
              unlisted.empty() ? "  none\n" : unlisted.c_str());
}

TEST(MessageReach, TheGeneratorReachesEveryListedTemplate) {
  // Under ASan/UBSan 100,000 programs take minutes; that stage runs a fixed
  // generated sample through the differential check instead.
  if (kSanitized && !std::getenv("STRIDECHECK_MESSAGE_REACH_SEEDS")) GTEST_SKIP() << "slow under sanitizers";
  expect_every_listed_template_reached("2.15", "error_templates.txt", kSeeds, kSeedsPerOp);
}

TEST(MessageReach, TheGeneratorReachesEveryListedTemplateOf1_13) {
  if (kSanitized && !std::getenv("STRIDECHECK_MESSAGE_REACH_SEEDS")) GTEST_SKIP() << "slow under sanitizers";
  expect_every_listed_template_reached("1.13", "error_templates_1.13.txt", kSeeds, kSeedsPerOp);
}

}  // namespace
}  // namespace sc
