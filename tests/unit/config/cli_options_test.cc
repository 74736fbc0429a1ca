#include "config/cli_options.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace servebench::config {
namespace {

Result<ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "profile");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

// Parses and expects a usage error whose message mentions `needle`.
void expect_usage_error(std::vector<std::string> args, const std::string& needle) {
  auto r = parse(args);
  ASSERT_FALSE(r.has_value()) << "accepted: " << needle;
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << "must be one line";
}

TEST(CliOptions, AliasesMapToTheSameFields) {
  auto a = parse({"-m", "m1", "--isl", "100", "--osl", "20", "--num-requests", "7", "--vllm-burstiness", "2",
                  "--request-rate-mode", "gamma", "--request-rate", "5", "--max-workers", "3",
                  "--output-artifact-dir", "out", "--endpoint", "v1/x"});
  ASSERT_TRUE(a) << a.error().message;
  auto b = parse({"--model", "m1", "--synthetic-input-tokens-mean", "100", "--output-tokens-mean", "20",
                  "--request-count", "7", "--arrival-smoothness", "2", "--arrival-pattern", "gamma",
                  "--request-rate", "5", "--workers-max", "3", "--artifact-dir", "out",
                  "--custom-endpoint", "/v1/x"});
  ASSERT_TRUE(b) << b.error().message;
  for (const auto* c : {&a->config, &b->config}) {
    EXPECT_EQ(c->model(), "m1");
    EXPECT_EQ(c->isl_mean_tokens, 100);
    EXPECT_EQ(c->osl_mean_tokens, 20);
    EXPECT_EQ(c->request_count, 7);
    EXPECT_EQ(c->arrival_smoothness, 2.0);
    EXPECT_EQ(c->arrival_pattern, ArrivalPattern::kGamma);
    EXPECT_EQ(c->workers_max, 3);
    EXPECT_EQ(c->artifact_dir, "out");
    EXPECT_EQ(c->custom_endpoint, "/v1/x");
  }
}

TEST(CliOptions, EndpointIsAPathNotAUrl) {
  expect_usage_error({"-m", "m", "--endpoint", "http://h:8000/v1/chat/completions"}, "--endpoint");
  expect_usage_error({"-m", "m", "--custom-endpoint", "/v1/x y"}, "--url");
  // A URL given as --endpoint may carry a key in its query: the message does not echo it.
  auto r = parse({"-m", "m", "--endpoint", "https://h/v1/x?key=sk-secret-value"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.find("sk-secret-value"), std::string::npos) << r.error().message;
  auto ok = parse({"-m", "m", "--endpoint", "proxy/v1/chat/completions?api-version=2"});
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->config.custom_endpoint, "/proxy/v1/chat/completions?api-version=2");
}

TEST(CliOptions, DefaultsFollowAiperf) {
  auto r = parse({"-m", "m"});
  ASSERT_TRUE(r);
  const auto& c = r->config;
  EXPECT_EQ(c.urls, std::vector<std::string>{"http://localhost:8000"});
  EXPECT_EQ(c.endpoint_type, "chat");
  EXPECT_EQ(c.effective_concurrency(), 1);
  EXPECT_EQ(c.effective_request_count(), 10);
  EXPECT_EQ(c.num_dataset_entries, 100);
  EXPECT_EQ(c.isl_mean_tokens, 550);
  EXPECT_EQ(c.load_label(), "concurrency1");
  auto r2 = parse({"-m", "m", "--concurrency", "32"});
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->config.effective_request_count(), 64);
  auto r3 = parse({"-m", "m", "--request-rate", "10", "--benchmark-duration", "5"});
  ASSERT_TRUE(r3);
  EXPECT_FALSE(r3->config.effective_request_count().has_value());
  EXPECT_FALSE(r3->config.effective_concurrency().has_value());
  EXPECT_EQ(r3->config.effective_grace_ns(), 30'000'000'000);
  EXPECT_EQ(r3->config.load_label(), "request_rate10");
}

