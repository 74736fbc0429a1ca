#include "report_html/time_series.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "report_html/distributions.h"

namespace servebench::report_html {
namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr int64_t kMs = 1'000'000;

// A request: start and end (ms after kT0), first token, error kind.
void add(RequestColumns* c, double start_ms, double end_ms, double ttft_ms,
         record::ErrorKind err = record::ErrorKind::kNone, int64_t tokens = 0,
         double intended_ms = -1) {
  c->start_ns.push_back(kT0 + static_cast<int64_t>(start_ms * kMs));
  c->intended_ns.push_back(intended_ms < 0 ? 0 : kT0 + static_cast<int64_t>(intended_ms * kMs));
  c->end_ns.push_back(kT0 + static_cast<int64_t>(end_ms * kMs));
  c->first_ns.push_back(ttft_ms < 0 ? 0 : c->start_ns.back() + static_cast<int64_t>(ttft_ms * kMs));
  c->error.push_back(static_cast<uint8_t>(err));
  c->dropped.push_back(0);
  for (size_t i = 0; i < kNumColumnMetrics; ++i) c->values[i].push_back(NAN);
  const bool ok = err == record::ErrorKind::kNone;
  c->values[column_index(metrics::RecordMetric::kTtft)].back() = ok ? ttft_ms : NAN;
  c->values[column_index(metrics::RecordMetric::kRequestLatency)].back() = ok ? end_ms - start_ms : NAN;
  if (intended_ms >= 0)
    c->values[column_index(metrics::RecordMetric::kScheduleLag)].back() = start_ms - intended_ms;
  if (tokens > 0) c->tokens_by_bucket[c->end_ns.back() / kTokenBucketNs] += tokens;
}

TEST(PickBin, RoundWidthsNearTheTargetCount) {
  EXPECT_DOUBLE_EQ(pick_bin_seconds(1.0), 0.01);
  EXPECT_DOUBLE_EQ(pick_bin_seconds(10.0), 0.05);
  EXPECT_DOUBLE_EQ(pick_bin_seconds(200.0), 1);
  EXPECT_DOUBLE_EQ(pick_bin_seconds(3600.0), 30);
  EXPECT_LE(3600.0 / pick_bin_seconds(3600.0), kTargetBins);
}

TEST(TimeSeries, CountsSendsCompletionsTokensAndErrorsPerBin) {
  RequestColumns c;
  // 200 s run: 1 s bins. Two requests per second for 100 s, 500 ms each, 10 tokens each;
  // every 10th fails with a timeout.
  for (int s = 0; s < 100; ++s) {
    for (int k = 0; k < 2; ++k) {
      const double start = s * 1000.0 + k * 400.0;
      const bool fail = (s * 2 + k) % 10 == 9;
      add(&c, start, start + 500, 50, fail ? record::ErrorKind::kTimeout : record::ErrorKind::kNone,
          fail ? 0 : 10, start - 2);
    }
  }
  add(&c, 199'000, 199'500, 50);  // the run lasts 199.5 s
  const TimeSeries ts = make_time_series(c);
  ASSERT_DOUBLE_EQ(ts.bin_s, 1.0);
  ASSERT_EQ(ts.t_s.size(), 200u);
  EXPECT_EQ(ts.origin_ns, kT0);
  const double sends = std::accumulate(ts.sends_per_s.begin(), ts.sends_per_s.end(), 0.0);
  EXPECT_DOUBLE_EQ(sends, 201);  // every request, in requests/s x 1 s bins
  EXPECT_DOUBLE_EQ(ts.sends_per_s[5], 2);
  EXPECT_DOUBLE_EQ(std::accumulate(ts.completions_per_s.begin(), ts.completions_per_s.end(), 0.0), 181);
  EXPECT_DOUBLE_EQ(std::accumulate(ts.output_tokens_per_s.begin(), ts.output_tokens_per_s.end(), 0.0), 1800);
  ASSERT_EQ(ts.errors.count("timeout"), 1u);
  EXPECT_EQ(std::accumulate(ts.errors.at("timeout").begin(), ts.errors.at("timeout").end(), int64_t{0}), 20);
  // Concurrency: 2 x 0.5 s of requests per 1 s bin = 1 in flight on average.
  EXPECT_NEAR(ts.concurrency[10], 1.0, 1e-9);
  EXPECT_NEAR(ts.concurrency[150], 0.0, 1e-9);
  // Bands: every TTFT is 50 ms; lag is 2 ms by intended time.
  EXPECT_DOUBLE_EQ(ts.ttft_ms.p50[10], 50);
  EXPECT_TRUE(std::isnan(ts.ttft_ms.p50[150]));
  EXPECT_DOUBLE_EQ(ts.lag_ms.p99[10], 2);
  EXPECT_DOUBLE_EQ(ts.intended_per_s[10], 2);
}

// The bands' percentiles by selection are those of a full sort, bin by bin, for bins of 1 to 101
// values with ties.
TEST(TimeSeries, BandsAreTheSortedValuesPercentiles) {
  RequestColumns c;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> ttft(1, 400);  // whole ms: ties are common
  const int counts[] = {1, 2, 3, 4, 7, 10, 33, 100, 101};
  std::vector<std::vector<double>> want(200);
  for (int s = 0; s < 200; ++s) {
    const int n = counts[s % std::size(counts)];
    for (int k = 0; k < n; ++k) {
      const double start = s * 1000.0 + 1 + k * 0.5;
      const double t = ttft(rng);
      add(&c, start, start + 450, t);
      want[static_cast<size_t>(s)].push_back(t);
    }
  }
  const TimeSeries ts = make_time_series(c);
  ASSERT_DOUBLE_EQ(ts.bin_s, 1.0);
  ASSERT_EQ(ts.ttft_ms.p50.size(), 200u);
  for (size_t b = 0; b < 200; ++b) {
    std::vector<double> sorted = want[b];
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(ts.ttft_ms.p10[b], percentile_of_sorted(sorted, 10)) << b;
    EXPECT_EQ(ts.ttft_ms.p50[b], percentile_of_sorted(sorted, 50)) << b;
    EXPECT_EQ(ts.ttft_ms.p90[b], percentile_of_sorted(sorted, 90)) << b;
    EXPECT_EQ(ts.ttft_ms.p99[b], percentile_of_sorted(sorted, 99)) << b;
    EXPECT_EQ(ts.ttft_ms.max[b], sorted.back()) << b;
  }
}

TEST(TimeSeries, ConcurrencyOfRequestsSpanningManyBins) {
  RequestColumns c;
  add(&c, 0, 100'000, 10);  // 100 s long: 0.5 s bins
  add(&c, 0, 100'000, 10);
  add(&c, 25'250, 75'250, 10);
  const TimeSeries ts = make_time_series(c);
  ASSERT_DOUBLE_EQ(ts.bin_s, 0.5);
  EXPECT_NEAR(ts.concurrency[10], 2.0, 1e-9);
  EXPECT_NEAR(ts.concurrency[50], 2.5, 1e-9);  // the third starts half-way through bin 50
  EXPECT_NEAR(ts.concurrency[60], 3.0, 1e-9);
  EXPECT_NEAR(ts.concurrency[150], 2.5, 1e-9);
  // The time integral of concurrency is the sum of durations.
  const double area = std::accumulate(ts.concurrency.begin(), ts.concurrency.end(), 0.0) * ts.bin_s;
  EXPECT_NEAR(area, 250.0, 1e-6);
  EXPECT_TRUE(ts.intended_per_s.empty());
}

TEST(TimeSeries, EmptyColumnsGiveNoBins) {
  EXPECT_TRUE(make_time_series(RequestColumns{}).t_s.empty());
}

}  // namespace
}  // namespace servebench::report_html
