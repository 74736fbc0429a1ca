// The HTTP timing rows (metrics/http_trace_rows.h) and spec-decode rows
// (metrics/spec_decode_rows.h) on hand-built records, the spec-decode usage names through the
// chat parser, and the sink flags.
#include <gtest/gtest.h>

#include <cmath>

#include "config/cli_options.h"
#include "endpoints/endpoint.h"
#include "metrics/metric_info.h"
#include "metrics/record_metrics.h"

namespace servebench {
namespace {

using metrics::RecordMetric;

constexpr int64_t kMs = 1'000'000;

record::RequestRecord timed(bool new_conn, bool tls) {
  record::RequestRecord r;
  r.http_status = 200;
  r.request_start_ns = 100 * kMs;
  if (new_conn) {
    r.conn_start_ns = 101 * kMs;   // blocked 1 ms
    r.dns_done_ns = 104 * kMs;     // dns 3 ms
    r.connected_ns = 110 * kMs;    // tcp 6 ms
    if (tls) r.tls_done_ns = 125 * kMs;  // tls 15 ms
  }
  const int64_t ready = !new_conn ? r.request_start_ns : tls ? 125 * kMs : 110 * kMs;
  r.request_sent_ns = ready + 2 * kMs;        // sending 2 ms
  r.first_byte_ns = r.request_sent_ns + 50 * kMs;  // waiting 50 ms
  r.end_ns = r.first_byte_ns + 30 * kMs;       // receiving 30 ms
  r.request_bytes = 512;
  r.response_bytes = 4096;
  r.response_reads = 7;
  r.connection_reused = !new_conn;
  return r;
}

double ms(const metrics::RecordValues& v, RecordMetric m) { return v.get(m) / kMs; }

TEST(HttpTraceRows, NewTlsConnectionPhases) {
  metrics::RecordValues v;
  metrics::compute_record_metrics(timed(true, true), &v);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqBlocked), 1);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqDnsLookup), 3);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqConnecting), 21);  // TCP + TLS, AIPerf's meaning
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqTlsHandshaking), 15);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqSending), 2);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqWaiting), 50);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqReceiving), 30);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqDuration), 82);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqConnectionOverhead), 25);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqTotal), 107);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kHttpReqDataSent), 512);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kHttpReqDataReceived), 4096);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kHttpReqChunksReceived), 7);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kHttpReqConnectionReused), 0);
}

TEST(HttpTraceRows, ReusedConnectionHasNoSetUp) {
  metrics::RecordValues v;
  metrics::compute_record_metrics(timed(false, false), &v);
  for (RecordMetric m : {RecordMetric::kHttpReqBlocked, RecordMetric::kHttpReqDnsLookup,
                         RecordMetric::kHttpReqConnecting, RecordMetric::kHttpReqTlsHandshaking,
                         RecordMetric::kHttpReqConnectionOverhead})
    EXPECT_EQ(v.get(m), 0) << metrics::record_metric_tag(m);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqDuration), 82);
  EXPECT_DOUBLE_EQ(ms(v, RecordMetric::kHttpReqTotal), 82);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kHttpReqConnectionReused), 1);
}

// The console's HTTP Trace table (--show-trace-timing); in the CSV, as AIPerf 0.13 has them.
TEST(HttpTraceRows, InTheHttpTraceConsoleGroupAndTheCsv) {
  for (const char* tag : {"http_req_blocked", "http_req_waiting", "http_req_total"}) {
    const auto* m = metrics::find_metric(tag);
    ASSERT_NE(m, nullptr) << tag;
    EXPECT_EQ(m->group, metrics::ConsoleGroup::kHttpTrace);
    EXPECT_FALSE(m->has(metrics::kNoCsv));
  }
}

record::RequestRecord with_spec(int64_t steps, int64_t accepted, int64_t draft) {
  record::RequestRecord r = timed(false, false);
  r.usage.spec_steps = steps;
  r.usage.spec_accepted_tokens = accepted;
  r.usage.spec_draft_tokens = draft;
  return r;
}

TEST(SpecDecodeRows, Formulas) {
  metrics::RecordValues v;
  metrics::compute_record_metrics(with_spec(10, 25, 40), &v);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kSpecDecodeAcceptanceLength), 3.5);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kSpecDecodeDraftAcceptanceRate), 62.5);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kSpecDecodeAcceptedPerVerified), 35.0 / 50.0);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kSpecDecodeSteps), 10);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kSpecDecodeAcceptedDraftTokens), 25);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kSpecDecodeDraftTokens), 40);
}

