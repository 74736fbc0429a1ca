// The time-weighted sweep rows (effective_*, active_*, tokens_in_flight) for two requests whose
// curves are worked out by hand.
#include "metrics/sweep_rows.h"

#include <cmath>

#include <gtest/gtest.h>

#include "unit/metrics/record_fixtures.h"

namespace servebench::metrics {
namespace {

using servebench::testing::make_stream_record;
using servebench::testing::StreamSpec;

// Window [0, 100] ns (the times are relative to the window start, so any origin gives the same:
// the test below shifts them by 1.7e18 ns).
// A: start 0, first token 10, end 50, ISL 100, OSL 21 → prefill 10 tok/ns over [0, 10),
//    decode 20 / 40 = 0.5 tok/ns over [10, 50).
// B: start 20, first token 40, end 60, ISL 40, OSL 11 → prefill 2 tok/ns over [20, 40),
//    decode 10 / 20 = 0.5 tok/ns over [40, 60).
// Nothing runs over [60, 100].
// Without inter-chunk gaps the curves are request-level.
SweepData two() {
  SweepData d;
  d.records = {{0, 10, 50, 100, 21}, {20, 40, 60, 40, 11}};
  return d;
}

const MetricResult* find(const std::vector<MetricResult>& v, std::string_view tag) {
  for (const auto& m : v) {
    if (m.tag() == tag) return &m;
  }
  return nullptr;
}

std::vector<MetricResult> rows() {
  std::vector<MetricResult> out;
  append_sweep_rows(two(), 0, 100, &out);
  return out;
}

TEST(SweepRowsTest, ConcurrencyIsTimeWeightedOverTheWindow) {
  const auto out = rows();
  const auto* c = find(out, "effective_concurrency");
  ASSERT_NE(c, nullptr);
  // 1 over [0,20), 2 over [20,50), 1 over [50,60), 0 over [60,100]: (20 + 60 + 10) / 100.
  EXPECT_DOUBLE_EQ(c->stats.avg, 0.9);
  EXPECT_DOUBLE_EQ(c->stats.min, 0);
  EXPECT_DOUBLE_EQ(c->stats.max, 2);
  // Sorted by value: 0 for 40 % of the time, 1 for 30 %, 2 for 30 %.
  EXPECT_DOUBLE_EQ(c->stats.p[4], 1);  // p50
  EXPECT_DOUBLE_EQ(c->stats.p[6], 2);  // p90
  EXPECT_TRUE(std::isnan(c->stats.p[0]));  // p1 is not a sweep statistic
  // std: sqrt((40·0.81 + 30·0.01 + 30·1.21) / 100).
  EXPECT_NEAR(c->stats.std, std::sqrt((40 * 0.81 + 30 * 0.01 + 30 * 1.21) / 100), 1e-12);
  EXPECT_EQ(c->info->group, ConsoleGroup::kEffective);
}

TEST(SweepRowsTest, PhaseConcurrenciesAndThroughputs) {
  const auto out = rows();
  // Decode: A over [10,50), B over [40,60) → 1·30 + 2·10 + 1·10 = 60 → 0.6.
  EXPECT_DOUBLE_EQ(find(out, "effective_decode_concurrency")->stats.avg, 0.6);
  // Prefill: A over [0,10), B over [20,40) → 30 → 0.3.
  EXPECT_DOUBLE_EQ(find(out, "effective_prefill_concurrency")->stats.avg, 0.3);
  // Decode tokens: 20 + 10 = 30 over 100 ns → 0.3 tok/ns = 3e8 tok/s.
  EXPECT_NEAR(find(out, "effective_decode_throughput")->stats.avg, 3e8, 1);
  // Prefill tokens: 100 + 40 over 100 ns → 1.4e9 tok/s; total 1.7e9.
  EXPECT_NEAR(find(out, "effective_prefill_throughput")->stats.avg, 1.4e9, 1);
  EXPECT_NEAR(find(out, "effective_total_throughput")->stats.avg, 1.7e9, 1);
  // Per user while decoding: 0.5 tok/ns whenever anyone decodes (both at 0.5), else 0:
  // 0.5 over 50 ns of 100 → 0.25 tok/ns.
  EXPECT_NEAR(find(out, "effective_decode_throughput_per_user")->stats.avg, 2.5e8, 1);
  // Active: only the 50 ns with a decoder count → 0.5 tok/ns per user; the decode rate is
  // 0.5 over 40 ns and 1.0 over 10 ns → (20 + 10) / 50 = 0.6 tok/ns.
  EXPECT_NEAR(find(out, "active_decode_throughput_per_user")->stats.avg, 5e8, 1);
  EXPECT_NEAR(find(out, "active_decode_throughput")->stats.avg, 6e8, 1);
  // Active prefill: 10 tok/ns over 10 ns, 2 over 20 → 140 / 30 tok/ns.
  EXPECT_NEAR(find(out, "active_prefill_throughput")->stats.avg, 140.0 / 30 * 1e9, 1);
  // AIPerf's "Active" console table, not hidden.
  for (const char* tag : {"active_decode_throughput", "active_prefill_throughput",
                          "active_decode_throughput_per_user",
                          "active_prefill_throughput_per_user", "active_total_throughput"}) {
    EXPECT_EQ(find(out, tag)->info->group, ConsoleGroup::kActive) << tag;
    EXPECT_FALSE(find(out, tag)->info->has(kNoConsole)) << tag;
  }
}

TEST(SweepRowsTest, TokensInFlightHoldInputThenOutput) {
  const auto out = rows();
  // A: 100 over [0,50) plus 21 over [10,50); B: 40 over [20,60) plus 11 over [40,60).
  // Area: 100·50 + 21·40 + 40·40 + 11·20 = 5000 + 840 + 1600 + 220 = 7660 → avg 76.6.
  const auto* t = find(out, "tokens_in_flight");
  EXPECT_DOUBLE_EQ(t->stats.avg, 76.6);
  EXPECT_DOUBLE_EQ(t->stats.max, 172);  // [40,50): 121 + 51
}

TEST(SweepRowsTest, NonStreamedRequestsOnlyHaveConcurrency) {
  SweepData recs;
  recs.records = {{1, 0, 50, 100, 21}};  // no first token
  std::vector<MetricResult> out;
  append_sweep_rows(recs, 0, 100, &out);
  EXPECT_DOUBLE_EQ(find(out, "effective_concurrency")->stats.avg, 0.49);
  EXPECT_DOUBLE_EQ(find(out, "effective_decode_throughput")->stats.avg, 0);
  EXPECT_DOUBLE_EQ(find(out, "active_decode_throughput")->stats.max, 0);
}

TEST(SweepRowsTest, EpochSizedTimesGiveTheSameCurves) {
  auto recs = two();
  const int64_t epoch = 1'700'000'000'000'000'001;
  for (auto& r : recs.records) {
    r.start_ns += epoch;
    r.first_ns += epoch;
    r.end_ns += epoch;
  }
  std::vector<MetricResult> out;
  append_sweep_rows(recs, epoch, epoch + 100, &out);
  EXPECT_DOUBLE_EQ(find(out, "effective_concurrency")->stats.avg, 0.9);
  EXPECT_NEAR(find(out, "effective_decode_throughput")->stats.avg, 3e8, 1);
  EXPECT_DOUBLE_EQ(find(out, "tokens_in_flight")->stats.avg, 76.6);
}

// A alone, with chunks at 10, 20, 20 and 40 ns (gaps 10, 0, 20): its 20 tokens after the first
// go 10 per non-zero gap, so it decodes at 1 tok/ns over [10,20) and 0.5 over [20,40), and its
// output in flight grows 1 at 10, then 20/3 at each later chunk.
TEST(SweepRowsTest, DecodeAndTokensInFlightFollowTheChunks) {
  SweepData d;
  d.records = {{0, 10, 50, 100, 21, 0, 3}};
  d.gaps = {10, 0, 20};
  std::vector<MetricResult> out;
  append_sweep_rows(d, 0, 100, &out);
  const auto* dec = find(out, "effective_decode_throughput");
  EXPECT_NEAR(dec->stats.avg, 2e8, 1);  // 20 tokens over 100 ns
  EXPECT_NEAR(dec->stats.max, 1e9, 1);
  EXPECT_NEAR(find(out, "active_decode_throughput")->stats.avg, 20.0 / 40 * 1e9, 1);
  // Total keeps the request-level decode: 20 tokens over [10,50) plus 100 prefill tokens.
  EXPECT_NEAR(find(out, "effective_total_throughput")->stats.max, 10e9 , 1);
  EXPECT_NEAR(find(out, "effective_total_throughput")->stats.avg, 1.2e9, 1);
  // [0,10) 100, [10,20) 101, [20,40) 101 + 40/3, [40,50) 121.
  const double area = 1000 + 1010 + 20 * (101 + 40.0 / 3) + 1210;
  EXPECT_NEAR(find(out, "tokens_in_flight")->stats.avg, area / 100, 1e-9);
  EXPECT_DOUBLE_EQ(find(out, "tokens_in_flight")->stats.max, 121);
}

TEST(SweepRowsTest, GapsPastTheBoundFallBackToRequestLevel) {
  StreamSpec s;
  s.gaps_ns = {1000, 1000, 1000};
  const auto r = make_stream_record(0, s);
  SweepData d;
  d.gap_limit = 2;
  d.add(r, record_facts(r, core::kTextGenerationCaps));
  EXPECT_FALSE(d.per_chunk);
  EXPECT_TRUE(d.gaps.empty());
  SweepData e;
  e.add(r, record_facts(r, core::kTextGenerationCaps));
  EXPECT_TRUE(e.per_chunk);
  EXPECT_EQ(e.gaps, (std::vector<double>{1000, 1000, 1000}));
  EXPECT_EQ(e.records[0].gap_count, 3u);
}

// Windows of the curves of two() (AIPerf's compute_metrics(window_start, window_end)): the
// value held at the window start comes from before it.
std::vector<MetricResult> window(int64_t origin, int64_t ws, int64_t we) {
  std::vector<MetricResult> out;
  SweepCurves(two(), origin).append_rows(ws, we, &out);
  return out;
}

TEST(SweepRowsTest, AWindowSeesRequestsInFlightAcrossItsStart) {
  // [40, 70]: A and B in flight over [40,50), B alone over [50,60), none over [60,70].
  const auto out = window(0, 40, 70);
  const auto* c = find(out, "effective_concurrency");
  EXPECT_DOUBLE_EQ(c->stats.avg, (2 * 10 + 1 * 10) / 30.0);
  EXPECT_DOUBLE_EQ(c->stats.min, 0);
  EXPECT_DOUBLE_EQ(c->stats.max, 2);
  EXPECT_DOUBLE_EQ(c->stats.p[4], 1);  // 0, 1, 2 for a third of the window each
  // Both decode over [40,50) (0.5 tok/ns each), B over [50,60) → 15 tokens over 30 ns.
  EXPECT_NEAR(find(out, "effective_decode_throughput")->stats.avg, 0.5e9, 1);
  // Active decode: only the 20 ns with a decoder → 15 / 20 tok/ns.
  EXPECT_NEAR(find(out, "active_decode_throughput")->stats.avg, 0.75e9, 1);
  // Tokens: [40,50) 121 + 51, [50,60) 51, then 0 → (1720 + 510) / 30.
  EXPECT_DOUBLE_EQ(find(out, "tokens_in_flight")->stats.avg, 2230.0 / 30);
}

TEST(SweepRowsTest, AWindowInsideBothPrefills) {
  // [5, 30]: A prefills over [5,10) at 10 tok/ns, B over [20,30) at 2 tok/ns; in flight: A over
  // the whole window, B from 20.
  const auto out = window(0, 5, 30);
  EXPECT_DOUBLE_EQ(find(out, "effective_concurrency")->stats.avg, (15 + 2 * 10) / 25.0);
  EXPECT_DOUBLE_EQ(find(out, "effective_prefill_concurrency")->stats.avg, 15 / 25.0);
  EXPECT_NEAR(find(out, "effective_prefill_throughput")->stats.avg, 70.0 / 25 * 1e9, 1);
  EXPECT_NEAR(find(out, "active_prefill_throughput")->stats.avg, 70.0 / 15 * 1e9, 1);
  EXPECT_NEAR(find(out, "active_prefill_throughput")->stats.min, 2e9, 1);
  EXPECT_NEAR(find(out, "active_prefill_throughput")->stats.max, 10e9, 1);
}

TEST(SweepRowsTest, WindowsDoNotDependOnTheCurvesOrigin) {
  const auto a = window(0, 40, 70), b = window(-1'000'000'007, 40, 70);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].tag(), b[i].tag());
    EXPECT_EQ(a[i].stats.avg, b[i].stats.avg) << a[i].tag();
    EXPECT_EQ(a[i].stats.p[8], b[i].stats.p[8]) << a[i].tag();
  }
  // The whole window equals append_sweep_rows over it.
  const auto whole = window(-5, 0, 100);
  const auto direct = rows();
  ASSERT_EQ(whole.size(), direct.size());
  for (size_t i = 0; i < whole.size(); ++i) EXPECT_EQ(whole[i].stats.avg, direct[i].stats.avg);
}

TEST(SweepRowsTest, WindowsSplitTheArea) {
  // Averages over adjacent windows, weighted by their lengths, give the whole window's.
  const double whole = find(rows(), "effective_total_throughput")->stats.avg;
  const double a = find(window(0, 0, 35), "effective_total_throughput")->stats.avg;
  const double b = find(window(0, 35, 100), "effective_total_throughput")->stats.avg;
  EXPECT_NEAR((a * 35 + b * 65) / 100, whole, 1e-3);
}

// A time slice's summary has no sweep rows of its own (SummaryOptions::sweep_rows = false); its
// window of the run's curves is appended after its other rows.
TEST(SweepRowsTest, WindowRowsFollowTheOtherRows) {
  std::vector<MetricResult> out;
  MetricResult other;
  other.info = find_metric("request_latency");
  out.push_back(other);
  SweepCurves(two(), 0).append_rows(40, 70, &out);
  ASSERT_EQ(out.size(), rows().size() + 1);
  EXPECT_EQ(out[0].tag(), "request_latency");
  EXPECT_FALSE(is_sweep_row(*out[0].info));
  EXPECT_TRUE(is_sweep_row(*find(out, "tokens_in_flight")->info));
  EXPECT_DOUBLE_EQ(find(out, "effective_concurrency")->stats.avg, 1);
}

TEST(SweepRowsTest, NothingWithoutRecordsOrWindow) {
  std::vector<MetricResult> out;
  append_sweep_rows(SweepData{}, 0, 100, &out);
  EXPECT_TRUE(out.empty());
  append_sweep_rows(two(), 100, 100, &out);
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(SweepCurves(SweepData{}, 0).has_records());
  SweepCurves(two(), 0).append_rows(50, 40, &out);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace servebench::metrics
