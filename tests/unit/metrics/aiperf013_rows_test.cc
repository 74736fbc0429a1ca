// AIPerf 0.13's rows: server usage counts and their differences from the client's counts, the
// HTTP rows in AIPerf's units, credit-anchored latencies and completed_request_count, each
// checked against values worked out by hand for three records.
#include <cmath>

#include <gtest/gtest.h>

#include "metrics/metric_info.h"
#include "metrics/summary.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::metrics {
namespace {

using record::RequestRecord;
using servebench::testing::make_error_record;
using servebench::testing::make_stream_record;
using servebench::testing::StreamSpec;

constexpr int64_t kMs = 1'000'000;

double val(const Summary& s, const char* tag, const char* stat = "avg") {
  double v = NAN;
  EXPECT_TRUE(s.lookup(tag, stat, &v)) << tag << "." << stat;
  return v;
}

// r0: credit 990 ms, start 1000 ms, TTFT 10 ms, gaps 5+5 ms → end 1020.3 ms; usage prompt 111
//     for 100 client tokens (11 % off), 1 request write of 1000 bytes.
// r1: credit = start = 1100 ms, TTFT 20 ms → end 1130.3 ms; usage as counted; 3 writes of
//     1001 bytes.
// r2: an HTTP 500 at 1200 ms, credit 1195 ms, end 1205 ms.
std::vector<RequestRecord> records() {
  std::vector<RequestRecord> v;
  for (int i = 0; i < 2; ++i) {
    StreamSpec s;
    s.start_ns = 1000 * kMs + i * 100 * kMs;
    s.ttft_ns = (i + 1) * 10 * kMs;
    s.gaps_ns = {5 * kMs, 5 * kMs};
    v.push_back(make_stream_record(i, s));
  }
  v[0].credit_issued_ns = 990 * kMs;
  v[0].usage.prompt_tokens = 111;
  v[0].usage.total_tokens = 114;
  v[0].request_writes = 1;
  v[1].request_writes = 3;
  v.push_back(make_error_record(2, 1200 * kMs, record::ErrorKind::kHttpStatus, 500, "HTTP 500"));
  v[2].credit_issued_ns = 1195 * kMs;
  return v;
}

Summary summary_of(const std::vector<RequestRecord>& v) {
  std::vector<const RequestRecord*> p;
  for (const auto& r : v) p.push_back(&r);
  return summarize(p, {});
}

TEST(Aiperf013RowsTest, UsageCountsTotalsAndDifferences) {
  const Summary s = summary_of(records());
  EXPECT_DOUBLE_EQ(val(s, "usage_prompt_tokens"), (111 + 100) / 2.0);
  EXPECT_DOUBLE_EQ(val(s, "usage_completion_tokens"), 3);
  EXPECT_DOUBLE_EQ(val(s, "usage_total_tokens"), (114 + 103) / 2.0);
  EXPECT_DOUBLE_EQ(val(s, "total_usage_prompt_tokens"), 211);
  EXPECT_DOUBLE_EQ(val(s, "total_usage_completion_tokens"), 6);
  EXPECT_DOUBLE_EQ(val(s, "total_usage_total_tokens"), 217);
  EXPECT_DOUBLE_EQ(val(s, "usage_prompt_tokens_diff_pct", "max"), 11);
  EXPECT_DOUBLE_EQ(val(s, "usage_prompt_tokens_diff_pct", "avg"), 5.5);
  EXPECT_DOUBLE_EQ(val(s, "usage_completion_tokens_diff_pct", "max"), 0);
  EXPECT_DOUBLE_EQ(val(s, "usage_discrepancy_count"), 1);  // 11 % > 10 %; 0 % is not
  EXPECT_EQ(find_metric("usage_prompt_tokens_diff_pct")->header, "Usage Prompt Diff %");
  EXPECT_EQ(find_metric("osl_mismatch_diff_pct")->header, "OSL Mismatch Diff %");
}

TEST(Aiperf013RowsTest, HttpRowsInAiperfUnitsAndInTheCsv) {
  const Summary s = summary_of(records());
  EXPECT_DOUBLE_EQ(val(s, "http_req_chunks_sent"), 2);  // (1 + 3) / 2
  EXPECT_DOUBLE_EQ(val(s, "http_req_chunks_sent", "max"), 3);
  EXPECT_DOUBLE_EQ(val(s, "http_req_data_sent"), 1000.5 / 1024);  // KB of 1024 bytes
  EXPECT_DOUBLE_EQ(val(s, "http_req_connection_reused"), 0.5);    // r1 reused, r0 not
  for (const char* tag : {"http_req_blocked", "http_req_chunks_sent", "http_req_total",
                          "http_req_data_received", "http_req_connection_reused"}) {
    EXPECT_FALSE(find_metric(tag)->has(kNoCsv)) << tag;
  }
  EXPECT_EQ(find_metric("http_req_waiting")->header, "HTTP Waiting (TTFB)");
  EXPECT_EQ(find_metric("http_req_duration")->header, "HTTP Duration (excl. conn)");
  EXPECT_EQ(find_metric("http_req_connection_reused")->display_unit, "ratio");
}

TEST(Aiperf013RowsTest, ChunksSentIsAbsentWhenTheTransportDidNotCountWrites) {
  auto v = records();
  v[0].request_writes = 0;
  v[1].request_writes = 0;
  EXPECT_EQ(summary_of(v).find("http_req_chunks_sent"), nullptr);
}

TEST(Aiperf013RowsTest, CreditAnchoredLatenciesCoverEveryOutcome) {
  const Summary s = summary_of(records());
  // credit → start: 10, 0 and 5 ms (the failed request counts too).
  EXPECT_DOUBLE_EQ(val(s, "credit_to_start_latency", "avg"), 5);
  EXPECT_DOUBLE_EQ(val(s, "credit_to_start_latency", "max"), 10);
  EXPECT_DOUBLE_EQ(val(s, "credit_to_start_latency", "min"), 0);
  EXPECT_DOUBLE_EQ(val(s, "credit_to_start_latency", "count"), 3);
  // credit → end: 30.3, 30.3 and 10 ms.
  EXPECT_NEAR(val(s, "effective_latency", "max"), 30.3, 1e-9);
  EXPECT_NEAR(val(s, "effective_latency", "min"), 10, 1e-9);
  EXPECT_NEAR(val(s, "effective_latency", "avg"), (30.3 + 30.3 + 10) / 3, 1e-9);
  EXPECT_EQ(find_metric("effective_latency")->group, ConsoleGroup::kEffective);
  EXPECT_TRUE(find_metric("credit_to_start_latency")->has(kNoConsole));
}

TEST(Aiperf013RowsTest, CreditLatenciesNeedACreditTime) {
  auto v = records();
  for (auto& r : v) r.credit_issued_ns = 0;
  const Summary s = summary_of(v);
  EXPECT_EQ(s.find("credit_to_start_latency"), nullptr);
  EXPECT_EQ(s.find("effective_latency"), nullptr);
}

TEST(Aiperf013RowsTest, CompletedRequestCountIsSuccessesPlusErrors) {
  const Summary s = summary_of(records());
  EXPECT_DOUBLE_EQ(val(s, "completed_request_count"), 3);
  EXPECT_EQ(find_metric("completed_request_count")->header,
            "Completed Requests (Success + Error)");
  EXPECT_EQ(summary_of({}).find("completed_request_count"), nullptr);
}

}  // namespace
}  // namespace servebench::metrics
