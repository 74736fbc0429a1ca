// The --no- forms of boolean flags (FlagSpec::negatable): derived once by the flag table for
// every switch, so each boolean can be turned off and the last of --x / --no-x wins.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "config/cli_options.h"
#include "config/flag_table.h"
#include "core/secrets.h"

namespace servebench::config {
namespace {

using nlohmann::json;

Result<ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), {"profile", "-m", "m"});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

const FlagSpec* spec(const std::string& name) {
  for (const auto& f : profile_flags()) {
    const auto all = flag_spellings(f);
    if (std::find(all.begin(), all.end(), name) != all.end()) return &f;
  }
  return nullptr;
}

// The exported config without the command line (which differs by construction).
json exported(const BenchmarkConfig& c) {
  json j = json::parse(to_json(c));
  j.erase("cli_command");
  return j;
}

class Negation : public ::testing::Test {
 protected:
  void SetUp() override { core::secrets::clear_for_testing(); }
  void TearDown() override { core::secrets::clear_for_testing(); }
};

TEST_F(Negation, EverySwitchGetsItsNoForm) {
  int derived = 0;
  for (const auto& f : profile_flags()) {
    if (f.arity != FlagArity::kSwitch) {
      EXPECT_TRUE(f.negations.empty()) << f.names;
      continue;
    }
    derived += static_cast<int>(f.negations.size());
    for (const auto& n : f.negations) EXPECT_EQ(n.rfind("--no-", 0), 0u) << n;
  }
  EXPECT_GE(derived, 20);
  ASSERT_NE(spec("--no-streaming"), nullptr);
  EXPECT_EQ(spec("--no-streaming")->names, "--streaming");
  for (const char* name : {"--no-set-consistent-seed", "--no-profile-run-disable-warmup-after-first",
                           "--no-vary-seed-per-trial", "--no-parameter-sweep-same-seed"})
    EXPECT_NE(spec(name), nullptr) << name;
  // A declared --no- flag keeps its own rules; a --no- flag is not negated again.
  EXPECT_TRUE(spec("--fixed-schedule")->negations.empty());
  EXPECT_EQ(spec("--no-fixed-schedule")->names, "--no-fixed-schedule");
  EXPECT_TRUE(spec("--no-sweep-table")->negations.empty());
  EXPECT_EQ(spec("--no-no-sweep-table"), nullptr);
  EXPECT_TRUE(spec("--auto-plot")->negations.empty()) << "--no-auto-plot is one of its names";
}

TEST_F(Negation, ExperimentBooleansTurnOff) {
  auto d = parse({});
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_TRUE(d->config.experiment.set_consistent_seed);
  EXPECT_TRUE(d->config.experiment.disable_warmup_after_first);
  auto p = parse({"--no-set-consistent-seed", "--no-profile-run-disable-warmup-after-first",
                  "--vary-seed-per-trial", "--no-vary-seed-per-trial",
                  "--no-parameter-sweep-same-seed"});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_FALSE(p->config.experiment.set_consistent_seed);
  EXPECT_FALSE(p->config.experiment.disable_warmup_after_first);
  EXPECT_FALSE(p->config.experiment.vary_seed_per_trial);
  EXPECT_FALSE(p->config.experiment.sweep_same_seed);
  auto q = parse({"--no-vary-seed-per-trial", "--vary-seed-per-trial"});
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_TRUE(q->config.experiment.vary_seed_per_trial) << "the last of --x / --no-x wins";
}

TEST_F(Negation, LastSpellingWins) {
  auto off = parse({"--streaming", "--no-streaming"});
  ASSERT_TRUE(off) << off.error().message;
  EXPECT_FALSE(off->config.streaming);
  auto on = parse({"--no-streaming", "--streaming"});
  ASSERT_TRUE(on) << on.error().message;
  EXPECT_TRUE(on->config.streaming);
  auto eq = parse({"--streaming=false"});
  ASSERT_TRUE(eq) << eq.error().message;
  EXPECT_FALSE(eq->config.streaming);
}

// For every exported switch: --x then --no-x gives the default configuration.
TEST_F(Negation, NoFormRestoresTheDefault) {
  auto d = parse({});
  ASSERT_TRUE(d) << d.error().message;
  const json base = exported(d->config);
  int checked = 0;
  for (const auto& f : profile_flags()) {
    if (f.negations.empty() || !f.to_json) continue;
    const std::string on = flag_spellings(f).front();
    if (!parse({on})) continue;  // needs other flags to be valid on its own
    auto p = parse({on, f.negations.front()});
    ASSERT_TRUE(p) << on << ": " << p.error().message;
    EXPECT_EQ(exported(p->config), base) << on << " " << f.negations.front();
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

TEST_F(Negation, HelpListsTheNoForms) {
  auto r = parse({"--help"});
  ASSERT_TRUE(r);
  for (const char* needle : {"--no-streaming", "--no-set-consistent-seed", "--no-sweep-table"})
    EXPECT_NE(r->help_text.find(needle), std::string::npos) << needle;
}

TEST_F(Negation, RefusedSwitchesStayRefused) {
  auto r = parse({"--no-accuracy-verbose"});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not supported yet"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace servebench::config
