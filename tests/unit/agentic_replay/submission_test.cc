// The scenario's export stamp (app/agentic_setup.h): submission_valid and its reasons.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/agentic_setup.h"
#include "config/cli_options.h"

namespace servebench::app {
namespace {

config::BenchmarkConfig scenario_config(std::vector<std::string> extra) {
  std::vector<std::string> args{"profile", "-m", "m", "--scenario", "inferencex-agentx-mvp", "--input-file", "t/"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  auto r = config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
  EXPECT_TRUE(r) << r.error().message;
  return r ? r->config : config::BenchmarkConfig{};
}

nlohmann::json stamp(const config::BenchmarkConfig& cfg, const metrics::Summary& s, bool interrupted) {
  auto fn = scenario_sections(cfg, &interrupted);
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : fn(s).json) out[k] = nlohmann::json::parse(v);
  return out;
}

metrics::Summary with_errors(int64_t ok, std::vector<metrics::ErrorGroup> groups) {
  metrics::Summary s;
  s.request_count = ok;
  for (const auto& g : groups) s.error_request_count += g.count;
  s.error_summary = std::move(groups);
  return s;
}

TEST(ScenarioStamp, ValidRunsAndTheReasonsThatInvalidateThem) {
  const auto cfg = scenario_config({});
  auto j = stamp(cfg, with_errors(100, {}), false);
  EXPECT_EQ(j.at("submission_valid"), true);
  EXPECT_EQ(j.at("scenario").at("name"), "inferencex-agentx-mvp");
  EXPECT_TRUE(j.at("submission_invalid_reasons").empty());
  // Interrupted: never a valid submission.
  j = stamp(cfg, with_errors(100, {}), true);
  EXPECT_EQ(j.at("submission_valid"), false);
  EXPECT_EQ(j.at("submission_invalid_reasons"), nlohmann::json::array({"run_cancelled"}));
  // --unsafe-override with a broken lock.
  j = stamp(scenario_config({"--unsafe-override", "--benchmark-duration", "60"}), with_errors(100, {}), false);
  EXPECT_EQ(j.at("submission_valid"), false);
  EXPECT_EQ(j.at("submission_invalid_reasons"), nlohmann::json::array({"unsafe_override"}));
  EXPECT_EQ(j.at("scenario").at("violations").size(), 1u);
  // No scenario: no stamp.
  config::BenchmarkConfig plain;
  bool no = false;
  EXPECT_EQ(scenario_sections(plain, &no), nullptr);
}

TEST(ScenarioStamp, MoreThanOnePercentContextOverflowsInvalidateTheRun) {
  const auto cfg = scenario_config({});
  const metrics::ErrorGroup overflow{400, "http", "This model's Maximum Context length is <n> tokens", 1};
  const metrics::ErrorGroup other{500, "http", "internal error", 5};
  // 1 overflow of 100 responses: exactly 1%, still valid (the limit is strict).
  auto j = stamp(cfg, with_errors(94, {overflow, other}), false);
  EXPECT_EQ(j.at("scenario").at("context_overflow_count"), 1);
  EXPECT_EQ(j.at("submission_valid"), true);
  // 2 of 100: invalid.
  metrics::ErrorGroup two = overflow;
  two.count = 2;
  j = stamp(cfg, with_errors(93, {two, other}), false);
  EXPECT_EQ(j.at("submission_valid"), false);
  EXPECT_EQ(j.at("submission_invalid_reasons"), nlohmann::json::array({"context_overflow_rate_exceeded"}));
  EXPECT_EQ(context_overflow_count(with_errors(0, {other})), 0);
}

}  // namespace
}  // namespace servebench::app