TEST(SpecDecodeRows, AbsentWithoutCounts) {
  metrics::RecordValues v;
  metrics::compute_record_metrics(timed(false, false), &v);
  EXPECT_TRUE(std::isnan(v.get(RecordMetric::kSpecDecodeAcceptanceLength)));
  EXPECT_TRUE(std::isnan(v.get(RecordMetric::kSpecDecodeSteps)));
  metrics::compute_record_metrics(with_spec(0, 0, 0), &v);  // no steps: no ratio
  EXPECT_TRUE(std::isnan(v.get(RecordMetric::kSpecDecodeAcceptanceLength)));
  EXPECT_TRUE(std::isnan(v.get(RecordMetric::kSpecDecodeDraftAcceptanceRate)));
}

record::Usage usage_of(const std::string& usage_json) {
  auto p = endpoints::make_event_parser("chat");
  record::RequestRecord rec;
  const std::string body =
      R"({"object":"chat.completion","choices":[{"message":{"content":"x"}}],"usage":)" +
      usage_json + "}";
  EXPECT_EQ(p->parse_body(body, 1, &rec), endpoints::ParseStatus::kOk) << rec.error_message;
  return rec.usage;
}

TEST(SpecDecodeUsage, SglangAndGenericNames) {
  auto u = usage_of(R"({"prompt_tokens":5,"completion_tokens":9,"spec_verify_ct":3,)"
                    R"("spec_accept_token_num":6,"spec_draft_token_num":12})");
  EXPECT_EQ(u.spec_steps, 3);
  EXPECT_EQ(u.spec_accepted_tokens, 6);
  EXPECT_EQ(u.spec_draft_tokens, 12);
  u = usage_of(R"({"prompt_tokens":5,"num_spec_steps":2,"num_accepted_tokens":1,"num_draft_tokens":4})");
  EXPECT_EQ(u.spec_steps, 2);
  EXPECT_EQ(u.spec_accepted_tokens, 1);
  EXPECT_EQ(u.spec_draft_tokens, 4);
  u = usage_of(R"({"prompt_tokens":5,"spec_verify_ct":null})");
  EXPECT_EQ(u.spec_steps, -1);
}

Result<config::ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), {"profile", "-m", "m"});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

TEST(SinkFlags, Parse) {
  auto r = parse({"--export-http-trace", "--show-trace-timing", "--export-outputs-json",
                  "--otel-url", "http://localhost:4318", "--otel-resource-attributes", "a=1,b=2",
                  "--stream", "metrics", "--otel-encoding", "json", "--mlflow-tracking-uri",
                  "http://127.0.0.1:5000", "--mlflow-experiment", "e", "--mlflow-run-name", "r",
                  "--mlflow-tag", "k=v", "--mlflow-tag", "x=y=z", "--mlflow-parent-run-id", "p1",
                  "--mlflow-artifact-glob", "*.json"});
  ASSERT_TRUE(r) << r.error().message;
  const auto& c = r->config;
  EXPECT_TRUE(c.export_http_trace && c.show_trace_timing && c.export_outputs_json);
  EXPECT_EQ(c.otel_resource_attributes, (std::vector<std::string>{"a=1", "b=2"}));
  EXPECT_EQ(c.otel_stream, "metrics");
  EXPECT_EQ(c.otel_encoding, "json");
  EXPECT_EQ(c.mlflow_tags, (std::vector<std::string>{"k=v", "x=y=z"}));
  EXPECT_EQ(c.mlflow_parent_run_id, "p1");
  EXPECT_EQ(c.mlflow_artifact_globs, (std::vector<std::string>{"*.json"}));
}

TEST(SinkFlags, RefusedAndBadValues) {
  for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{
           {"--wandb-project", "p"}, {"--wandb-entity", "e"}, {"--wandb-run-name", "r"},
           {"--wandb-tag", "t"}, {"--otel-url", "ftp://x"}, {"--mlflow-tracking-uri", "databricks"},
           {"--mlflow-tag", "nokey"}, {"--otel-encoding", "xml"}}) {
    auto r = parse({flag, value});
    ASSERT_FALSE(r) << flag;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(r.error().message.find(flag), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace servebench