TEST(CliOptions, RepeatedUrlsAndHeaders) {
  auto r = parse({"-m", "m", "-u", "localhost:1", "--url", "https://h:2/", "-H", "X-A:1", "--header", "X-B: two"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->config.urls, (std::vector<std::string>{"http://localhost:1", "https://h:2"}));
  EXPECT_EQ(r->config.headers, (std::vector<std::string>{"X-A: 1", "X-B: two"}));
}

TEST(CliOptions, DurationsAndInfiniteGrace) {
  auto r = parse({"-m", "m", "--benchmark-duration", "2.5", "--benchmark-grace-period", "inf",
                  "--request-timeout-seconds", "500ms", "--http-version", "2", "--insecure"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->config.benchmark_duration_ns, 2'500'000'000);
  EXPECT_EQ(r->config.grace_period_ns, kInfiniteNs);
  EXPECT_EQ(r->config.request_timeout_ns, 500'000'000);
  EXPECT_EQ(r->config.http_version, 2);
  EXPECT_TRUE(r->config.insecure_tls);
}

TEST(CliOptions, VerbosityCounts) {
  auto r = parse({"-m", "m", "-v", "-v"});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->config.verbosity, 3);
  auto q = parse({"-m", "m", "-vv"});
  ASSERT_TRUE(q);
  EXPECT_EQ(q->config.verbosity, 3);
}

TEST(CliOptions, HelpIsNotAnError) {
  auto r = parse({"--help"});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->help);
  EXPECT_NE(r->help_text.find("--request-rate"), std::string::npos);
}

TEST(CliOptions, OptionRulesAreOneLineErrors) {
  expect_usage_error({}, "--model");
  expect_usage_error({"-m", "m", "--request-rate", "5", "--arrival-smoothness", "2"}, "--arrival-smoothness");
  expect_usage_error({"-m", "m", "--benchmark-grace-period", "5"}, "--benchmark-grace-period");
  expect_usage_error({"-m", "m", "--prefill-concurrency", "2", "--concurrency", "4"}, "--streaming");
  expect_usage_error({"-m", "m", "--streaming", "--prefill-concurrency", "8", "--concurrency", "4"}, "--prefill-concurrency");
  expect_usage_error({"-m", "m", "--request-cancellation-delay", "1"}, "--request-cancellation-rate");
  expect_usage_error({"-m", "m", "--request-cancellation-rate", "101"}, "--request-cancellation-rate");
  expect_usage_error({"-m", "m", "--arrival-pattern", "constant"}, "--request-rate");
  expect_usage_error({"-m", "m", "--concurrency-ramp-duration", "3"}, "--concurrency");
  expect_usage_error({"-m", "m", "--request-rate-ramp-duration", "3"}, "--request-rate");
  expect_usage_error({"-m", "m", "--concurrency", "0"}, "--concurrency");
  expect_usage_error({"-m", "m", "--concurrency", "abc"}, "--concurrency");
  expect_usage_error({"-m", "m", "--request-rate", "-1"}, "--request-rate");
  expect_usage_error({"-m", "m", "--http-version", "3"}, "--http-version");
  expect_usage_error({"-m", "m", "--connection-reuse-strategy", "sometimes"}, "--connection-reuse-strategy");
  expect_usage_error({"-m", "m", "--arrival-pattern", "bursty", "--request-rate", "1"}, "--arrival-pattern");
  expect_usage_error({"-m", "m", "--export-level", "all"}, "--export-level");
  expect_usage_error({"-m", "m", "-u", "ftp://x"}, "--url");
  expect_usage_error({"-m", "m", "-H", "novalue"}, "--header");
  expect_usage_error({"-m", "m", "--benchmark-duration", "soon"}, "--benchmark-duration");
  expect_usage_error({"-m", "m", "--no-such-flag"}, "--no-such-flag");
  expect_usage_error({"-m", "m", "--extra-inputs", "{bad"}, "--extra-inputs");
}

TEST(CliOptions, SmoothnessAcceptedWithGamma) {
  auto r = parse({"-m", "m", "--request-rate", "5", "--arrival-pattern", "gamma", "--arrival-smoothness", "0.5"});
  ASSERT_TRUE(r) << r.error().message;
}

TEST(ExtraInputs, ScalarsBecomeJsonValues) {
  auto r = merge_extra_inputs({"ignore_eos:true", "min_tokens:12", "temperature:0.5", "stop:null",
                               "name:abc", "nested:{\"a\":1}", "{\"top_k\": 5, \"x\": false}"});
  ASSERT_TRUE(r) << r.error().message;
  auto j = nlohmann::json::parse(*r);
  EXPECT_EQ(j["ignore_eos"], true);
  EXPECT_EQ(j["min_tokens"], 12);
  EXPECT_TRUE(j["min_tokens"].is_number_integer());
  EXPECT_DOUBLE_EQ(j["temperature"].get<double>(), 0.5);
  EXPECT_TRUE(j["stop"].is_null());
  EXPECT_EQ(j["name"], "abc");
  EXPECT_EQ(j["nested"]["a"], 1);
  EXPECT_EQ(j["top_k"], 5);
  EXPECT_EQ(j["x"], false);
  EXPECT_EQ(*merge_extra_inputs({}), "");
}

TEST(Redaction, ApiKeyAndAuthorizationNeverAppear) {
  // Every -H value is a secret unless the header is on the harmless list (core/secrets.h).
  std::vector<const char*> argv = {"profile", "-m", "m", "--api-key", "sk-secret1", "--api-key=sk-secret2",
                                   "-H", "Authorization: Bearer sk-secret3", "-H", "User-Agent: fine",
                                   "-H", "X-Other: private"};
  const std::string cmd = redacted_command_line(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(cmd.find("sk-secret"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find("User-Agent: fine"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find("X-Other: <redacted>"), std::string::npos) << cmd;
  EXPECT_NE(cmd.find("<redacted>"), std::string::npos);
  std::vector<const char*> argv2 = {"profile", "-m", "m", "--api-key", "sk-secret1", "-H",
                                    "Authorization: Bearer sk-secret3"};
  auto r = parse_profile_args(static_cast<int>(argv2.size()), argv2.data());
  ASSERT_TRUE(r) << r.error().message;
  const std::string json = to_json(r->config);
  EXPECT_EQ(json.find("sk-secret"), std::string::npos) << json;
  EXPECT_EQ(json.find("sk-secret"), std::string::npos) << r->config.cli_command;
  EXPECT_EQ(r->config.api_key, "sk-secret1");  // kept in memory for the request headers only
}

}  // namespace
}  // namespace servebench::config

namespace servebench::config {
namespace {

// Property: any argv built from real flags and awkward values either parses or yields one
// usage line; nothing throws, nothing crashes.
TEST(CliOptions, RandomArgvNeverThrowsAndErrorsAreOneLine) {
  const std::vector<std::string> flags = {
      "-m", "--model", "-u", "--url", "--endpoint-type", "--streaming", "--api-key", "-H", "--extra-inputs",
      "--request-timeout-seconds", "--concurrency", "--request-rate", "--arrival-pattern", "--arrival-smoothness",
      "--request-count", "--benchmark-duration", "--benchmark-grace-period", "--warmup-request-count",
      "--warmup-duration", "--concurrency-ramp-duration", "--request-rate-ramp-duration", "--prefill-concurrency",
      "--request-cancellation-rate", "--request-cancellation-delay", "--random-seed", "--workers-max",
      "--connection-reuse-strategy", "--isl", "--isl-stddev", "--osl", "--osl-stddev", "--http-version",
      "--export-level", "--slice-duration", "-v", "-q", "--insecure", "--num-dataset-entries"};
  const std::vector<std::string> values = {"", "0", "1", "-1", "2.5", "1e400", "nan", "inf", "abc", "10k", "gamma",
                                           "constant", "k:v", "{\"a\":[1,2]}", "{", "http://x:1", "ftp://x",
                                           "1.1", "2", "never", "raw", "5ms", "-", "--", "=", "\n", "9999999999999999999"};
  uint64_t state = 12345;
  auto next = [&](size_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>((state >> 33) % n);
  };
  // Each parse builds the whole option table: ~13 ms in the release build, ~200 ms under ASan+UBSan
  // at -O0, where 3,000 rounds would outlast the test timeout (fuzz_config covers more inputs).
#if defined(SERVEBENCH_SANITIZED)
  constexpr int kRounds = 300;
#else
  constexpr int kRounds = 3000;
#endif
  int ok = 0, errors = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::string> args = {"profile"};
    const size_t n = 1 + next(8);
    for (size_t i = 0; i < n; ++i) {
      args.push_back(flags[next(flags.size())]);
      if (next(4) != 0) args.push_back(values[next(values.size())]);
    }
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    Result<ParsedArgs> r = make_error(ErrorCode::kInternal, "");
    ASSERT_NO_THROW(r = parse_profile_args(static_cast<int>(argv.size()), argv.data()));
    if (r) {
      ++ok;
      EXPECT_NO_THROW((void)to_json(r->config));
    } else {
      ++errors;
      EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
      EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
      EXPECT_FALSE(r.error().message.empty());
    }
  }
  EXPECT_GT(errors, kRounds / 30);
  EXPECT_GT(ok, 0);
}

}  // namespace
}  // namespace servebench::config
