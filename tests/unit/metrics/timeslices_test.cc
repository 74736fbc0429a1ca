// Time slices carry the run's sweep curves over each slice's window (AIPerf 0.13's
// MetricsAccumulator._compute_timeslices), not curves of the slice's own records; the last
// slice's window ends at the run's end.
#include "metrics/timeslices.h"

#include <gtest/gtest.h>

#include "unit/metrics/record_fixtures.h"

namespace servebench::metrics {
namespace {

using servebench::testing::make_stream_record;
using servebench::testing::StreamSpec;

constexpr int64_t kMs = 1'000'000;

// 100 ms slices from 1000 ms over overlapping_pair() (record_fixtures.h): slice 0 holds A,
// slice 1 holds B and ends at the run's end.
std::vector<record::RequestRecord> overlapping() { return servebench::testing::overlapping_pair(); }

std::vector<TimeSlice> slices_of(const std::vector<record::RequestRecord>& recs) {
  std::vector<const record::RequestRecord*> ptrs;
  for (const auto& r : recs) ptrs.push_back(&r);
  return summarize_slices(ptrs, 100 * kMs, {});
}

double avg(const Summary& s, std::string_view tag) {
  const MetricResult* m = s.find(tag);
  EXPECT_NE(m, nullptr) << tag;
  return m ? m->stats.avg : NAN;
}

TEST(TimeSlicesTest, SweepRowsAreTheRunsCurvesOverTheSlicesWindow) {
  const auto slices = slices_of(overlapping());
  ASSERT_EQ(slices.size(), 2u);
  // Slice 0, [1000, 1100]: A alone in flight; it prefills over [1000, 1050).
  EXPECT_DOUBLE_EQ(avg(slices[0].summary, "effective_concurrency"), 1);
  EXPECT_DOUBLE_EQ(avg(slices[0].summary, "effective_prefill_concurrency"), 0.5);
  // Slice 1, [1100, 1180.3]: A, which started in slice 0, is still in flight until 1150.3, so
  // 2 requests over 50.3 ms and 1 over 30 ms (B's own records alone would give 1).
  EXPECT_DOUBLE_EQ(avg(slices[1].summary, "effective_concurrency"),
                   (2.0 * 50'300'000 + 30'000'000) / 80'300'000);
  EXPECT_DOUBLE_EQ(slices[1].summary.find("effective_concurrency")->stats.max, 2);
  // Decode follows the chunks: A's second token over [1050, 1150), B's over [1150, 1180). Slice
  // 1 sees half of A's and all of B's: 1.5 tokens over 80.3 ms, although A is not in it.
  EXPECT_NEAR(avg(slices[1].summary, "effective_decode_throughput"), 1.5 / 0.0803, 1e-6);
  // Slice 0 sees the other half of A's: 0.5 tokens over 100 ms.
  EXPECT_NEAR(avg(slices[0].summary, "effective_decode_throughput"), 5, 1e-9);
  // Active decode weighs only the time some request is in decode (first token to end): in
  // slice 0 A is from 1050 ms, so 0.5 tokens over 50 ms.
  EXPECT_NEAR(avg(slices[0].summary, "active_decode_throughput"), 10, 1e-9);
}

TEST(TimeSlicesTest, TheLastWindowEndsAtTheRunsEnd) {
  const auto slices = slices_of(overlapping());
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_TRUE(slices[0].complete);
  EXPECT_EQ(slices[0].end_ns, 1100 * kMs);
  EXPECT_FALSE(slices[1].complete);
  EXPECT_EQ(slices[1].end_ns, 1180 * kMs + 300'000);
  // Throughput divides by the clipped window: 1 request over 80.3 ms.
  EXPECT_DOUBLE_EQ(slices[1].summary.find("request_throughput")->value, 1 / 0.0803);
}

TEST(TimeSlicesTest, TheRunsEndCanComeFromAnEarlierSlice) {
  // A now ends at 1250.3 ms, after B (1180.3 ms): the last slice runs to its full end.
  auto recs = overlapping();
  StreamSpec a;
  a.start_ns = 1000 * kMs;
  a.gaps_ns = {200 * kMs};
  recs[0] = make_stream_record(0, a);
  const auto slices = slices_of(recs);
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_TRUE(slices[1].complete);
  EXPECT_EQ(slices[1].end_ns, 1200 * kMs);
  EXPECT_DOUBLE_EQ(slices[1].summary.find("request_throughput")->value, 1 / 0.1);
  // A in flight over the whole slice, B over [1100, 1180.3).
  EXPECT_DOUBLE_EQ(avg(slices[1].summary, "effective_concurrency"),
                   (100'000'000.0 + 80'300'000) / 100'000'000);
}

TEST(TimeSlicesTest, EverySliceHasEverySweepRow) {
  const auto slices = slices_of(overlapping());
  for (const TimeSlice& s : slices) {
    size_t sweep_rows = 0;
    for (const MetricResult& m : s.summary.metrics) sweep_rows += is_sweep_row(*m.info);
    EXPECT_EQ(sweep_rows, 14u) << s.index;
  }
}

}  // namespace
}  // namespace servebench::metrics
