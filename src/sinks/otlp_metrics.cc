// Encoders for ExportMetricsServiceRequest (opentelemetry/proto/collector/metrics/v1). Field
// numbers (opentelemetry-proto metrics/v1/metrics.proto, common/v1/common.proto,
// resource/v1/resource.proto):
//   ExportMetricsServiceRequest: 1 resource_metrics
//   ResourceMetrics: 1 resource, 2 scope_metrics        Resource: 1 attributes
//   ScopeMetrics: 1 scope, 2 metrics                     InstrumentationScope: 1 name, 2 version
//   KeyValue: 1 key, 2 value                             AnyValue: 1 string_value
//   Metric: 1 name, 2 description, 3 unit, 7 sum, 9 histogram
//   Sum: 1 data_points, 2 aggregation_temporality, 3 is_monotonic
//   NumberDataPoint: 7 attributes, 2 start_time_unix_nano (fixed64), 3 time_unix_nano (fixed64),
//                    6 as_int (sfixed64)
//   Histogram: 1 data_points, 2 aggregation_temporality
//   HistogramDataPoint: 9 attributes, 2 start_time_unix_nano (fixed64), 3 time_unix_nano
//                       (fixed64), 4 count (fixed64), 5 sum (double), 6 bucket_counts (packed
//                       fixed64), 7 explicit_bounds (packed double), 11 min, 12 max (double)
// AggregationTemporality CUMULATIVE = 2.
#include "sinks/otlp_metrics.h"

#include <fmt/format.h>

#include <cstring>

#include "core/json_text.h"

