// summarize(): aggregates, derived metrics, adj_*, goodput, extras, order independence.
#include "metrics/summary.h"

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "metrics/timeslices.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::metrics {
namespace {

using record::ErrorKind;
using record::RequestRecord;
using servebench::testing::make_error_record;
using servebench::testing::make_stream_record;
using servebench::testing::StreamSpec;

constexpr int64_t kMs = 1'000'000;

std::vector<const RequestRecord*> ptrs(const std::vector<RequestRecord>& v) {
  std::vector<const RequestRecord*> out;
  for (const auto& r : v) out.push_back(&r);
  return out;
}

double val(const Summary& s, const char* tag, const char* stat = "avg") {
  double v = NAN;
  EXPECT_TRUE(s.lookup(tag, stat, &v)) << tag << "." << stat;
  return v;
}

// Three successes: starts at 0, 100, 200 ms (+1 s), TTFT 10/20/30 ms, 3 chunks 5 ms apart.
std::vector<RequestRecord> three_ok() {
  std::vector<RequestRecord> v;
  for (int i = 0; i < 3; ++i) {
    StreamSpec s;
    s.start_ns = 1000 * kMs + i * 100 * kMs;
    s.intended_ns = s.start_ns;
    s.ttft_ns = (i + 1) * 10 * kMs;
    s.gaps_ns = {5 * kMs, 5 * kMs};
    s.input_tokens = 100;
    v.push_back(make_stream_record(i, s));
  }
  return v;
}

TEST(SummaryTest, CountsDurationAndThroughputs) {
  auto recs = three_ok();
  Summary s = summarize(ptrs(recs), {});
  EXPECT_EQ(s.request_count, 3);
  EXPECT_EQ(s.error_request_count, 0);
  // Duration: last content of request 2 = 1200 + 30 + 10 ms; first start 1000 ms → 240 ms.
  EXPECT_DOUBLE_EQ(val(s, "benchmark_duration"), 0.240);
  EXPECT_DOUBLE_EQ(val(s, "request_throughput"), 3 / 0.240);
  EXPECT_DOUBLE_EQ(val(s, "output_token_throughput"), 9 / 0.240);
  EXPECT_DOUBLE_EQ(val(s, "input_token_throughput"), 300 / 0.240);
  EXPECT_DOUBLE_EQ(val(s, "total_token_throughput"), 309 / 0.240);
  EXPECT_DOUBLE_EQ(val(s, "request_error_rate"), 0);
  EXPECT_DOUBLE_EQ(val(s, "total_osl"), 9);
  EXPECT_DOUBLE_EQ(val(s, "time_to_first_token", "p50"), 20);
  EXPECT_DOUBLE_EQ(val(s, "time_to_first_token", "avg"), 20);
  EXPECT_DOUBLE_EQ(val(s, "inter_token_latency", "avg"), 5);
  EXPECT_EQ(s.find("error_request_count"), nullptr);
  EXPECT_EQ(s.find("adj_request_latency"), nullptr);  // only when requests failed
  EXPECT_EQ(s.find("goodput"), nullptr);              // only with --goodput
}

TEST(SummaryTest, RateCancellationsAreErrorsGraceCancellationsAreDropped) {
  auto recs = three_ok();
  auto rate = make_error_record(3, 1050 * kMs, ErrorKind::kCancelled, 200, "cancelled by --request-cancellation-rate");
  rate.cancel_reason = record::CancelReason::kRate;
  recs.push_back(rate);
  auto grace = make_error_record(4, 1060 * kMs, ErrorKind::kCancelled, 0, "grace");
  grace.cancel_reason = record::CancelReason::kGrace;
  recs.push_back(grace);
  auto interrupted = make_error_record(5, 1070 * kMs, ErrorKind::kCancelled, 0, "ctrl-c");
  interrupted.cancel_reason = record::CancelReason::kInterrupt;
  recs.push_back(interrupted);
  Summary s = summarize(ptrs(recs), {});
  EXPECT_EQ(s.request_count, 3);
  EXPECT_EQ(s.error_request_count, 1);
  EXPECT_EQ(s.extras.cancelled_request_count, 2);
  ASSERT_EQ(s.error_summary.size(), 1u);
  EXPECT_EQ(s.error_summary[0].code, 499);
  EXPECT_EQ(s.error_summary[0].type, "cancelled");
}

TEST(SummaryTest, ErrorsGiveAdjAndErrorRate) {
  auto recs = three_ok();
  recs.push_back(make_error_record(3, 1050 * kMs, ErrorKind::kHttpStatus, 503, "busy"));
  recs.push_back(make_error_record(4, 1060 * kMs, ErrorKind::kCancelled, 0, "grace"));
  Summary s = summarize(ptrs(recs), {});
  EXPECT_EQ(s.request_count, 3);
  EXPECT_EQ(s.error_request_count, 1);
  EXPECT_EQ(s.extras.cancelled_request_count, 1);
  EXPECT_DOUBLE_EQ(val(s, "request_error_rate"), 25);
  EXPECT_DOUBLE_EQ(val(s, "error_request_count"), 1);
  const MetricResult* adj = s.find("adj_time_to_first_token");
  ASSERT_NE(adj, nullptr);
  EXPECT_EQ(adj->stats.count, 4);
  EXPECT_TRUE(std::isinf(adj->stats.avg));
  EXPECT_FALSE(adj->stats.has_std);
  // sorted [10, 20, 30, inf] ms, nearest: p50 h=1.5 → 2 → 30 ms; p99 → inf; p25 h=.75 → 20.
  EXPECT_DOUBLE_EQ(adj->stats.p[4], 30 * kMs);
  EXPECT_DOUBLE_EQ(adj->stats.p[3], 20 * kMs);
  EXPECT_TRUE(std::isinf(adj->stats.p[8]));
  EXPECT_NE(s.find("adj_request_latency"), nullptr);
  EXPECT_NE(s.find("adj_inter_token_latency"), nullptr);
  EXPECT_NE(s.find("adj_decode_duration"), nullptr);
  // Latency distributions keep successes only.
  EXPECT_EQ(s.find("time_to_first_token")->stats.count, 3);
  EXPECT_DOUBLE_EQ(val(s, "error_isl"), 120);
  ASSERT_EQ(s.error_summary.size(), 1u);
  EXPECT_EQ(s.error_summary[0].code, 503);
  EXPECT_EQ(s.error_summary[0].type, "http_status");
  ASSERT_EQ(s.extras.errors_by_kind.size(), 1u);
  EXPECT_EQ(s.extras.errors_by_kind[0].first, "http_status");
}

TEST(SummaryTest, ErrorGroupsAreCapped) {
  std::vector<RequestRecord> recs;
  for (int i = 0; i < 80; ++i) {
    recs.push_back(make_error_record(i, (1000 + i) * kMs, ErrorKind::kHttpStatus, 500,
                                     "failure for request " + std::to_string(i)));
  }
  Summary s = summarize(ptrs(recs), {});
  ASSERT_EQ(s.error_summary.size(), kMaxErrorGroups + 1);
  EXPECT_EQ(s.error_summary.back().message, "(other messages)");
  EXPECT_EQ(s.error_summary.back().count, 80 - static_cast<int64_t>(kMaxErrorGroups));
  int64_t total = 0;
  for (const auto& g : s.error_summary) total += g.count;
  EXPECT_EQ(total, 80);
}

TEST(SummaryTest, AllFailedStillSummarizes) {
  std::vector<RequestRecord> recs;
  for (int i = 0; i < 4; ++i) {
    recs.push_back(make_error_record(i, (1000 + i) * kMs, ErrorKind::kConnect, 0, "refused"));
  }
  Summary s = summarize(ptrs(recs), {});
  EXPECT_EQ(s.request_count, 0);
  EXPECT_EQ(s.error_request_count, 4);
  EXPECT_DOUBLE_EQ(val(s, "request_error_rate"), 100);
  EXPECT_DOUBLE_EQ(val(s, "request_count"), 0);
  EXPECT_DOUBLE_EQ(val(s, "request_throughput"), 0);
  EXPECT_EQ(s.find("time_to_first_token"), nullptr);
}

TEST(SummaryTest, GoodputCountsRequestsMeetingEverySlo) {
  auto recs = three_ok();  // TTFT 10, 20, 30 ms; ITL 5 ms
  recs.push_back(make_error_record(3, 1050 * kMs, ErrorKind::kTimeout, 0, "slow"));
  SummaryOptions o;
  o.slos = *parse_goodput("time_to_first_token:20 inter_token_latency:5");
  Summary s = summarize(ptrs(recs), o);
  EXPECT_DOUBLE_EQ(val(s, "good_request_count"), 2);  // 10 and 20 ms meet <= 20
  EXPECT_DOUBLE_EQ(val(s, "goodput"), 2 / 0.240);
  EXPECT_DOUBLE_EQ(val(s, "good_request_fraction"), 0.5);  // 2 / (3 + 1)
  // Larger-is-better metric: output_token_throughput_per_user = 200 tokens/s/user here.
  o.slos = *parse_goodput("output_token_throughput_per_user:250");
  EXPECT_DOUBLE_EQ(val(summarize(ptrs(recs), o), "good_request_count"), 0);
  o.slos = *parse_goodput("output_token_throughput_per_user:150");
  EXPECT_DOUBLE_EQ(val(summarize(ptrs(recs), o), "good_request_count"), 3);
}

TEST(SummaryTest, ScheduleLagAndClientLimitedVerdict) {
  auto recs = three_ok();
  Summary s = summarize(ptrs(recs), {});
  EXPECT_FALSE(s.extras.client_limited);
  EXPECT_DOUBLE_EQ(s.extras.late_send_fraction, 0);
  // Make two of three sends 3 ms late.
  recs[1].intended_ns -= 3 * kMs;
  recs[2].intended_ns -= 3 * kMs;
  s = summarize(ptrs(recs), {});
  EXPECT_EQ(s.extras.late_sends, 2);
  EXPECT_TRUE(s.extras.client_limited);
  EXPECT_NE(s.extras.client_limited_reason.find("1 ms"), std::string::npos);
  EXPECT_DOUBLE_EQ(val(s, "schedule_lag", "max"), 3);
  EXPECT_DOUBLE_EQ(val(s, "time_to_first_token_from_intended", "max"), 33);
}

TEST(SummaryTest, Concurrency) {
  // Intervals [0,10) [5,15) [20,30) ms (+1 s) → peak 2; time-weighted = (10+10+10)/30 = 1.
  std::vector<RequestRecord> recs;
  for (auto [a, b] : std::vector<std::pair<int, int>>{{0, 10}, {5, 15}, {20, 30}}) {
    RequestRecord r = make_error_record(recs.size(), (1000 + a) * kMs, ErrorKind::kTimeout, 0, "");
    r.end_ns = (1000 + b) * kMs;
    recs.push_back(r);
  }
  Summary s = summarize(ptrs(recs), {});
  EXPECT_EQ(s.extras.peak_concurrency, 2);
  EXPECT_DOUBLE_EQ(s.extras.avg_concurrency, 1.0);
}

TEST(SummaryTest, OrderIndependence) {
  // Property: any permutation of the records gives the same summary, bit for bit.
  std::vector<RequestRecord> recs = servebench::testing::golden_records();
  std::mt19937_64 rng(42);
  for (int i = 0; i < 30; ++i) {
    StreamSpec s;
    s.start_ns = 2000 * kMs + static_cast<int64_t>(rng() % 1000) * kMs;
    s.intended_ns = s.start_ns - static_cast<int64_t>(rng() % 3) * kMs;
    s.ttft_ns = static_cast<int64_t>(rng() % 100 + 1) * kMs;
    for (int g = 0; g < static_cast<int>(rng() % 6); ++g) {
      s.gaps_ns.push_back(static_cast<int64_t>(rng() % 20 + 1) * kMs);
    }
    recs.push_back(make_stream_record(recs.size(), s));
  }
  SummaryOptions o;
  o.slos = *parse_goodput("time_to_first_token:50");
  const Summary ref = summarize(ptrs(recs), o);
  for (int trial = 0; trial < 10; ++trial) {
    std::shuffle(recs.begin(), recs.end(), rng);
    const Summary s = summarize(ptrs(recs), o);
    ASSERT_EQ(s.metrics.size(), ref.metrics.size());
    for (size_t i = 0; i < s.metrics.size(); ++i) {
      const auto& a = s.metrics[i];
      const auto& b = ref.metrics[i];
      ASSERT_EQ(a.tag(), b.tag());
      if (a.distribution) {
        EXPECT_EQ(a.stats.count, b.stats.count) << a.tag();
        EXPECT_EQ(a.stats.min, b.stats.min) << a.tag();
        EXPECT_EQ(a.stats.max, b.stats.max) << a.tag();
        for (size_t p = 0; p < 9; ++p) {
          // NaN on both sides: a statistic the row does not have (sweep rows' p1..p25, p75).
          if (!(std::isnan(a.stats.p[p]) && std::isnan(b.stats.p[p]))) {
            EXPECT_EQ(a.stats.p[p], b.stats.p[p]) << a.tag();
          }
        }
        // Sums of doubles may differ in the last bits with order; avg/std to 1e-12 relative.
        if (std::isinf(b.stats.avg)) {
          EXPECT_EQ(a.stats.avg, b.stats.avg) << a.tag();
        } else {
          EXPECT_NEAR(a.stats.avg, b.stats.avg, std::abs(b.stats.avg) * 1e-12 + 1e-12) << a.tag();
        }
        if (a.stats.has_std) {
          EXPECT_NEAR(a.stats.std, b.stats.std, std::abs(b.stats.std) * 1e-9 + 1e-9) << a.tag();
        }
      } else {
        EXPECT_NEAR(a.value, b.value, std::abs(b.value) * 1e-12) << a.tag();
      }
    }
    EXPECT_EQ(s.extras.peak_concurrency, ref.extras.peak_concurrency);
    EXPECT_EQ(s.error_summary.size(), ref.error_summary.size());
  }
}

TEST(SummaryTest, PerTokenItlSharesIclWhenChunksCarryOneTokenAndBackfillsOtherwise) {
  auto recs = three_ok();  // 1 token per chunk: per-token ITL is the ICL distribution
  Summary s = summarize(ptrs(recs), {});
  ASSERT_NE(s.find("per_token_inter_token_latency"), nullptr);
  EXPECT_EQ(s.find("per_token_inter_token_latency")->stats.count, 6);
  EXPECT_DOUBLE_EQ(s.find("per_token_inter_token_latency")->stats.avg, 5 * kMs);
  // A later multi-token record: earlier records are back-filled, totals add up.
  StreamSpec m;
  m.start_ns = 1300 * kMs;
  m.ttft_ns = 10 * kMs;
  m.gaps_ns = {8 * kMs};
  m.chunk_tokens = {1, 4};
  recs.push_back(make_stream_record(3, m));
  s = summarize(ptrs(recs), {});
  EXPECT_EQ(s.find("per_token_inter_token_latency")->stats.count, 6 + 4);
  EXPECT_DOUBLE_EQ(s.find("per_token_inter_token_latency")->stats.sum, 6 * 5 * kMs + 8 * kMs);
  EXPECT_EQ(s.find("inter_chunk_latency")->stats.count, 7);
  // Without chunk lists neither is computed.
  SummaryOptions o;
  o.inter_chunk_latency = false;
  s = summarize(ptrs(recs), o);
  EXPECT_EQ(s.find("per_token_inter_token_latency"), nullptr);
  EXPECT_EQ(s.find("inter_chunk_latency"), nullptr);
}

TEST(SummaryTest, ParallelDistributionsMatchSerial) {
  // Enough samples (> 200k) for the parallel path; must equal the single-threaded result.
  std::vector<RequestRecord> recs;
  std::mt19937_64 rng(9);
  for (int i = 0; i < 30000; ++i) {
    StreamSpec s;
    s.start_ns = 1000 * kMs + i * kMs;
    s.ttft_ns = static_cast<int64_t>(rng() % 100'000'000) + 1;
    for (int g = 0; g < 8; ++g) s.gaps_ns.push_back(static_cast<int64_t>(rng() % 9'000'000));
    recs.push_back(make_stream_record(i, s));
  }
  SummaryOptions serial, parallel;
  serial.max_threads = 1;
  parallel.max_threads = 4;
  const Summary a = summarize(ptrs(recs), serial);
  const Summary b = summarize(ptrs(recs), parallel);
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (size_t i = 0; i < a.metrics.size(); ++i) {
    ASSERT_EQ(a.metrics[i].tag(), b.metrics[i].tag());
    for (size_t p = 0; p < 9; ++p) {
      const double x = a.metrics[i].stats.p[p], y = b.metrics[i].stats.p[p];
      if (!(std::isnan(x) && std::isnan(y))) {
        EXPECT_EQ(x, y);
      }
    }
    EXPECT_EQ(a.metrics[i].stats.avg, b.metrics[i].stats.avg);
  }
  EXPECT_EQ(a.find("inter_chunk_latency")->stats.count, 240000);
  EXPECT_EQ(a.find("per_token_inter_token_latency")->stats.p[8],
            b.find("per_token_inter_token_latency")->stats.p[8]);
}

TEST(SummaryTest, TimeSlices) {
  // Requests start at 1000, 1100, 1200 ms; 150 ms slices → [0]: 2 requests, [1]: 1 request.
  auto recs = three_ok();
  auto slices = summarize_slices(ptrs(recs), 150 * kMs, {});
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(slices[0].summary.request_count, 2);
  EXPECT_EQ(slices[1].summary.request_count, 1);
  // Full slice: throughput over the 150 ms window.
  EXPECT_DOUBLE_EQ(val(slices[0].summary, "request_throughput"), 2 / 0.150);
  EXPECT_DOUBLE_EQ(val(slices[0].summary, "time_to_first_token", "avg"), 15);
  // Last slice is partial: from 1150 ms to the last end (1200 + 40 + 0.3 ms).
  EXPECT_DOUBLE_EQ(val(slices[1].summary, "benchmark_duration"), 0.0903);
}

TEST(SummaryTest, SloParsing) {
  auto ok = parse_goodput("time_to_first_token:100,inter_token_latency=10.5");
  ASSERT_TRUE(ok);
  ASSERT_EQ(ok->size(), 2u);
  EXPECT_DOUBLE_EQ((*ok)[0].threshold_base, 100e6);  // ms → ns
  EXPECT_DOUBLE_EQ((*ok)[1].threshold_base, 10.5e6);
  EXPECT_FALSE((*ok)[0].larger_is_better);
  EXPECT_TRUE((*parse_goodput("output_token_throughput_per_user:5"))[0].larger_is_better);
  EXPECT_TRUE(parse_goodput("")->empty());
  for (const char* bad : {"ttft:100", "time_to_first_token", "time_to_first_token:abc",
                          "request_throughput:5", "time_to_first_token:-1"}) {
    auto r = parse_goodput(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_TRUE(r.error().is_usage());
    EXPECT_NE(r.error().message.find("--goodput"), std::string::npos);
  }
}

TEST(SummaryTest, FailOnParsingAndEvaluation) {
  auto g = parse_fail_on("request_error_rate>1 time_to_first_token.p99>=500 schedule_lag.p99<2");
  ASSERT_TRUE(g);
  ASSERT_EQ(g->size(), 3u);
  EXPECT_EQ((*g)[0].stat, "avg");
  EXPECT_EQ((*g)[1].stat, "p99");
  EXPECT_EQ((*g)[1].op, GateOp::kGreaterEqual);
  EXPECT_TRUE(gate_holds((*g)[1], 500));
  EXPECT_FALSE(gate_holds((*g)[1], 499.9));
  EXPECT_TRUE(gate_holds((*g)[2], 1.5));
  for (const char* bad : {"nonsense>1", "request_error_rate", "time_to_first_token.p98>1",
                          "request_error_rate>x", ">5"}) {
    auto r = parse_fail_on(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("--fail-on"), std::string::npos);
  }
  // Thresholds are compared in display units (ms), looked up from the summary.
  auto recs = three_ok();
  Summary s = summarize(ptrs(recs), {});
  double v;
  ASSERT_TRUE(s.lookup("time_to_first_token", "p99", &v));
  EXPECT_DOUBLE_EQ(v, 29.8);  // [10,20,30] ms: h = 1.98 → 20 + 0.98*10
  EXPECT_FALSE(s.lookup("time_to_first_token", "bogus", &v));
  EXPECT_FALSE(s.lookup("request_throughput", "p99", &v));
}

}  // namespace
}  // namespace servebench::metrics
