// `servebench profile` flags for sessions, shared prompts, cache busting, KV-cache reset and the
// user-centric load mode: aliases, defaults, conversion errors, validate() rules and to_json.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "config/cli_options.h"

namespace servebench::config {
namespace {

using Args = std::vector<std::string>;

Result<ParsedArgs> parse(Args args) {
  args.insert(args.begin(), "profile");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

// "-m m" followed by `extra`.
Args with_model(Args extra) {
  Args a{"-m", "m"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

BenchmarkConfig parse_ok(const Args& extra) {
  auto r = parse(with_model(extra));
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r ? r->config : BenchmarkConfig{};
}

// Expects an exit-2 style error: kInvalidArgument, one line, mentioning every needle (the flag).
void expect_usage_error(const Args& extra, const std::vector<std::string>& needles) {
  auto r = parse(with_model(extra));
  std::string shown;
  for (const auto& a : extra) shown += a + " ";
  ASSERT_FALSE(r.has_value()) << "accepted: " << shown;
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument) << shown;
  const std::string& msg = r.error().message;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "must be one line: " << msg;
  for (const auto& n : needles) EXPECT_NE(msg.find(n), std::string::npos) << "'" << n << "' not in: " << msg;
}

// A config that passes validate(): what the CLI would build from "-m m".
BenchmarkConfig base_config() {
  BenchmarkConfig c;
  c.models = {"m"};
  c.urls = {"http://localhost:8000"};
  return c;
}

void expect_invalid(const BenchmarkConfig& c, const std::string& needle) {
  auto st = validate(c);
  ASSERT_FALSE(st.has_value()) << "accepted; expected an error naming " << needle;
  EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(st.error().message.find(needle), std::string::npos) << st.error().message;
  EXPECT_EQ(st.error().message.find('\n'), std::string::npos) << st.error().message;
}

nlohmann::json config_json(const BenchmarkConfig& c) {
  auto j = nlohmann::json::parse(to_json(c), nullptr, false);
  EXPECT_FALSE(j.is_discarded());
  return j;
}

// ---- Aliases ---------------------------------------------------------------------------------

TEST(SessionOptions, AliasesMapToTheSameFields) {
  const BenchmarkConfig primary = parse_ok(
      {"--sequence-distribution", "256,128:40;512,256:60", "--num-sessions", "5", "--session-turns-mean", "3",
       "--session-turns-stddev", "1.5", "--session-turn-delay-mean", "250", "--session-turn-delay-stddev", "20",
       "--session-delay-ratio", "0.5", "--prefix-prompt-pool-size", "4", "--prefix-prompt-length", "64"});
  const BenchmarkConfig genai = parse_ok(
      {"--seq-dist", "256,128:40;512,256:60", "--num-conversations", "5", "--conversation-turn-mean", "3",
       "--conversation-turn-stddev", "1.5", "--conversation-turn-delay-mean", "250",
       "--conversation-turn-delay-stddev", "20", "--conversation-turn-delay-ratio", "0.5",
       "--prompt-prefix-pool-size", "4", "--prompt-prefix-length", "64"});
  const BenchmarkConfig third = parse_ok(
      {"--seq-dist", "256,128:40;512,256:60", "--conversation-num", "5", "--session-turns-mean", "3",
       "--session-turns-stddev", "1.5", "--session-turn-delay-mean", "250", "--session-turn-delay-stddev", "20",
       "--session-delay-ratio", "0.5", "--num-prefix-prompts", "4", "--prefix-prompt-length", "64"});
  for (const BenchmarkConfig* c : {&primary, &genai, &third}) {
    EXPECT_EQ(c->sequence_distribution, "256,128:40;512,256:60");
    EXPECT_EQ(c->num_sessions, 5);
    EXPECT_EQ(c->session_turns_mean, 3);
    EXPECT_EQ(c->session_turns_stddev, 1.5);
    EXPECT_EQ(c->session_turn_delay_mean_ms, 250);
    EXPECT_EQ(c->session_turn_delay_stddev_ms, 20);
    EXPECT_EQ(c->session_delay_ratio, 0.5);
    EXPECT_EQ(c->prefix_prompt_pool_size, 4);
    EXPECT_EQ(c->prefix_prompt_length, 64);
    EXPECT_TRUE(c->multi_turn_synthetic());
  }
}

TEST(SessionOptions, EqualsFormWorksForAliases) {
  const BenchmarkConfig c = parse_ok({"--seq-dist=100,10:100", "--num-conversations=2",
                                      "--conversation-turn-mean=2", "--num-prefix-prompts=3",
                                      "--prompt-prefix-length=16"});
  EXPECT_EQ(c.sequence_distribution, "100,10:100");
  EXPECT_EQ(c.num_sessions, 2);
  EXPECT_EQ(c.session_turns_mean, 2);
  EXPECT_EQ(c.prefix_prompt_pool_size, 3);
  EXPECT_EQ(c.prefix_prompt_length, 16);
}

// ---- Defaults --------------------------------------------------------------------------------

TEST(SessionOptions, Defaults) {
  const BenchmarkConfig c = parse_ok({});
  EXPECT_EQ(c.sequence_distribution, "");
  EXPECT_EQ(c.sampling_strategy, SamplingStrategyName::kDefault);
  EXPECT_FALSE(c.num_sessions.has_value());
  EXPECT_EQ(c.session_turns_mean, 1);
  EXPECT_EQ(c.session_turns_stddev, 0);
  EXPECT_EQ(c.session_turn_delay_mean_ms, 0);
  EXPECT_EQ(c.session_turn_delay_stddev_ms, 0);
  EXPECT_EQ(c.session_delay_ratio, 1.0);
  EXPECT_EQ(c.prefix_prompt_pool_size, 0);
  EXPECT_EQ(c.prefix_prompt_length, 0);
  EXPECT_EQ(c.shared_system_prompt_length, 0);
  EXPECT_EQ(c.user_context_prompt_length, 0);
  EXPECT_EQ(c.session_header, "X-Correlation-ID");
  EXPECT_EQ(c.cache_bust, CacheBust::kNone);
  EXPECT_FALSE(c.reset_kv_cache);
  EXPECT_EQ(c.reset_kv_cache_path, "/reset_prefix_cache");
  EXPECT_EQ(c.reset_kv_cache_timeout_ns, 30'000'000'000);
  EXPECT_FALSE(c.user_centric_rate.has_value());
  EXPECT_FALSE(c.num_users.has_value());
  EXPECT_FALSE(c.multi_turn_synthetic());
  EXPECT_EQ(c.effective_request_count(), 10);
}

TEST(SessionOptions, NumSessionsReplacesTheDefaultRequestCount) {
  const BenchmarkConfig c = parse_ok({"--num-sessions", "7", "--concurrency", "4"});
  EXPECT_EQ(c.num_sessions, 7);
  EXPECT_FALSE(c.effective_request_count().has_value());
}

TEST(SessionOptions, TurnStddevAloneMakesSessionsMultiTurn) {
  EXPECT_TRUE(parse_ok({"--session-turns-stddev", "0.5"}).multi_turn_synthetic());
  EXPECT_TRUE(parse_ok({"--session-turns-mean", "1.5"}).multi_turn_synthetic());
  EXPECT_FALSE(parse_ok({"--session-turns-mean", "1"}).multi_turn_synthetic());
}

// ---- Values ----------------------------------------------------------------------------------

TEST(SessionOptions, CacheBustValues) {
  const std::pair<const char*, CacheBust> cases[] = {{"none", CacheBust::kNone},
                                                     {"system_prefix", CacheBust::kSystemPrefix},
                                                     {"system_suffix", CacheBust::kSystemSuffix},
                                                     {"first_turn_prefix", CacheBust::kFirstTurnPrefix},
                                                     {"first_turn_suffix", CacheBust::kFirstTurnSuffix}};
  for (const auto& [text, value] : cases) {
    SCOPED_TRACE(text);
    const BenchmarkConfig c = parse_ok({"--cache-bust", text});
    EXPECT_EQ(c.cache_bust, value);
    EXPECT_STREQ(cache_bust_name(c.cache_bust), text);
  }
}

TEST(SessionOptions, SamplingStrategyValues) {
  EXPECT_EQ(parse_ok({"--dataset-sampling-strategy", "random"}).sampling_strategy, SamplingStrategyName::kRandom);
  EXPECT_EQ(parse_ok({"--dataset-sampling-strategy", "sequential"}).sampling_strategy,
            SamplingStrategyName::kSequential);
  EXPECT_EQ(parse_ok({"--dataset-sampling-strategy", "shuffle"}).sampling_strategy, SamplingStrategyName::kShuffle);
}

TEST(SessionOptions, SharedPromptLengthsAndSessionHeader) {
  const BenchmarkConfig c = parse_ok({"--shared-system-prompt-length", "300", "--user-context-prompt-length", "40",
                                      "--session-header", "X-Session-ID"});
  EXPECT_EQ(c.shared_system_prompt_length, 300);
  EXPECT_EQ(c.user_context_prompt_length, 40);
  EXPECT_EQ(c.session_header, "X-Session-ID");
}

TEST(SessionOptions, ResetKvCacheFlagUsesDefaults) {
  const BenchmarkConfig c = parse_ok({"--reset-kv-cache"});
  EXPECT_TRUE(c.reset_kv_cache);
  EXPECT_EQ(c.reset_kv_cache_path, "/reset_prefix_cache");
  EXPECT_EQ(c.reset_kv_cache_timeout_ns, 30'000'000'000);
}

TEST(SessionOptions, ResetKvCachePathAloneEnablesReset) {
  const BenchmarkConfig c = parse_ok({"--reset-kv-cache-path", "flush_cache"});
  EXPECT_TRUE(c.reset_kv_cache);
  EXPECT_EQ(c.reset_kv_cache_path, "/flush_cache");  // a leading '/' is added
  const BenchmarkConfig d = parse_ok({"--reset-kv-cache-path", "/v1/reset"});
  EXPECT_TRUE(d.reset_kv_cache);
  EXPECT_EQ(d.reset_kv_cache_path, "/v1/reset");
}

TEST(SessionOptions, ResetKvCacheTimeoutAloneEnablesReset) {
  const BenchmarkConfig c = parse_ok({"--reset-kv-cache-timeout-seconds", "2.5"});
  EXPECT_TRUE(c.reset_kv_cache);
  EXPECT_EQ(c.reset_kv_cache_timeout_ns, 2'500'000'000);
  EXPECT_EQ(parse_ok({"--reset-kv-cache-timeout-seconds", "500ms"}).reset_kv_cache_timeout_ns, 500'000'000);
}

TEST(SessionOptions, UserCentricRateParsesWithUsersAndSessions) {
  const BenchmarkConfig c = parse_ok({"--user-centric-rate", "2.5", "--num-users", "8", "--session-turns-mean", "3"});
  EXPECT_EQ(c.user_centric_rate, 2.5);
  EXPECT_EQ(c.num_users, 8);
  EXPECT_FALSE(c.effective_concurrency().has_value());  // open loop, like --request-rate
  EXPECT_EQ(c.load_label(), "user_centric_rate2.5");
}

TEST(SessionOptions, UserCentricRateWithAFileNeedsNoSyntheticTurns) {
  const BenchmarkConfig c =
      parse_ok({"--user-centric-rate", "4", "--num-users", "2", "--input-file", "sessions.jsonl"});
  EXPECT_EQ(c.user_centric_rate, 4);
  EXPECT_EQ(c.load_label(), "user_centric_rate4");
}

TEST(SessionOptions, LoadLabelPrefersUserCentricRate) {
  BenchmarkConfig c = base_config();
  c.user_centric_rate = 2;
  EXPECT_EQ(c.load_label(), "user_centric_rate2");
  c.concurrency = 16;  // a concurrency cap does not rename the folder
  EXPECT_EQ(c.load_label(), "user_centric_rate2");
  c.user_centric_rate = 0.25;
  EXPECT_EQ(c.load_label(), "user_centric_rate0.25");
}

// ---- Conversion errors -----------------------------------------------------------------------

TEST(SessionOptions, BadValuesNameTheirFlag) {
  expect_usage_error({"--cache-bust", "middle"}, {"--cache-bust", "'middle'", "first_turn_suffix"});
  expect_usage_error({"--cache-bust", "System_Prefix"}, {"--cache-bust"});
  expect_usage_error({"--dataset-sampling-strategy", "roundrobin"},
                     {"--dataset-sampling-strategy", "'roundrobin'", "shuffle"});
  expect_usage_error({"--session-header", "X-Id: 1"}, {"--session-header"});
  expect_usage_error({"--session-header", "X-Id:"}, {"--session-header"});
  expect_usage_error({"--session-header", "X Id"}, {"--session-header"});
  expect_usage_error({"--session-header", ""}, {"--session-header"});  // an empty name is not a header
  expect_usage_error({"--num-sessions", "0"}, {"--num-sessions"});
  expect_usage_error({"--num-conversations", "many"}, {"--num-sessions"});
  expect_usage_error({"--num-sessions", "2.5"}, {"--num-sessions"});
  expect_usage_error({"--session-turns-mean", "abc"}, {"--session-turns-mean"});
  expect_usage_error({"--session-turns-stddev=-1"}, {"--session-turns-stddev"});
  expect_usage_error({"--session-turn-delay-mean=-5"}, {"--session-turn-delay-mean"});
  expect_usage_error({"--conversation-turn-delay-stddev=-5"}, {"--session-turn-delay-stddev"});
  expect_usage_error({"--session-delay-ratio=-0.5"}, {"--session-delay-ratio"});
  expect_usage_error({"--prefix-prompt-pool-size=-1", "--prefix-prompt-length", "8"}, {"--prefix-prompt-pool-size"});
  expect_usage_error({"--prefix-prompt-length", "x"}, {"--prefix-prompt-length"});
  expect_usage_error({"--shared-system-prompt-length", "1.5"}, {"--shared-system-prompt-length"});
  expect_usage_error({"--user-context-prompt-length=-3"}, {"--user-context-prompt-length"});
  expect_usage_error({"--reset-kv-cache-timeout-seconds", "soon"}, {"--reset-kv-cache-timeout-seconds"});
  expect_usage_error({"--reset-kv-cache-timeout-seconds", "0"}, {"--reset-kv-cache-timeout-seconds"});
  expect_usage_error({"--user-centric-rate", "0", "--num-users", "2"}, {"--user-centric-rate"});
  expect_usage_error({"--user-centric-rate", "fast", "--num-users", "2"}, {"--user-centric-rate"});
  expect_usage_error({"--user-centric-rate", "1", "--num-users", "0", "--session-turns-mean", "2"},
                     {"--num-users"});
}

// ---- validate() rules, through the command line ----------------------------------------------

TEST(SessionOptions, RequestCountAndNumSessionsExcludeEachOther) {
  expect_usage_error({"--request-count", "10", "--num-sessions", "3"}, {"--request-count", "--num-sessions"});
  expect_usage_error({"--num-requests", "10", "--conversation-num", "3"}, {"--request-count", "--num-sessions"});
}

TEST(SessionOptions, NumUsersAndUserCentricRateGoTogether) {
  expect_usage_error({"--num-users", "4", "--session-turns-mean", "2"}, {"--num-users", "--user-centric-rate"});
  expect_usage_error({"--user-centric-rate", "2", "--session-turns-mean", "2"},
                     {"--user-centric-rate", "--num-users"});
}

TEST(SessionOptions, UserCentricRateExcludesOtherModes) {
  const Args ok{"--user-centric-rate", "2", "--num-users", "4", "--session-turns-mean", "3"};
  auto plus = [&](Args extra) {
    Args a = ok;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  expect_usage_error(plus({"--request-rate", "5"}), {"--user-centric-rate", "--request-rate"});
  expect_usage_error(plus({"--request-rate-ramp-duration", "5"}), {"--request-rate-ramp-duration"});
  expect_usage_error(plus({"--warmup-request-count", "3"}), {"--user-centric-rate", "warm-up"});
  expect_usage_error(plus({"--warmup-duration", "3"}), {"--user-centric-rate", "warm-up"});
  expect_usage_error({"--user-centric-rate", "2", "--num-users", "4", "--input-file", "t.jsonl", "--fixed-schedule"},
                     {"--user-centric-rate", "--fixed-schedule"});
}

TEST(SessionOptions, UserCentricRateNeedsMultiTurnSyntheticSessions) {
  expect_usage_error({"--user-centric-rate", "2", "--num-users", "4"}, {"--user-centric-rate", "--session-turns-mean"});
  expect_usage_error({"--user-centric-rate", "2", "--num-users", "4", "--session-turns-mean", "1.5"},
                     {"--session-turns-mean"});
}

TEST(SessionOptions, PrefixPoolSizeAndLengthGoTogether) {
  expect_usage_error({"--prefix-prompt-pool-size", "4"}, {"--prefix-prompt-pool-size", "--prefix-prompt-length"});
  expect_usage_error({"--prefix-prompt-length", "64"}, {"--prefix-prompt-pool-size", "--prefix-prompt-length"});
  expect_usage_error({"--num-prefix-prompts", "4", "--prompt-prefix-length", "0"}, {"--prefix-prompt-length"});
  // Both zero is "no prefixes", not an error.
  const BenchmarkConfig c = parse_ok({"--prefix-prompt-pool-size", "0", "--prefix-prompt-length", "0"});
  EXPECT_EQ(c.prefix_prompt_pool_size, 0);
}

TEST(SessionOptions, CacheBustNeedsChat) {
  expect_usage_error({"--cache-bust", "system_prefix", "--endpoint-type", "completions"},
                     {"--cache-bust", "chat"});
  expect_usage_error({"--cache-bust", "first_turn_suffix", "--endpoint-type", "embeddings"}, {"--cache-bust"});
  // "none" adds no marker, so any endpoint type is fine.
  EXPECT_EQ(parse_ok({"--cache-bust", "none", "--endpoint-type", "completions"}).cache_bust, CacheBust::kNone);
  EXPECT_EQ(parse_ok({"--cache-bust", "first_turn_prefix", "--endpoint-type", "chat"}).cache_bust,
            CacheBust::kFirstTurnPrefix);
}

TEST(SessionOptions, SamplingStrategyDoesNotApplyToFixedSchedule) {
  expect_usage_error({"--input-file", "t.jsonl", "--fixed-schedule", "--dataset-sampling-strategy", "random"},
                     {"--dataset-sampling-strategy", "--fixed-schedule"});
  // Without the schedule the same file may be sampled.
  EXPECT_EQ(parse_ok({"--input-file", "t.jsonl", "--no-fixed-schedule", "--dataset-sampling-strategy", "shuffle"})
                .sampling_strategy,
            SamplingStrategyName::kShuffle);
}

TEST(SessionOptions, SequenceDistributionExcludesRangeRatios) {
  expect_usage_error({"--seq-dist", "100,10:100", "--isl-range-ratio", "0.5"},
                     {"--sequence-distribution", "--isl-range-ratio"});
  expect_usage_error({"--sequence-distribution", "100,10:100", "--osl", "20", "--osl-range-ratio", "0.5"},
                     {"--sequence-distribution", "--osl-range-ratio"});
}

TEST(SessionOptions, SessionTurnsMeanBelowOneIsRejected) {
  expect_usage_error({"--session-turns-mean", "0.5"}, {"--session-turns-mean"});
  expect_usage_error({"--conversation-turn-mean", "0"}, {"--session-turns-mean"});
}

// ---- validate() rules on a config built directly ---------------------------------------------

TEST(SessionValidate, RulesOnPlainConfigs) {
  {
    BenchmarkConfig c = base_config();
    c.request_count = 5;
    c.num_sessions = 2;
    expect_invalid(c, "--num-sessions");
  }
  {
    BenchmarkConfig c = base_config();
    c.session_delay_ratio = -1;
    expect_invalid(c, "--session-delay-ratio");
  }
  {
    BenchmarkConfig c = base_config();
    c.num_users = 3;
    expect_invalid(c, "--num-users");
  }
  {
    BenchmarkConfig c = base_config();
    c.user_centric_rate = 1;
    c.session_turns_mean = 2;
    expect_invalid(c, "--num-users");
  }
  {
    BenchmarkConfig c = base_config();
    c.prefix_prompt_length = 10;
    expect_invalid(c, "--prefix-prompt-pool-size");
  }
  {
    BenchmarkConfig c = base_config();
    c.endpoint_type = "completions";
    c.cache_bust = CacheBust::kSystemSuffix;
    expect_invalid(c, "--cache-bust");
  }
  {
    BenchmarkConfig c = base_config();
    c.input_file = "t.jsonl";
    c.fixed_schedule = true;
    c.sampling_strategy = SamplingStrategyName::kSequential;
    expect_invalid(c, "--dataset-sampling-strategy");
  }
  {
    BenchmarkConfig c = base_config();
    c.sequence_distribution = "1,1:100";
    c.isl_range_ratio = 0.1;
    expect_invalid(c, "--sequence-distribution");
  }
  {
    BenchmarkConfig c = base_config();
    c.user_centric_rate = 1;
    c.num_users = 2;
    c.session_turns_mean = 2;
    EXPECT_TRUE(validate(c).has_value());
  }
}

// ---- to_json ---------------------------------------------------------------------------------

TEST(SessionToJson, CarriesTheNewFields) {
  const BenchmarkConfig c = parse_ok(
      {"--seq-dist", "256,128:40;512,256:60", "--dataset-sampling-strategy", "sequential", "--num-sessions", "6",
       "--session-turns-mean", "3", "--session-turns-stddev", "1", "--session-turn-delay-mean", "200",
       "--session-turn-delay-stddev", "50", "--session-delay-ratio", "0.5", "--prefix-prompt-pool-size", "4",
       "--prefix-prompt-length", "32", "--shared-system-prompt-length", "100", "--user-context-prompt-length",
       "20", "--session-header", "X-Session", "--cache-bust", "first_turn_suffix", "--reset-kv-cache-path",
       "/flush", "--reset-kv-cache-timeout-seconds", "5", "--user-centric-rate", "1.5", "--num-users", "3"});
  const auto j = config_json(c);
  const auto& in = j.at("input");
  EXPECT_EQ(in.at("sequence_distribution"), "256,128:40;512,256:60");
  EXPECT_EQ(in.at("dataset_sampling_strategy"), "sequential");
  const auto& conv = in.at("conversation");
  EXPECT_EQ(conv.at("num"), 6);
  EXPECT_EQ(conv.at("turn").at("mean"), 3.0);
  EXPECT_EQ(conv.at("turn").at("stddev"), 1.0);
  EXPECT_EQ(conv.at("turn").at("delay").at("mean"), 200.0);
  EXPECT_EQ(conv.at("turn").at("delay").at("stddev"), 50.0);
  EXPECT_EQ(conv.at("turn").at("delay").at("ratio"), 0.5);
  EXPECT_EQ(in.at("prompt").at("prefix_prompt").at("pool_size"), 4);
  EXPECT_EQ(in.at("prompt").at("prefix_prompt").at("length"), 32);
  EXPECT_EQ(in.at("prompt").at("shared_system_prompt_length"), 100);
  EXPECT_EQ(in.at("prompt").at("user_context_prompt_length"), 20);
  EXPECT_EQ(in.at("cache_bust"), "first_turn_suffix");
  const auto& ep = j.at("endpoint");
  EXPECT_EQ(ep.at("session_header"), "X-Session");
  ASSERT_TRUE(ep.at("reset_kv_cache").is_object()) << ep.dump();
  EXPECT_EQ(ep.at("reset_kv_cache").at("path"), "/flush");
  EXPECT_EQ(ep.at("reset_kv_cache").at("timeout_seconds"), 5.0);
  // The first endpoint fields survive the second assignment of j["endpoint"].
  EXPECT_EQ(ep.at("type"), "chat");
  EXPECT_EQ(ep.at("model_names"), nlohmann::json::array({"m"}));
  const auto& lg = j.at("loadgen");
  EXPECT_EQ(lg.at("user_centric_rate"), 1.5);
  EXPECT_EQ(lg.at("num_users"), 3);
  EXPECT_TRUE(lg.at("request_rate").is_null());
  EXPECT_TRUE(lg.at("request_count").is_null());  // the sessions end the run
}

TEST(SessionToJson, DefaultsAreNullNoneOrFalse) {
  const auto j = config_json(parse_ok({}));
  const auto& in = j.at("input");
  EXPECT_TRUE(in.at("sequence_distribution").is_null());
  EXPECT_TRUE(in.at("dataset_sampling_strategy").is_null());
  EXPECT_TRUE(in.at("conversation").at("num").is_null());
  EXPECT_EQ(in.at("conversation").at("turn").at("mean"), 1.0);
  EXPECT_EQ(in.at("conversation").at("turn").at("delay").at("ratio"), 1.0);
  EXPECT_EQ(in.at("prompt").at("prefix_prompt").at("pool_size"), 0);
  EXPECT_TRUE(in.at("prompt").at("shared_system_prompt_length").is_null());
  EXPECT_TRUE(in.at("prompt").at("user_context_prompt_length").is_null());
  EXPECT_EQ(in.at("cache_bust"), "none");
  EXPECT_EQ(j.at("endpoint").at("session_header"), "X-Correlation-ID");
  EXPECT_EQ(j.at("endpoint").at("reset_kv_cache"), false);
  EXPECT_TRUE(j.at("loadgen").at("user_centric_rate").is_null());
  EXPECT_TRUE(j.at("loadgen").at("num_users").is_null());
}

TEST(SessionToJson, ResetFlagAloneShowsTheDefaultPathAndTimeout) {
  const auto j = config_json(parse_ok({"--reset-kv-cache"}));
  const auto& r = j.at("endpoint").at("reset_kv_cache");
  ASSERT_TRUE(r.is_object()) << r.dump();
  EXPECT_EQ(r.at("path"), "/reset_prefix_cache");
  EXPECT_EQ(r.at("timeout_seconds"), 30.0);
}

TEST(SessionToJson, EverySamplingStrategyAndCacheBustIsNamed) {
  for (const char* s : {"random", "sequential", "shuffle"})
    EXPECT_EQ(config_json(parse_ok({"--dataset-sampling-strategy", s})).at("input").at("dataset_sampling_strategy"), s);
  for (const char* s : {"none", "system_prefix", "system_suffix", "first_turn_prefix", "first_turn_suffix"})
    EXPECT_EQ(config_json(parse_ok({"--cache-bust", s})).at("input").at("cache_bust"), s);
}

}  // namespace
}  // namespace servebench::config