namespace servebench::sinks {

void HistogramPoint::add(double v) {
  if (counts.size() != bounds.size() + 1) counts.assign(bounds.size() + 1, 0);
  size_t i = 0;
  while (i < bounds.size() && v > bounds[i]) ++i;
  ++counts[i];
  min = count == 0 ? v : std::min(min, v);
  max = count == 0 ? v : std::max(max, v);
  ++count;
  sum += v;
}

namespace {

constexpr int kCumulative = 2;

// ---- JSON ----
std::string str(std::string_view s) {
  std::string out;
  core::append_json_string(s, &out);
  return out;
}
std::string num(double d) { return fmt::format("{}", d); }

std::string attrs_json(const Attributes& a) {
  std::string out = "[";
  for (size_t i = 0; i < a.size(); ++i) {
    if (i) out += ',';
    out += "{\"key\":" + str(a[i].first) + ",\"value\":{\"stringValue\":" + str(a[i].second) + "}}";
  }
  return out + "]";
}

std::string metric_json(const Metric& m, const MetricsExport& e) {
  const std::string times = fmt::format("\"startTimeUnixNano\":\"{}\",\"timeUnixNano\":\"{}\"",
                                        e.start_unix_ns, e.time_unix_ns);
  std::string out = "{\"name\":" + str(m.name) + ",\"description\":" + str(m.description) +
                    ",\"unit\":" + str(m.unit) + ",";
  std::string points;
  if (m.is_histogram) {
    for (const HistogramPoint& p : m.histograms) {
      if (!points.empty()) points += ',';
      std::string counts, bounds;
      for (size_t i = 0; i < p.counts.size(); ++i) counts += (i ? ",\"" : "\"") + std::to_string(p.counts[i]) + "\"";
      for (size_t i = 0; i < p.bounds.size(); ++i) bounds += (i ? "," : "") + num(p.bounds[i]);
      points += "{\"attributes\":" + attrs_json(p.attributes) + "," + times +
                fmt::format(",\"count\":\"{}\",\"sum\":{}", p.count, num(p.sum)) +
                ",\"bucketCounts\":[" + counts + "],\"explicitBounds\":[" + bounds + "]" +
                (p.count ? ",\"min\":" + num(p.min) + ",\"max\":" + num(p.max) : "") + "}";
    }
    out += fmt::format("\"histogram\":{{\"dataPoints\":[{}],\"aggregationTemporality\":{}}}}}",
                       points, kCumulative);
  } else {
    for (const SumPoint& p : m.sums) {
      if (!points.empty()) points += ',';
      points += "{\"attributes\":" + attrs_json(p.attributes) + "," + times +
                fmt::format(",\"asInt\":\"{}\"}}", p.value);
    }
    out += fmt::format(
        "\"sum\":{{\"dataPoints\":[{}],\"aggregationTemporality\":{},\"isMonotonic\":true}}}}",
        points, kCumulative);
  }
  return out;
}

// ---- protobuf ----
void varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
void tag(std::string* out, int field, int wire) { varint(out, (static_cast<uint64_t>(field) << 3) | wire); }
void bytes_field(std::string* out, int field, std::string_view b) {
  tag(out, field, 2);
  varint(out, b.size());
  out->append(b);
}
void fixed64_raw(std::string* out, uint64_t v) {
  char b[8];
  std::memcpy(b, &v, 8);  // little-endian hosts only (x86-64, aarch64)
  out->append(b, 8);
}
void fixed64(std::string* out, int field, uint64_t v) {
  tag(out, field, 1);
  fixed64_raw(out, v);
}
void dbl(std::string* out, int field, double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  fixed64(out, field, v);
}
void uint_field(std::string* out, int field, uint64_t v) {
  tag(out, field, 0);
  varint(out, v);
}

std::string kv_pb(const std::pair<std::string, std::string>& kv) {
  std::string any, out;
  bytes_field(&any, 1, kv.second);
  bytes_field(&out, 1, kv.first);
  bytes_field(&out, 2, any);
  return out;
}

std::string hist_point_pb(const HistogramPoint& p, const MetricsExport& e) {
  std::string out;
  fixed64(&out, 2, e.start_unix_ns);
  fixed64(&out, 3, e.time_unix_ns);
  fixed64(&out, 4, p.count);
  dbl(&out, 5, p.sum);
  std::string packed;
  for (uint64_t c : p.counts) fixed64_raw(&packed, c);
  bytes_field(&out, 6, packed);
  packed.clear();
  for (double b : p.bounds) {
    uint64_t v;
    std::memcpy(&v, &b, 8);
    fixed64_raw(&packed, v);
  }
  bytes_field(&out, 7, packed);
  for (const auto& kv : p.attributes) bytes_field(&out, 9, kv_pb(kv));
  if (p.count) {
    dbl(&out, 11, p.min);
    dbl(&out, 12, p.max);
  }
  return out;
}

std::string sum_point_pb(const SumPoint& p, const MetricsExport& e) {
  std::string out;
  fixed64(&out, 2, e.start_unix_ns);
  fixed64(&out, 3, e.time_unix_ns);
  fixed64(&out, 6, static_cast<uint64_t>(p.value));  // sfixed64: same bytes
  for (const auto& kv : p.attributes) bytes_field(&out, 7, kv_pb(kv));
  return out;
}

std::string metric_pb(const Metric& m, const MetricsExport& e) {
  std::string out, body;
  bytes_field(&out, 1, m.name);
  bytes_field(&out, 2, m.description);
  bytes_field(&out, 3, m.unit);
  if (m.is_histogram) {
    for (const auto& p : m.histograms) bytes_field(&body, 1, hist_point_pb(p, e));
    uint_field(&body, 2, kCumulative);
    bytes_field(&out, 9, body);
  } else {
    for (const auto& p : m.sums) bytes_field(&body, 1, sum_point_pb(p, e));
    uint_field(&body, 2, kCumulative);
    uint_field(&body, 3, 1);
    bytes_field(&out, 7, body);
  }
  return out;
}

}  // namespace

std::string encode_json(const MetricsExport& e) {
  std::string metrics;
  for (const Metric& m : e.metrics) {
    if (!metrics.empty()) metrics += ',';
    metrics += metric_json(m, e);
  }
  return "{\"resourceMetrics\":[{\"resource\":{\"attributes\":" + attrs_json(e.resource) +
         "},\"scopeMetrics\":[{\"scope\":{\"name\":" + str(e.scope_name) +
         ",\"version\":" + str(e.scope_version) + "},\"metrics\":[" + metrics + "]}]}]}";
}

std::string encode_protobuf(const MetricsExport& e) {
  std::string resource, scope, scope_metrics, resource_metrics, out;
  for (const auto& kv : e.resource) bytes_field(&resource, 1, kv_pb(kv));
  bytes_field(&scope, 1, e.scope_name);
  bytes_field(&scope, 2, e.scope_version);
  bytes_field(&scope_metrics, 1, scope);
  for (const Metric& m : e.metrics) bytes_field(&scope_metrics, 2, metric_pb(m, e));
  bytes_field(&resource_metrics, 1, resource);
  bytes_field(&resource_metrics, 2, scope_metrics);
  bytes_field(&out, 1, resource_metrics);
  return out;
}

}  // namespace servebench::sinks
