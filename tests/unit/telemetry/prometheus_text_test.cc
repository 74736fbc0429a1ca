#include "telemetry/prometheus_text.h"

#include <cmath>

#include <gtest/gtest.h>

namespace servebench::telemetry::prom {
namespace {

std::vector<Family> parse_ok(std::string_view text, Format format = Format::kPrometheusText) {
  auto r = parse_exposition(text, format);
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r ? *r : std::vector<Family>{};
}

std::string parse_err(std::string_view text, Format format = Format::kPrometheusText) {
  auto r = parse_exposition(text, format);
  EXPECT_FALSE(r.has_value());
  return r ? "" : r.error().message;
}

TEST(PrometheusText, CounterGaugeHelpAndType) {
  auto fams = parse_ok(
      "# HELP http_requests_total The total number of requests.\n"
      "# TYPE http_requests_total counter\n"
      "http_requests_total{method=\"post\",code=\"200\"} 1027 1395066363000\n"
      "http_requests_total{method=\"post\",code=\"400\"}    3 1395066363000\n"
      "\n"
      "# a free comment\n"
      "# TYPE temp gauge\n"
      "temp -3.5\n");
  ASSERT_EQ(fams.size(), 2u);
  EXPECT_EQ(fams[0].name, "http_requests_total");
  EXPECT_EQ(fams[0].type, MetricType::kCounter);
  EXPECT_EQ(fams[0].help, "The total number of requests.");
  ASSERT_EQ(fams[0].samples.size(), 2u);
  const Sample& s = fams[0].samples[1];
  EXPECT_EQ(s.name, "http_requests_total");
  ASSERT_EQ(s.labels.size(), 2u);
  EXPECT_EQ(s.labels[0], (std::pair<std::string, std::string>{"method", "post"}));
  EXPECT_EQ(s.labels[1].second, "400");
  EXPECT_EQ(s.value, 3);
  EXPECT_EQ(s.timestamp_ms, 1395066363000);
  EXPECT_EQ(fams[1].type, MetricType::kGauge);
  EXPECT_EQ(fams[1].samples[0].value, -3.5);
  EXPECT_FALSE(fams[1].samples[0].timestamp_ms.has_value());
}

TEST(PrometheusText, LabelEscapes) {
  auto fams = parse_ok(R"(m{path="C:\\DIR\\FILE.TXT",err="Cannot find file:\n\"FILE.TXT\"",odd="a\tb"} 1)"
                       "\n");
  ASSERT_EQ(fams.size(), 1u);
  const auto& l = fams[0].samples[0].labels;
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0].second, "C:\\DIR\\FILE.TXT");
  EXPECT_EQ(l[1].second, "Cannot find file:\n\"FILE.TXT\"");
  EXPECT_EQ(l[2].second, "a\\tb");  // unknown escape kept as written
}

TEST(PrometheusText, HelpEscapesDifferByFormat) {
  auto prom = parse_ok("# HELP m a\\\\b\\nc \\\"q\\\"\nm 1\n");
  EXPECT_EQ(prom[0].help, "a\\b\nc \\\"q\\\"");
  auto om = parse_ok("# HELP m a\\\\b\\nc \\\"q\\\"\nm 1\n# EOF\n", Format::kOpenMetrics);
  EXPECT_EQ(om[0].help, "a\\b\nc \"q\"");
}

TEST(PrometheusText, SpecialValues) {
  auto fams = parse_ok("a NaN\nb +Inf\nc -Inf\nd nan\ne inf\nf 1e3\ng -0.5e-2\nh +7\ni .5\n");
  ASSERT_EQ(fams.size(), 9u);
  EXPECT_TRUE(std::isnan(fams[0].samples[0].value));
  EXPECT_EQ(fams[1].samples[0].value, INFINITY);
  EXPECT_EQ(fams[2].samples[0].value, -INFINITY);
  EXPECT_TRUE(std::isnan(fams[3].samples[0].value));
  EXPECT_EQ(fams[4].samples[0].value, INFINITY);
  EXPECT_EQ(fams[5].samples[0].value, 1000);
  EXPECT_EQ(fams[6].samples[0].value, -0.005);
  EXPECT_EQ(fams[7].samples[0].value, 7);
  EXPECT_EQ(fams[8].samples[0].value, 0.5);
  for (const auto& f : fams) EXPECT_EQ(f.type, MetricType::kUntyped);
}

