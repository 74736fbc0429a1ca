// OTLP encodings (sinks/otlp_metrics.h): the JSON mapping's shape and a protobuf walk of the
// wire bytes (field numbers and wire types of metrics.proto), histogram bucketing; the exporter's
// bounded queue drops the oldest batches and never blocks add(). The decode with the official
// definitions is tests/integration/sinks/otel_test.cc.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "sinks/otel_exporter.h"
#include "sinks/otlp_metrics.h"

namespace servebench::sinks {
namespace {

using Json = nlohmann::json;

MetricsExport sample_export() {
  MetricsExport e;
  e.resource = {{"service.name", "servebench"}, {"team", "perf"}};
  e.scope_version = "0.1.0";
  e.start_unix_ns = 1'700'000'000'000'000'000ULL;
  e.time_unix_ns = 1'700'000'001'000'000'000ULL;
  HistogramPoint p;
  p.bounds = {0.1, 1.0};
  p.attributes = {{"gen_ai.request.model", "m"}};
  p.add(0.05);
  p.add(0.5);
  p.add(0.5);
  p.add(3.0);
  e.metrics.push_back(Metric{"gen_ai.client.operation.duration", "d", "s", true, {p}, {}});
  e.metrics.push_back(Metric{"aiperf.timing.requests.completed", "c", "{request}", false, {},
                             {SumPoint{{{"k", "v"}}, 42}}});
  return e;
}

TEST(OtlpMetrics, HistogramBucketsAreUpperInclusive) {
  HistogramPoint p;
  p.bounds = {1, 2};
  for (double v : {0.5, 1.0, 1.5, 2.0, 2.5}) p.add(v);
  EXPECT_EQ(p.counts, (std::vector<uint64_t>{2, 2, 1}));
  EXPECT_EQ(p.count, 5u);
  EXPECT_DOUBLE_EQ(p.sum, 7.5);
  EXPECT_DOUBLE_EQ(p.min, 0.5);
  EXPECT_DOUBLE_EQ(p.max, 2.5);
}

TEST(OtlpMetrics, JsonMappingShape) {
  const Json j = Json::parse(encode_json(sample_export()));
  const Json& rm = j.at("resourceMetrics").at(0);
  EXPECT_EQ(rm["resource"]["attributes"][1]["key"], "team");
  EXPECT_EQ(rm["resource"]["attributes"][1]["value"]["stringValue"], "perf");
  const Json& metrics = rm["scopeMetrics"][0]["metrics"];
  const Json& h = metrics[0]["histogram"];
  EXPECT_EQ(h["aggregationTemporality"], 2);
  const Json& dp = h["dataPoints"][0];
  EXPECT_EQ(dp["count"], "4");  // 64-bit integers are strings in OTLP/JSON
  EXPECT_EQ(dp["bucketCounts"], Json::array({"1", "2", "1"}));
  EXPECT_EQ(dp["explicitBounds"], Json::array({0.1, 1.0}));
  EXPECT_DOUBLE_EQ(dp["sum"].get<double>(), 4.05);
  EXPECT_EQ(dp["startTimeUnixNano"], "1700000000000000000");
  const Json& sum = metrics[1]["sum"];
  EXPECT_TRUE(sum["isMonotonic"].get<bool>());
  EXPECT_EQ(sum["dataPoints"][0]["asInt"], "42");
}

// A minimal protobuf reader: the top-level fields of one message.
struct Field {
  int number = 0;
  int wire = 0;
  uint64_t varint = 0;
  std::string bytes;
};
std::vector<Field> fields(const std::string& msg) {
  std::vector<Field> out;
  size_t i = 0;
  auto varint = [&] {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const auto b = static_cast<uint8_t>(msg.at(i++));
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  };
  while (i < msg.size()) {
    const uint64_t key = varint();
    Field f;
    f.number = static_cast<int>(key >> 3);
    f.wire = static_cast<int>(key & 7);
    if (f.wire == 0) {
      f.varint = varint();
    } else if (f.wire == 1) {
      f.bytes = msg.substr(i, 8);
      i += 8;
    } else if (f.wire == 2) {
      const size_t n = varint();
      f.bytes = msg.substr(i, n);
      i += n;
    } else {
      ADD_FAILURE() << "unexpected wire type " << f.wire;
      break;
    }
    out.push_back(f);
  }
  return out;
}
const Field* first(const std::vector<Field>& fs, int n) {
  for (const auto& f : fs)
    if (f.number == n) return &f;
  return nullptr;
}
uint64_t u64(const std::string& b) {
  uint64_t v;
  std::memcpy(&v, b.data(), 8);
  return v;
}

TEST(OtlpMetrics, ProtobufWireLayout) {
  const std::string pb = encode_protobuf(sample_export());
  const auto req = fields(pb);
  ASSERT_EQ(req.size(), 1u);
  ASSERT_EQ(req[0].number, 1);  // resource_metrics
  const auto rm = fields(req[0].bytes);
  const auto resource = fields(first(rm, 1)->bytes);
  ASSERT_EQ(resource.size(), 2u);
  const auto kv = fields(resource[1].bytes);
  EXPECT_EQ(first(kv, 1)->bytes, "team");
  EXPECT_EQ(first(fields(first(kv, 2)->bytes), 1)->bytes, "perf");
  const auto sm = fields(first(rm, 2)->bytes);
  EXPECT_EQ(first(fields(first(sm, 1)->bytes), 1)->bytes, "servebench");
  std::vector<std::vector<Field>> metrics;
  for (const auto& f : sm)
    if (f.number == 2) metrics.push_back(fields(f.bytes));
  ASSERT_EQ(metrics.size(), 2u);
  EXPECT_EQ(first(metrics[0], 1)->bytes, "gen_ai.client.operation.duration");
  const auto hist = fields(first(metrics[0], 9)->bytes);
  EXPECT_EQ(first(hist, 2)->varint, 2u);  // cumulative
  const auto dp = fields(first(hist, 1)->bytes);
  EXPECT_EQ(u64(first(dp, 2)->bytes), 1'700'000'000'000'000'000ULL);
  EXPECT_EQ(u64(first(dp, 4)->bytes), 4u);
  const std::string& buckets = first(dp, 6)->bytes;  // packed fixed64
  ASSERT_EQ(buckets.size(), 24u);
  EXPECT_EQ(u64(buckets.substr(8, 8)), 2u);
  const auto sum = fields(first(metrics[1], 7)->bytes);
  EXPECT_EQ(first(sum, 3)->varint, 1u);  // is_monotonic
  const auto np = fields(first(sum, 1)->bytes);
  EXPECT_EQ(u64(first(np, 6)->bytes), 42u);
}

record::RequestRecord finished(int64_t i) {
  record::RequestRecord r;
  r.request_index = static_cast<uint64_t>(i);
  r.request_start_ns = 1'000;
  r.end_ns = 2'000'000;
  return r;
}

TEST(OtelExporter, FullQueueDropsTheOldestAndAddNeverBlocks) {
  OtelOptions o;
  o.url = "http://127.0.0.1:9";  // nothing listens; the exporter is not started
  o.max_queued_records = 3;
  OtelExporter ex(o);
  EXPECT_EQ(ex.endpoint(), "http://127.0.0.1:9/v1/metrics");
  for (int i = 0; i < 5; ++i) ex.add({finished(i), finished(i + 100)});
  const auto w = ex.warnings();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("8 records were dropped"), std::string::npos) << w[0];
}

TEST(OtelExporter, EndpointKeepsAFullMetricsUrl) {
  OtelOptions o;
  o.url = "http://collector:4318/v1/metrics";
  EXPECT_EQ(OtelExporter(o).endpoint(), "http://collector:4318/v1/metrics");
  o.url = "http://collector:4318/";
  EXPECT_EQ(OtelExporter(o).endpoint(), "http://collector:4318/v1/metrics");
}

}  // namespace
}  // namespace servebench::sinks
