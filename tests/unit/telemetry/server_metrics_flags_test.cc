// The server-metrics flags land in BenchmarkConfig (config/flags_server_metrics.cc) and the app's
// hooks pick the scrape list from it.
#include <gtest/gtest.h>

#include "config/cli_options.h"
#include "telemetry/server_metrics_run.h"

namespace servebench::config {
namespace {

Result<ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "profile");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

TEST(ServerMetricsFlags, DefaultsAreAiperfs) {
  auto r = parse({"-m", "m"});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(r->config.server_metrics);
  EXPECT_TRUE(r->config.server_metrics_urls.empty());
  EXPECT_EQ(r->config.server_metrics_interval_ns, 333'000'000);
  EXPECT_EQ(r->config.server_metrics_formats, (std::vector<std::string>{"json", "csv"}));
}

TEST(ServerMetricsFlags, ValuesLand) {
  auto r = parse({"-m", "m", "-u", "http://h:8000", "--server-metrics", "g:9400,http://k/m", "--server-metrics",
                  "x:1", "--server-metrics-interval", "500ms", "--server-metrics-formats", "jsonl",
                  "--server-metrics-formats", "json,jsonl", "--no-server-metrics"});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_FALSE(r->config.server_metrics);
  EXPECT_EQ(r->config.server_metrics_urls, (std::vector<std::string>{"g:9400", "http://k/m", "x:1"}));
  EXPECT_EQ(r->config.server_metrics_interval_ns, 500'000'000);
  EXPECT_EQ(r->config.server_metrics_formats, (std::vector<std::string>{"jsonl", "json"}));
  telemetry::ServerMetricsConfig sm;
  sm.base_urls = r->config.urls;
  sm.extra_urls = r->config.server_metrics_urls;
  EXPECT_EQ(telemetry::scrape_urls(sm),
            (std::vector<std::string>{"http://h:8000/metrics", "http://g:9400/metrics", "http://k/m",
                                      "http://x:1/metrics"}));
}

TEST(ServerMetricsFlags, BadValuesAreOneLineUsageErrors) {
  for (const auto& [args, want] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--server-metrics-formats", "xml"}, "--server-metrics-formats 'xml' is invalid"},
           {{"--server-metrics-interval", "0.001"}, "--server-metrics-interval '0.001' is too short"},
           {{"--server-metrics-interval", "soon"}, "--server-metrics-interval"},
           {{"--server-metrics", "a b"}, "--server-metrics 'a b' is not a URL"}}) {
    std::vector<std::string> full = {"-m", "m"};
    full.insert(full.end(), args.begin(), args.end());
    auto r = parse(full);
    ASSERT_FALSE(r.has_value()) << want;
    EXPECT_TRUE(r.error().is_usage());
    EXPECT_NE(r.error().message.find(want), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace servebench::config