TEST(PrometheusText, HistogramGroupsItsSeries) {
  auto fams = parse_ok(
      "# HELP lat Latency.\n# TYPE lat histogram\n"
      "lat_bucket{le=\"0.05\"} 24054\nlat_bucket{le=\"0.1\"} 33444\nlat_bucket{le=\"+Inf\"} 144320\n"
      "lat_sum 53423\nlat_count 144320\nlat_created 1.7e9\n"
      "other 1\n");
  ASSERT_EQ(fams.size(), 2u);
  EXPECT_EQ(fams[0].type, MetricType::kHistogram);
  ASSERT_EQ(fams[0].samples.size(), 6u);
  EXPECT_EQ(fams[0].samples[2].labels[0].second, "+Inf");
  EXPECT_EQ(fams[0].samples[3].name, "lat_sum");
  EXPECT_EQ(fams[0].samples[5].name, "lat_created");
  EXPECT_EQ(fams[1].name, "other");
}

TEST(PrometheusText, SummaryAndInterleavedFamilies) {
  auto fams = parse_ok(
      "# TYPE rpc summary\nrpc{quantile=\"0.5\"} 4773\nrpc_sum 1.7e7\nrpc_count 2693\n"
      "# TYPE g gauge\ng 1\nrpc{quantile=\"0.9\"} 9001\n");
  ASSERT_EQ(fams.size(), 2u);
  EXPECT_EQ(fams[0].type, MetricType::kSummary);
  EXPECT_EQ(fams[0].samples.size(), 4u);  // the late sample joins its declared family
}

TEST(PrometheusText, WhitespaceTrailingCommaAndCrLf) {
  auto fams = parse_ok("  m { a = \"1\" , b=\"2\", } 5 \r\n\tn{} 6\n");
  ASSERT_EQ(fams.size(), 2u);
  ASSERT_EQ(fams[0].samples[0].labels.size(), 2u);
  EXPECT_EQ(fams[0].samples[0].labels[1].second, "2");
  EXPECT_EQ(fams[1].samples[0].value, 6);
  EXPECT_TRUE(fams[1].samples[0].labels.empty());
}

TEST(PrometheusText, ColonsAndQuotedNames) {
  auto fams = parse_ok(
      "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"m\"} 3\n"
      "{\"my.metric\", \"label.x\"=\"y\"} 2\n");
  ASSERT_EQ(fams.size(), 2u);
  EXPECT_EQ(fams[0].samples[0].value, 3);
  EXPECT_EQ(fams[1].name, "my.metric");
  EXPECT_EQ(fams[1].samples[0].labels[0].first, "label.x");
}

TEST(PrometheusText, OpenMetricsCounterUnitTimestampsExemplars) {
  auto fams = parse_ok(
      "# TYPE req counter\n# UNIT req requests\n# HELP req Requests.\n"
      "req_total{a=\"b\"} 17 1520879607.789 # {trace_id=\"KOO5S4vxi0o\"} 0.67\n"
      "req_created{a=\"b\"} 1520430000.123\n"
      "# TYPE h histogram\nh_bucket{le=\"1.0\"} 0 # {id=\"x\"} 0.5 123.4\nh_bucket{le=\"+Inf\"} 2\n"
      "h_count 2\nh_sum 3.5\n"
      "# TYPE i info\ni_info{version=\"1\"} 1\n"
      "# TYPE s stateset\ns{s=\"a\"} 1\ns{s=\"b\"} 0\n"
      "# TYPE gh gaugehistogram\ngh_bucket{le=\"+Inf\"} 4\ngh_gcount 4\ngh_gsum 2\n"
      "u 1\n# EOF\n",
      Format::kOpenMetrics);
  ASSERT_EQ(fams.size(), 6u);
  EXPECT_EQ(fams[0].name, "req");
  EXPECT_EQ(fams[0].unit, "requests");
  EXPECT_EQ(fams[0].help, "Requests.");
  ASSERT_EQ(fams[0].samples.size(), 2u);
  EXPECT_EQ(fams[0].samples[0].timestamp_ms, 1520879607789);
  EXPECT_EQ(fams[0].samples[1].value, 1520430000.123);
  EXPECT_EQ(fams[1].samples.size(), 4u);
  EXPECT_FALSE(fams[1].samples[0].timestamp_ms.has_value());  // the exemplar's timestamp is not the sample's
  EXPECT_EQ(fams[2].type, MetricType::kInfo);
  EXPECT_EQ(fams[3].type, MetricType::kStateSet);
  EXPECT_EQ(fams[3].samples.size(), 2u);
  EXPECT_EQ(fams[4].type, MetricType::kGaugeHistogram);
  EXPECT_EQ(fams[4].samples.size(), 3u);
  EXPECT_EQ(fams[5].type, MetricType::kUnknown);
}

