#include "telemetry/server_stats.h"

#include <cmath>

#include <gtest/gtest.h>

#include "telemetry/prometheus_text.h"

namespace servebench::telemetry {
namespace {

constexpr int64_t kS = 1'000'000'000;

std::vector<prom::Family> parse(const std::string& text) {
  auto r = prom::parse_exposition(text, prom::Format::kPrometheusText);
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r ? *r : std::vector<prom::Family>{};
}

std::string exposition(double running, double tokens, double c1, double c2, double cinf, double sum) {
  return "# TYPE q gauge\nq{m=\"a\"} " + std::to_string(running) +
         "\n# TYPE tok_total counter\ntok_total " + std::to_string(tokens) +
         "\n# TYPE tok_created gauge\ntok_created 1.7e9\n"
         "# TYPE lat_seconds histogram\n"
         "lat_seconds_bucket{le=\"0.1\"} " + std::to_string(c1) + "\nlat_seconds_bucket{le=\"1\"} " +
         std::to_string(c2) + "\nlat_seconds_bucket{le=\"+Inf\"} " + std::to_string(cinf) +
         "\nlat_seconds_sum " + std::to_string(sum) + "\nlat_seconds_count " + std::to_string(cinf) +
         "\n# TYPE s summary\ns{quantile=\"0.5\"} 1\ns_sum 1\ns_count 1\n";
}

const SeriesReport* find(const ServerReport& r, const std::string& metric) {
  for (const auto& s : r.series) {
    if (s.metric == metric) return &s;
  }
  return nullptr;
}

TEST(ServerStats, GaugeStatsUseSamplesInsideTheWindow) {
  std::vector<int64_t> t = {0, 1, 2, 3, 4, 5};
  std::vector<double> v = {100, 1, 2, 3, 4, 100};
  auto g = gauge_stats(t, v, 1, 4);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->samples, 4);
  EXPECT_DOUBLE_EQ(g->avg, 2.5);
  EXPECT_EQ(g->min, 1);
  EXPECT_EQ(g->max, 4);
  EXPECT_NEAR(g->std, std::sqrt(5.0 / 3.0), 1e-12);  // ddof = 1
  EXPECT_DOUBLE_EQ(g->p[4], 2.5);                    // p50, linear
  EXPECT_DOUBLE_EQ(g->p[8], 3.97);                   // p99
  EXPECT_FALSE(gauge_stats(t, v, 6, 9).has_value());
}

TEST(ServerStats, CounterIncreaseIsResetAware) {
  std::vector<int64_t> t = {0, 10, 20, 30, 40};
  EXPECT_EQ(*counter_increase(t, {5, 8, 12, 3, 7}, 10, 40), 4 + 3 + 4);  // 12 -> 3 restarted
  EXPECT_EQ(*counter_increase(t, {5, 8, 12, 13, 20}, 15, 30), 5);        // baseline = t 10
  EXPECT_EQ(*counter_increase(t, {5, 8, 12, 13, 20}, -5, 100), 15);      // baseline = first
  EXPECT_FALSE(counter_increase(t, {5, 8, 12, 13, 20}, 0, -1).has_value());
}

TEST(ServerStats, PointToPointCounterRates) {
  CounterStats c;
  // 0 s: 10, 1 s: 20 (+10/s), 3 s: 30 (+5/s), 4 s: 4 (restart: +4/s)
  add_point_rates({0, 1 * kS, 3 * kS, 4 * kS}, {10, 20, 30, 4}, 0, INT64_MAX, &c);
  ASSERT_TRUE(c.has_rates);
  EXPECT_DOUBLE_EQ(c.rate_avg, 24.0 / 4);
  EXPECT_DOUBLE_EQ(c.rate_min, 4);
  EXPECT_DOUBLE_EQ(c.rate_max, 10);
  EXPECT_NEAR(c.rate_std, std::sqrt(((10 - 19.0 / 3) * (10 - 19.0 / 3) + (5 - 19.0 / 3) * (5 - 19.0 / 3) +
                                     (4 - 19.0 / 3) * (4 - 19.0 / 3)) / 2),
              1e-12);
  CounterStats one;
  add_point_rates({0}, {1}, 0, INT64_MAX, &one);
  EXPECT_FALSE(one.has_rates);
}

TEST(ServerStats, QuantileInterpolatesInsideTheBucket) {
  const double inf = INFINITY;
  std::vector<double> les = {0.1, 1, inf};
  std::vector<double> cum = {10, 30, 40};
  EXPECT_DOUBLE_EQ(estimate_quantile(0.125, les, cum), 0.05);  // rank 5 of 10 in [0, 0.1]
  EXPECT_DOUBLE_EQ(estimate_quantile(0.5, les, cum), 0.55);    // rank 20: halfway in (0.1, 1]
  EXPECT_DOUBLE_EQ(estimate_quantile(0.99, les, cum), 1.0);    // +Inf bucket: highest finite bound
  EXPECT_TRUE(std::isnan(estimate_quantile(0.5, les, {0, 0, 0})));
}

TEST(ServerStats, ReportOverTheProfilingWindow) {
  SeriesStore store;
  int e = store.add_endpoint("http://h/metrics");
  store.add_scrape(e, 0, parse(exposition(1, 100, 0, 0, 0, 0)));           // before the load
  store.add_scrape(e, 1 * kS, parse(exposition(3, 150, 5, 8, 10, 4.0)));   // t0 = 0.5 s
  store.add_scrape(e, 2 * kS, parse(exposition(5, 180, 10, 18, 20, 9.0)));
  store.add_scrape(e, 4 * kS, parse(exposition(0, 200, 10, 20, 20, 9.5)));  // after the end
  ServerReport r = build_report(store, Window{kS / 2, 2 * kS + kS / 2, INT64_MAX}, 0);
  EXPECT_EQ(r.unsupported, std::vector<std::string>{"s"});
  EXPECT_EQ(find(r, "tok_created"), nullptr);
  const SeriesReport* q = find(r, "q");
  ASSERT_NE(q, nullptr);
  ASSERT_TRUE(q->gauge.has_value());
  EXPECT_EQ(q->gauge->samples, 2);  // the 1 s and 2 s scrapes
  EXPECT_DOUBLE_EQ(q->gauge->avg, 4);
  EXPECT_EQ(q->labels[0].second, "a");
  const SeriesReport* tok = find(r, "tok");  // the export key has no _total
  ASSERT_NE(tok, nullptr);
  ASSERT_TRUE(tok->counter.has_value());
  EXPECT_DOUBLE_EQ(tok->counter->total, 100);  // 100 at the baseline, 200 at the final scrape
  EXPECT_DOUBLE_EQ(tok->counter->rate, 50);    // over the 2 s window
  const SeriesReport* lat = find(r, "lat_seconds");
  ASSERT_NE(lat, nullptr);
  ASSERT_TRUE(lat->histogram.has_value());
  EXPECT_DOUBLE_EQ(lat->histogram->count, 20);
  EXPECT_DOUBLE_EQ(lat->histogram->sum, 9.5);
  EXPECT_DOUBLE_EQ(lat->histogram->avg, 9.5 / 20);
  ASSERT_EQ(lat->histogram->buckets.size(), 3u);
  EXPECT_EQ(lat->histogram->buckets[0], (std::pair<std::string, double>{"0.1", 10}));
  EXPECT_TRUE(lat->histogram->has_estimate);
  EXPECT_DOUBLE_EQ(lat->histogram->p_estimate[4], 0.1);  // rank 10 = the 0.1 bucket's top
  auto merged = merge_histograms(r, "lat_seconds");
  ASSERT_TRUE(merged.has_value());
  EXPECT_DOUBLE_EQ(merged->count, 20);
}

TEST(ServerStats, TimeSlicesCutTheWindow) {
  SeriesStore store;
  int e = store.add_endpoint("http://h/metrics");
  for (int i = 0; i <= 4; ++i) store.add_scrape(e, i * kS, parse(exposition(i, 10.0 * i, 0, 0, i, i)));
  ServerReport r = build_report(store, Window{0, 3 * kS + kS / 2, INT64_MAX}, kS);
  const SeriesReport* tok = find(r, "tok");
  ASSERT_NE(tok, nullptr);
  ASSERT_EQ(tok->slices.size(), 4u);
  EXPECT_TRUE(tok->slices[0].complete);
  EXPECT_FALSE(tok->slices[3].complete);  // 3 s .. 3.5 s
  EXPECT_DOUBLE_EQ(tok->slices[1].counter->total, 10);
  EXPECT_DOUBLE_EQ(tok->slices[3].counter->total, 0);
  const SeriesReport* q = find(r, "q");
  ASSERT_NE(q, nullptr);
  EXPECT_DOUBLE_EQ(q->slices[3].gauge->avg, 3);  // no scrape inside: the last value holds
  const SeriesReport* lat = find(r, "lat_seconds");
  ASSERT_NE(lat, nullptr);
  ASSERT_EQ(lat->slices.size(), 4u);
  EXPECT_DOUBLE_EQ(lat->slices[2].histogram->count, 1);
}

}  // namespace
}  // namespace servebench::telemetry
