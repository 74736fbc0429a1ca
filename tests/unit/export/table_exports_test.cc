// The console, JSON and CSV writers follow the metric table: an embeddings summary (no token
// output, no streaming) shows latency, ISL and throughput everywhere and no token rows anywhere;
// servebench's rows stay under the JSON "servebench" key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "export/console.h"
#include "export/csv_export.h"
#include "export/summary_json.h"
#include "metrics/summary.h"

namespace servebench::exporter {
namespace {

constexpr int64_t kMs = 1'000'000;

metrics::Summary embeddings_summary() {
  std::vector<record::RequestRecord> recs(3);
  for (size_t i = 0; i < recs.size(); ++i) {
    record::RequestRecord& r = recs[i];
    r.request_index = i;
    r.intended_ns = 1000 * kMs + static_cast<int64_t>(i) * 10 * kMs;
    r.request_start_ns = r.intended_ns;
    r.first_byte_ns = r.request_start_ns + 3 * kMs;
    r.response_complete_ns = r.request_start_ns + 4 * kMs;
    r.end_ns = r.response_complete_ns;
    r.http_status = 200;
    r.input_tokens = 32;
    r.output_items = 2;
  }
  std::vector<const record::RequestRecord*> ptrs;
  for (const auto& r : recs) ptrs.push_back(&r);
  metrics::SummaryOptions o;
  o.capabilities = core::kCapTokenizesInput;
  return metrics::summarize(ptrs, o);
}

TEST(TableExportsTest, EmbeddingsRowsInEveryFormat) {
  const metrics::Summary s = embeddings_summary();
  const std::string table = render_metrics_table("servebench | Embeddings Metrics", s);
  EXPECT_NE(table.find("Request Latency (ms)"), std::string::npos) << table;
  EXPECT_NE(table.find("Input Sequence Length"), std::string::npos);
  EXPECT_NE(table.find("Request Throughput"), std::string::npos);
  for (const char* absent : {"Time to First Token", "Inter Token Latency", "Output Sequence",
                             "Output Token Throughput"}) {
    EXPECT_EQ(table.find(absent), std::string::npos) << absent;
  }

  RunContext ctx;
  ctx.benchmark_id = "emb";
  JsonInput in;
  in.context = &ctx;
  in.profiling = &s;
  const auto j = nlohmann::json::parse(render_summary_json(in));
  EXPECT_DOUBLE_EQ(j["request_latency"]["avg"].get<double>(), 4.0);
  EXPECT_TRUE(j.contains("input_sequence_length"));
  EXPECT_FALSE(j.contains("time_to_first_token"));
  EXPECT_FALSE(j.contains("output_sequence_length"));
  // servebench's rows: under "servebench" only.
  EXPECT_FALSE(j.contains("schedule_lag"));
  EXPECT_TRUE(j["servebench"].contains("schedule_lag"));
  EXPECT_TRUE(j["servebench"].contains("request_latency_from_intended"));
  EXPECT_FALSE(j["servebench"].contains("time_to_first_token_from_intended"));
  EXPECT_EQ(j["servebench"]["peak_concurrency"], 1);

  const std::string csv = render_summary_csv(s);
  EXPECT_NE(csv.find("Request Latency (ms)"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("Time to First Token"), std::string::npos);
  EXPECT_EQ(csv.find("Schedule Lag"), std::string::npos);
}

TEST(TableExportsTest, GatesAndSlosFindServebenchRows) {
  const metrics::Summary s = embeddings_summary();
  double v = -1;
  ASSERT_TRUE(s.lookup("schedule_lag", "p99", &v));
  EXPECT_DOUBLE_EQ(v, 0);
  ASSERT_TRUE(s.lookup("client_limited", "avg", &v));
  EXPECT_DOUBLE_EQ(v, 0);
  ASSERT_TRUE(s.lookup("peak_concurrency", "avg", &v));
  EXPECT_DOUBLE_EQ(v, 1);
  EXPECT_TRUE(metrics::parse_fail_on("client_limited>0 late_send_fraction>0.1"));
  auto slos = metrics::parse_goodput("schedule_lag:2 request_latency_from_intended:100");
  ASSERT_TRUE(slos);
  EXPECT_EQ((*slos)[0].info->slot, metrics::RecordMetric::kScheduleLag);
}

}  // namespace
}  // namespace servebench::exporter