TEST(PrometheusText, OpenMetricsTimestampRounding) {
  auto fams = parse_ok("a 1 1.0005\nb 1 -2.25\nc 1 12\nd 1 1.5e3\n# EOF", Format::kOpenMetrics);
  ASSERT_EQ(fams.size(), 4u);
  EXPECT_EQ(fams[0].samples[0].timestamp_ms, 1001);
  EXPECT_EQ(fams[1].samples[0].timestamp_ms, -2250);
  EXPECT_EQ(fams[2].samples[0].timestamp_ms, 12000);
  EXPECT_EQ(fams[3].samples[0].timestamp_ms, 1500000);
}

TEST(PrometheusText, OpenMetricsStructureErrors) {
  EXPECT_NE(parse_err("a 1\n", Format::kOpenMetrics).find("# EOF"), std::string::npos);
  EXPECT_NE(parse_err("a 1\n# EOF\nb 2\n", Format::kOpenMetrics).find("line 3"), std::string::npos);
  EXPECT_NE(parse_err("a 1\n\n# EOF\n", Format::kOpenMetrics).find("line 2: blank"), std::string::npos);
  // The Prometheus text format has no EOF marker: "# EOF" is a comment there.
  EXPECT_EQ(parse_ok("a 1\n# EOF\nb 2\n").size(), 2u);
}

TEST(PrometheusText, ErrorsNameTheLine) {
  EXPECT_NE(parse_err("ok 1\nm{a=1} 2\n").find("line 2: label value not quoted"), std::string::npos);
  EXPECT_NE(parse_err("m{a=\"1\" 2\n").find("line 1:"), std::string::npos);
  EXPECT_NE(parse_err("m{a=\"1} 2\n").find("unterminated label value"), std::string::npos);
  EXPECT_NE(parse_err("m abc\n").find("bad value 'abc'"), std::string::npos);
  EXPECT_NE(parse_err("m 1 12.5\n").find("bad timestamp"), std::string::npos);
  EXPECT_NE(parse_err("m 1 2 3\n").find("unexpected text"), std::string::npos);
  EXPECT_NE(parse_err("m{a=\"1\",a=\"2\"} 1\n").find("duplicate label 'a'"), std::string::npos);
  EXPECT_NE(parse_err("# TYPE m bogus\n").find("unknown metric type 'bogus'"), std::string::npos);
  EXPECT_NE(parse_err("# TYPE m gauge\n# TYPE m counter\n").find("second # TYPE"), std::string::npos);
  EXPECT_NE(parse_err("m 1\n# TYPE m gauge\n").find("after its samples"), std::string::npos);
  EXPECT_NE(parse_err("9m 1\n").find("expected a metric name"), std::string::npos);
  EXPECT_NE(parse_err("m\n").find("expected a blank"), std::string::npos);
  EXPECT_NE(parse_err("{a=\"b\"} 1\n").find("without a metric name"), std::string::npos);
  EXPECT_NE(parse_err("m 1e999999x\n").find("bad value"), std::string::npos);
}

TEST(PrometheusText, OverflowingValuesSaturate) {
  auto fams = parse_ok("a 1e999\nb 1e-999\n");
  EXPECT_EQ(fams[0].samples[0].value, INFINITY);
  EXPECT_EQ(fams[1].samples[0].value, 0.0);
}

TEST(PrometheusText, ContentTypeChoosesFormat) {
  EXPECT_EQ(format_from_content_type("application/openmetrics-text; version=1.0.0; charset=utf-8"),
            Format::kOpenMetrics);
  EXPECT_EQ(format_from_content_type("text/plain; version=0.0.4"), Format::kPrometheusText);
  EXPECT_EQ(format_from_content_type(""), Format::kPrometheusText);
  EXPECT_STREQ(metric_type_name(MetricType::kGaugeHistogram), "gaugehistogram");
}

}  // namespace
}  // namespace servebench::telemetry::prom
