#include "telemetry/server_collector.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "telemetry/server_metrics_run.h"

namespace servebench::telemetry {
namespace {

// A fake set of endpoints: url -> answer; counts calls per URL. The counter grows per call so
// snapshots differ.
struct FakeServers {
  std::mutex mu;
  std::map<std::string, ScrapeAnswer> answers;
  std::map<std::string, int> calls;
  bool counter_moves = true;

  ScrapeFetch fetch() {
    return [this](const std::string& url, int64_t) -> Result<ScrapeAnswer> {
      std::lock_guard<std::mutex> lock(mu);
      int n = ++calls[url];
      auto it = answers.find(url);
      if (it == answers.end()) return make_error(ErrorCode::kNetwork, "Couldn't connect to server");
      ScrapeAnswer a = it->second;
      if (a.body == "<counter>") {
        a.body = "# TYPE reqs_total counter\nreqs_total " + std::to_string(counter_moves ? n : 1) +
                 "\n# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total " + std::to_string(n) + "\n";
      }
      return a;
    };
  }
};

const ScrapeAnswer kProm{200, "text/plain; version=0.0.4", "<counter>"};

TEST(ServerCollector, ProbesFallsBackAndSkipsWithOneWarning) {
  FakeServers fake;
  fake.answers["http://a/metrics"] = kProm;
  fake.answers["http://b/metrics"] = {200, "application/json", "[{\"iter\":1}]"};  // TRT-LLM's JSON
  fake.answers["http://b/prometheus/metrics"] = kProm;
  fake.answers["http://c/metrics"] = {404, "text/plain", "not found"};
  fake.answers["http://d/metrics"] = {200, "text/plain", "<html>oops"};
  CollectorOptions o;
  o.urls = {"http://a/metrics", "http://b/metrics", "http://c/metrics", "http://d/metrics",
            "http://e/metrics"};
  o.interval_ns = 5'000'000;
  ServerMetricsCollector c(o, core::SteadyClock::instance(), fake.fetch());
  auto warnings = c.start();
  c.stop();
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_NE(warnings[0].find("http://c/metrics skipped (HTTP 404"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("not Prometheus text"), std::string::npos) << warnings[1];
  EXPECT_NE(warnings[2].find("Couldn't connect"), std::string::npos) << warnings[2];
  const auto& eps = c.endpoints();
  EXPECT_TRUE(eps[0].live);
  EXPECT_TRUE(eps[1].live);
  EXPECT_EQ(eps[1].url, "http://b/prometheus/metrics");
  EXPECT_FALSE(eps[2].live);
  // Skipped endpoints are probed once (and their fallback once), never again.
  EXPECT_EQ(fake.calls["http://c/metrics"], 1);
  EXPECT_EQ(fake.calls["http://c/prometheus/metrics"], 1);
  EXPECT_EQ(fake.calls["http://e/prometheus/metrics"], 0);  // no answer at all: no second probe
  EXPECT_EQ(fake.calls["http://d/prometheus/metrics"], 0);  // a 200 text body that did not parse
  EXPECT_GE(fake.calls["http://a/metrics"], 2);  // the probe and the final scrape at least
  const auto& series = c.store().series();
  ASSERT_FALSE(series.empty());
  EXPECT_EQ(series[0].v.size(), static_cast<size_t>(fake.calls["http://a/metrics"]));
}

TEST(ServerCollector, CredentialsAreUsedButNeverShown) {
  FakeServers fake;
  fake.answers["http://u:pw@a/metrics"] = kProm;
  CollectorOptions o;
  o.urls = {"http://u:pw@a/metrics", "http://u:pw@b/metrics"};
  ServerMetricsCollector c(o, core::SteadyClock::instance(), fake.fetch());
  auto warnings = c.start();
  c.stop();
  EXPECT_TRUE(c.endpoints()[0].live);  // fetched with the credentials
  EXPECT_EQ(c.endpoints()[0].url, "http://a/metrics");
  EXPECT_EQ(c.store().endpoints()[0], "http://a/metrics");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].find("pw"), std::string::npos) << warnings[0];
}

TEST(ServerCollector, SettledStopEndsWhenCountersStopMoving) {
  FakeServers fake;
  fake.answers["http://a/metrics"] = kProm;
  fake.counter_moves = false;  // process_cpu_seconds_total still moves: it must not count
  CollectorOptions o;
  o.urls = {"http://a/metrics"};
  o.interval_ns = 1'000'000'000;
  ServerMetricsCollector c(o, core::SteadyClock::instance(), fake.fetch());
  c.start();
  const int64_t now = core::SteadyClock::instance().now_ns();
  c.stop_when_settled(now + 10'000'000'000, 1'000'000);
  EXPECT_LE(fake.calls["http://a/metrics"], 4);  // probe + two settling scrapes (+ one tick at most)
  EXPECT_GE(fake.calls["http://a/metrics"], 3);
}

TEST(ServerCollector, SettledStopGivesUpAtTheDeadline) {
  FakeServers fake;
  fake.answers["http://a/metrics"] = kProm;  // the request counter moves on every scrape
  CollectorOptions o;
  o.urls = {"http://a/metrics"};
  o.interval_ns = 1'000'000'000;
  ServerMetricsCollector c(o, core::SteadyClock::instance(), fake.fetch());
  c.start();
  const int64_t now = core::SteadyClock::instance().now_ns();
  c.stop_when_settled(now + 30'000'000, 1'000'000);
  EXPECT_GE(fake.calls["http://a/metrics"], 4);
  EXPECT_LT(core::SteadyClock::instance().now_ns() - now, 2'000'000'000);
}

TEST(ServerCollector, JsonlSnapshotsCarryEndpointTimestampAndLatency) {
  FakeServers fake;
  fake.answers["http://a/metrics"] = {200, "text/plain",
                                      "# TYPE h histogram\nh_bucket{le=\"1\",x=\"y\"} 1\nh_bucket{le=\"+Inf\",x=\"y\"} 2\n"
                                      "h_sum{x=\"y\"} 3\nh_count{x=\"y\"} 2\ng 4\n"};
  const std::string path = (std::filesystem::temp_directory_path() / "sb_sm_snap.jsonl").string();
  CollectorOptions o;
  o.urls = {"http://a/metrics"};
  o.interval_ns = 1'000'000'000;
  o.jsonl_path = path;
  o.anchor = core::WallAnchor{0, 1'000'000'000'000'000'000};
  {
    ServerMetricsCollector c(o, core::SteadyClock::instance(), fake.fetch());
    c.start();
    c.stop();
    EXPECT_EQ(c.write_error(), "");
  }
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["endpoint_url"], "http://a/metrics");
    EXPECT_GT(j["timestamp_ns"].get<int64_t>(), 1'000'000'000'000'000'000);
    EXPECT_GE(j["endpoint_latency_ns"].get<int64_t>(), 0);
    EXPECT_EQ(j["metrics"]["h"][0]["histogram"]["+Inf"], 2.0);
    EXPECT_EQ(j["metrics"]["h"][0]["labels"]["x"], "y");
    EXPECT_EQ(j["metrics"]["h"][0]["sum"], 3.0);
    EXPECT_EQ(j["metrics"]["g"][0]["value"], 4.0);
    ++lines;
  }
  EXPECT_EQ(lines, fake.calls["http://a/metrics"]);
  std::filesystem::remove(path);
}

TEST(ServerCollector, UrlsAreNormalizedWithoutCredentials) {
  EXPECT_EQ(normalize_metrics_url("localhost:9400"), "http://localhost:9400/metrics");
  EXPECT_EQ(normalize_metrics_url("https://h:1/"), "https://h:1/metrics");
  EXPECT_EQ(normalize_metrics_url("http://h:1/custom/path"), "http://h:1/custom/path");
  EXPECT_EQ(prometheus_fallback_url("http://h/metrics"), "http://h/prometheus/metrics");
  EXPECT_EQ(prometheus_fallback_url("http://h/prometheus/metrics"), "");
  EXPECT_EQ(prometheus_fallback_url("http://h/stats"), "");
  EXPECT_EQ(metrics_url_for_base("http://user:pw@h:8000/v1?key=s#f"), "http://h:8000/v1/metrics");
  EXPECT_EQ(metrics_url_for_base("http://h:8000/"), "http://h:8000/metrics");
  EXPECT_EQ(redact_url("https://u:secret@h:1/metrics?token=x"), "https://h:1/metrics");
  EXPECT_EQ(redact_url("h:1/m@x"), "h:1/m@x");  // an @ in the path is not user info
  ServerMetricsConfig cfg;
  cfg.base_urls = {"http://h:8000", "http://h:8000/"};
  cfg.extra_urls = {"h:8000", "g:9400"};
  EXPECT_EQ(scrape_urls(cfg), (std::vector<std::string>{"http://h:8000/metrics", "http://g:9400/metrics"}));
}

}  // namespace
}  // namespace servebench::telemetry
