#include "options.h"

#include <gtest/gtest.h>

namespace servebench::mock {
namespace {

TEST(MockOptions, Defaults) {
  auto o = parse_mock_options({});
  ASSERT_TRUE(o);
  EXPECT_EQ(o->server.host, "127.0.0.1");
  EXPECT_EQ(o->server.port, 0);
  EXPECT_EQ(o->server.threads, 1);
  EXPECT_EQ(o->server.knobs.ttft_ns, 0);
  EXPECT_EQ(o->server.knobs.tokens_per_chunk, 1);
  EXPECT_EQ(o->server.knobs.reasoning_tokens, 0);
  EXPECT_EQ(o->server.max_body_bytes, 32ll << 20);
  EXPECT_FALSE(o->server.knobs.early_role);
}

TEST(MockOptions, ParsesEveryFlag) {
  auto o = parse_mock_options({"--host",
                               "0.0.0.0",
                               "--port=8123",
                               "--threads",
                               "4",
                               "--ttft-ms",
                               "50",
                               "--itl-ms=10",
                               "--prefill-us-per-token",
                               "1.5",
                               "--jitter-cv",
                               "0.2",
                               "--tokens-per-chunk",
                               "3",
                               "--reasoning-tokens",
                               "5",
                               "--max-concurrency",
                               "8",
                               "--seed",
                               "42",
                               "--error-rate",
                               "12.5",
                               "--error-kind",
                               "stall",
                               "--record-requests",
                               "r.jsonl",
                               "--ground-truth",
                               "g.jsonl",
                               "--max-body-bytes",
                               "1M",
                               "--model",
                               "qwen",
                               "--default-max-tokens",
                               "64",
                               "--early-role-chunk",
                               "--tokenizer",
                               "builtin",
                               "--stall-timeout-ms",
                               "250"});
  ASSERT_TRUE(o) << o.error().message;
  const ServerConfig& s = o->server;
  EXPECT_EQ(s.host, "0.0.0.0");
  EXPECT_EQ(s.port, 8123);
  EXPECT_EQ(s.threads, 4);
  EXPECT_EQ(s.knobs.ttft_ns, 50'000'000);
  EXPECT_EQ(s.knobs.itl_ns, 10'000'000);
  EXPECT_EQ(s.knobs.prefill_ns_per_token, 1'500);
  EXPECT_DOUBLE_EQ(s.knobs.jitter_cv, 0.2);
  EXPECT_EQ(s.knobs.tokens_per_chunk, 3);
  EXPECT_EQ(s.knobs.reasoning_tokens, 5);
  EXPECT_EQ(s.max_concurrency, 8);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_DOUBLE_EQ(s.knobs.error_rate_pct, 12.5);
  EXPECT_EQ(s.knobs.error_kind, FaultKind::kStall);
  EXPECT_EQ(s.record_requests_path, "r.jsonl");
  EXPECT_EQ(s.ground_truth_path, "g.jsonl");
  EXPECT_EQ(s.max_body_bytes, 1'000'000);
  EXPECT_EQ(s.model, "qwen");
  EXPECT_EQ(s.default_max_tokens, 64);
  EXPECT_TRUE(s.knobs.early_role);
  EXPECT_EQ(o->tokenizer_spec, "builtin");
  EXPECT_EQ(s.stall_timeout_ns, 250'000'000);
}

TEST(MockOptions, BadFlagsAreOneLineErrors) {
  const std::vector<std::vector<std::string>> bad = {{"--bogus"},
                                                     {"--port", "70000"},
                                                     {"--port"},
                                                     {"--threads", "0"},
                                                     {"--ttft-ms", "-1"},
                                                     {"--itl-ms", "abc"},
                                                     {"--error-rate", "101"},
                                                     {"--error-kind", "boom"},
                                                     {"--tokens-per-chunk", "0"},
                                                     {"--host", ""}};
  for (const auto& args : bad) {
    auto o = parse_mock_options(args);
    ASSERT_FALSE(o) << args[0];
    EXPECT_TRUE(o.error().is_usage());
    EXPECT_EQ(o.error().message.find('\n'), std::string::npos);
    EXPECT_NE(o.error().message.find(args[0]), std::string::npos) << o.error().message;
  }
}

TEST(MockOptions, ToolCallsCachedTokensAndPathPrefix) {
  auto o = parse_mock_options({"--tool-calls", "--cached-tokens", "7", "--path-prefix", "/proxy"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_TRUE(o->server.knobs.tool_calls);
  EXPECT_EQ(o->server.knobs.cached_tokens, 7);
  EXPECT_EQ(o->server.path_prefix, "/proxy");
  auto d = parse_mock_options({});
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->server.knobs.tool_calls);
  EXPECT_TRUE(d->server.path_prefix.empty());
  for (const std::string bad : {"proxy", "/proxy/", "/"}) {
    auto e = parse_mock_options({"--path-prefix", bad});
    ASSERT_FALSE(e) << bad;
    EXPECT_NE(e.error().message.find("--path-prefix"), std::string::npos);
  }
}

TEST(MockOptions, HelpDocumentsTheCountingRule) {
  const std::string u = mock_usage();
  EXPECT_NE(u.find("whitespace-separated words"), std::string::npos);
  EXPECT_NE(u.find("--error-kind"), std::string::npos);
  EXPECT_NE(u.find("X-Mock-Scenario"), std::string::npos);
}

}  // namespace
}  // namespace servebench::mock
