#include "telemetry/server_export.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "telemetry/server_console.h"
#include "telemetry/server_reconcile.h"

namespace servebench::telemetry {
namespace {

constexpr int64_t kS = 1'000'000'000;

ServerReport vllm_report() {
  SeriesStore store;
  int e = store.add_endpoint("http://h:8000/metrics");
  auto scrape = [&](int64_t t, int n) {
    std::string text =
        "# HELP vllm:num_requests_running Running.\n# TYPE vllm:num_requests_running gauge\n"
        "vllm:num_requests_running{model_name=\"m\"} " + std::to_string(n % 3) +
        "\n# TYPE vllm:generation_tokens_total counter\nvllm:generation_tokens_total{model_name=\"m\"} " +
        std::to_string(n * 10) +
        "\n# HELP vllm:time_to_first_token_seconds TTFT.\n# TYPE vllm:time_to_first_token_seconds histogram\n"
        "vllm:time_to_first_token_seconds_bucket{le=\"0.01\",model_name=\"m\"} " + std::to_string(n) +
        "\nvllm:time_to_first_token_seconds_bucket{le=\"+Inf\",model_name=\"m\"} " + std::to_string(n) +
        "\nvllm:time_to_first_token_seconds_sum{model_name=\"m\"} " + std::to_string(n * 0.005) +
        "\nvllm:time_to_first_token_seconds_count{model_name=\"m\"} " + std::to_string(n) + "\n";
    store.add_scrape(e, t, *prom::parse_exposition(text, prom::Format::kPrometheusText));
  };
  scrape(0, 0);
  scrape(1 * kS, 4);
  scrape(2 * kS, 8);
  return build_report(store, Window{0, 2 * kS, INT64_MAX}, 0);
}

TEST(ServerExport, JsonHasAiperfLayout) {
  ServerReport r = vllm_report();
  std::vector<EndpointFacts> facts = {{"http://h:8000/metrics", true, 3, 0, 1, 2 * kS, 3000, "", "http://h:8000/metrics", true}};
  ClientLatency client;
  client.requests = 8;
  client.ttft_avg_ms = 6.0;
  client.ttft_p50_ms = 6.0;
  client.ttft_p99_ms = 9.0;
  auto rows = reconcile(r, client);
  ExportContext ctx{"bid", R"({"endpoint":{"urls":["x"]}})", core::WallAnchor{0, 1'700'000'000'000'000'000},
                    {"http://h:8000/metrics"}};
  auto j = nlohmann::json::parse(render_server_json(r, facts, rows, ctx));
  EXPECT_EQ(j["schema_version"], "1.0");
  EXPECT_EQ(j["benchmark_id"], "bid");
  EXPECT_EQ(j["summary"]["endpoints_successful"][0], "http://h:8000/metrics");
  EXPECT_EQ(j["summary"]["endpoint_info"]["http://h:8000/metrics"]["total_fetches"], 3);
  const auto& gen = j["metrics"]["vllm:generation_tokens"];
  EXPECT_EQ(gen["type"], "counter");
  EXPECT_EQ(gen["unit"], "tokens");
  EXPECT_EQ(gen["series"][0]["endpoint_url"], "http://h:8000/metrics");
  EXPECT_EQ(gen["series"][0]["labels"]["model_name"], "m");
  EXPECT_EQ(gen["series"][0]["stats"]["total"], 80.0);
  EXPECT_EQ(gen["series"][0]["stats"]["rate"], 40.0);
  const auto& run = j["metrics"]["vllm:num_requests_running"];
  EXPECT_EQ(run["type"], "gauge");
  EXPECT_EQ(run["description"], "Running.");
  for (const char* k : {"avg", "min", "max", "std", "p1", "p50", "p99"}) EXPECT_TRUE(run["series"][0]["stats"].contains(k)) << k;
  const auto& ttft = j["metrics"]["vllm:time_to_first_token_seconds"];
  EXPECT_EQ(ttft["type"], "histogram");
  EXPECT_EQ(ttft["unit"], "seconds");
  EXPECT_EQ(ttft["series"][0]["stats"]["count"], 8);
  EXPECT_DOUBLE_EQ(ttft["series"][0]["stats"]["avg"].get<double>(), 0.005);
  EXPECT_TRUE(ttft["series"][0]["stats"].contains("p99_estimate"));
  EXPECT_EQ(ttft["series"][0]["buckets"]["0.01"], 8);
  ASSERT_EQ(j["reconciliation"]["rows"].size(), 1u);
  const auto& row = j["reconciliation"]["rows"][0];
  EXPECT_EQ(row["server_metric"], "vllm:time_to_first_token_seconds");
  EXPECT_DOUBLE_EQ(row["server_avg_ms"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(row["difference_avg_ms"].get<double>(), 1.0);
  EXPECT_EQ(row["server_count"], 8.0);
  EXPECT_EQ(row["client_count"], 8);
  EXPECT_FALSE(j["reconciliation"]["caveats"].empty());
  EXPECT_EQ(j["input_config"]["endpoint"]["urls"][0], "x");
}

TEST(ServerExport, CsvSectionsPerType) {
  ServerReport r = vllm_report();
  std::string csv = render_server_csv(r, ExportContext{"bid", "", {}, {}});
  EXPECT_NE(csv.find("Endpoint,Type,Metric,Unit,avg,min,max,std,p1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("Endpoint,Type,Metric,Unit,total,rate,rate_avg,rate_min,rate_max,rate_std,model_name,Description"),
            std::string::npos);
  EXPECT_NE(csv.find("h:8000,counter,vllm:generation_tokens,tokens,80.0000,40.0000,40.0000,40.0000,40.0000,0.0000,m,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("0.01=8;+Inf=8"), std::string::npos) << csv;
}

TEST(ServerExport, ConsoleNamesTheServerAndTheDifference) {
  ServerReport r = vllm_report();
  EXPECT_EQ(detect_server(r), "vllm");
  ClientLatency client;
  client.requests = 8;
  client.ttft_avg_ms = 7.5;
  std::string text = render_server_console(r, reconcile(r, client));
  EXPECT_NE(text.find("vLLM"), std::string::npos) << text;
  EXPECT_NE(text.find("vllm:generation_tokens"), std::string::npos);
  EXPECT_NE(text.find("total 80"), std::string::npos) << text;
  EXPECT_NE(text.find("difference +2.50 ms"), std::string::npos) << text;
}

TEST(ServerExport, NoReconciliationWithoutServerHistogramOrClientTtft) {
  ServerReport r = vllm_report();
  EXPECT_TRUE(reconcile(r, ClientLatency{}).empty());
  ClientLatency e2e_only;
  e2e_only.e2e_avg_ms = 3;
  EXPECT_TRUE(reconcile(r, e2e_only).empty());  // the report has no e2e histogram
}

TEST(ServerExport, UnitsFromNames) {
  EXPECT_EQ(infer_unit("vllm:kv_cache_usage_perc", ""), "ratio");
  EXPECT_EQ(infer_unit("x_bytes_total", ""), "bytes");
  EXPECT_EQ(infer_unit("llamacpp:prompt_tokens", ""), "tokens");
  EXPECT_EQ(infer_unit("queue", "requests"), "requests");
  EXPECT_EQ(infer_unit("queue", ""), "");
}

}  // namespace
}  // namespace servebench::telemetry
