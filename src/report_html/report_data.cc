#include "report_html/report_data.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <utility>

#include "export/artifacts.h"
#include "metrics/metric_info.h"
#include "report_html/data_json.h"
#include "report_html/distributions.h"
#include "report_html/time_series.h"

namespace servebench::report_html {
namespace internal {

Json rounded(double x, int digits) {
  if (!std::isfinite(x)) return nullptr;
  if (x == 0) return 0;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(x)))));
  return std::round(x * scale) / scale;
}

Json rounded_array(const std::vector<double>& v, int digits) {
  Json a = Json::array();
  for (double x : v) a.push_back(rounded(x, digits));
  return a;
}

Json histogram_json(const Histogram& h) {
  return Json{{"edges", rounded_array(h.edges, 6)}, {"counts", h.counts}};
}

Json cdf_json(const Cdf& c) { return Json{{"x", rounded_array(c.x, 6)}, {"y", rounded_array(c.y, 6)}}; }

namespace {

Json band_json(const Band& b) {
  return Json{{"p10", rounded_array(b.p10)}, {"p50", rounded_array(b.p50)},
              {"p90", rounded_array(b.p90)}, {"p99", rounded_array(b.p99)},
              {"max", rounded_array(b.max)}};
}

}  // namespace

Json time_series_json(const TimeSeries& ts) {
  Json errors = Json::object();
  for (const auto& [kind, counts] : ts.errors) errors[kind] = counts;
  Json j{{"bin_s", ts.bin_s},
         {"t_s", rounded_array(ts.t_s, 8)},
         {"sends_per_s", rounded_array(ts.sends_per_s)},
         {"intended_per_s", rounded_array(ts.intended_per_s)},
         {"completions_per_s", rounded_array(ts.completions_per_s)},
         {"output_tokens_per_s", rounded_array(ts.output_tokens_per_s)},
         {"concurrency", rounded_array(ts.concurrency)},
         {"ttft_ms", band_json(ts.ttft_ms)},
         {"latency_ms", band_json(ts.latency_ms)},
         {"lag_ms", band_json(ts.lag_ms)},
         {"errors", errors}};
  return j;
}

}  // namespace internal

namespace {

using internal::Json;
namespace fs = std::filesystem;

Json parse_or(const std::string& text, Json fallback) {
  Json j = Json::parse(text, nullptr, false);
  return j.is_discarded() ? fallback : j;
}

double fixed2(double x) { return std::round(x * 100.0) / 100.0; }

Json run_json(const RunMeta& m) {
  return Json{{"benchmark_id", m.benchmark_id}, {"model", m.model},
              {"endpoint_type", m.endpoint_type}, {"streaming", m.streaming},
              {"load_mode", m.load_mode}, {"start_time", m.start_time},
              {"end_time", m.end_time}, {"cli_command", m.cli_command},
              {"was_cancelled", m.was_cancelled}};
}

Json metrics_json(const RunMeta& m) {
  Json rows = Json::array();
  for (const auto& r : m.metrics) {
    Json stats = Json::object();
    for (const auto& [k, v] : r.stats) stats[k] = v;  // exact: the file's numbers
    rows.push_back({{"tag", r.tag}, {"header", r.header}, {"unit", r.unit},
                    {"servebench", r.servebench}, {"stats", stats}});
  }
  return rows;
}

// Numbers as nlohmann's dump writes them (its own shortest-digits routine, "5.0" for integral
// doubles, null for NaN/inf), appended straight to a string.
void put_double(std::string* out, double x) {
  if (!std::isfinite(x)) {
    out->append("null");
    return;
  }
  char buf[64];
  out->append(buf, nlohmann::detail::to_chars(buf, buf + sizeof buf, x));
}

void put_uint(std::string* out, uint64_t v) {
  char buf[24];
  out->append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// The timeline's per-request arrays (every `stride`-th request), times from `origin`, as JSON
// text: up to 100,000 requests times four arrays, which as nlohmann values (one allocation per
// element, then the serializer) were most of report.html's cost at the end of a long run. The
// text is what dump() gives for the same values (report_data_test's golden file).
std::string requests_text(const RequestColumns& c, int64_t origin, size_t max_requests) {
  const size_t n = c.size();
  const size_t stride = n <= max_requests || max_requests == 0 ? 1 : (n + max_requests - 1) / max_requests;
  const size_t kept = n == 0 ? 0 : (n - 1) / stride + 1;
  std::string start, first, dur, err;
  start.reserve(kept * 10);
  first.reserve(kept * 6);
  dur.reserve(kept * 6);
  err.reserve(kept * 2);
  Json kinds = Json::array({"ok"});
  std::vector<int> kind_index(256, -1);
  kind_index[0] = 0;
  for (size_t i = 0; i < n; i += stride) {
    const char* sep = i == 0 ? "" : ",";
    const int64_t s = c.start_ns[i];
    start.append(sep);
    put_double(&start, fixed2(static_cast<double>(s - origin) / 1e6));
    first.append(sep);
    if (c.first_ns[i] > 0) {
      put_double(&first, fixed2(static_cast<double>(c.first_ns[i] - s) / 1e6));
    } else {
      first.append("null");
    }
    dur.append(sep);
    put_double(&dur, fixed2(static_cast<double>(std::max<int64_t>(c.end_ns[i] - s, 0)) / 1e6));
    const uint8_t e = c.error[i];
    if (kind_index[e] < 0) {
      kind_index[e] = static_cast<int>(kinds.size());
      kinds.push_back(record::error_kind_name(static_cast<record::ErrorKind>(e)));
    }
    err.append(sep);
    put_uint(&err, static_cast<uint64_t>(kind_index[e]));
  }
  std::string out = "{\"total\":";
  put_uint(&out, n);
  out.append(",\"kept\":");
  put_uint(&out, kept);
  out.append(",\"stride\":");
  put_uint(&out, stride);
  out.append(",\"kinds\":").append(kinds.dump(-1, ' ', false, Json::error_handler_t::replace));
  for (const auto& [key, text] : {std::pair<const char*, const std::string*>{"start_ms", &start},
                                  {"first_ms", &first}, {"dur_ms", &dur}, {"error", &err}}) {
    out.append(",\"").append(key).append("\":[").append(*text).append("]");
  }
  out.push_back('}');
  return out;
}

// Histograms and CDFs of the panels' five metrics, from every request.
Json distributions_json(const RequestColumns& c) {
  static const metrics::RecordMetric kShown[] = {
      metrics::RecordMetric::kTtft, metrics::RecordMetric::kItl,
      metrics::RecordMetric::kRequestLatency, metrics::RecordMetric::kIsl,
      metrics::RecordMetric::kOsl};
  Json out = Json::array();
  for (auto m : kShown) {
    const std::vector<double>& v = c.column(m);
    Histogram h = make_histogram(v);
    if (h.counts.empty()) continue;
    const metrics::MetricInfo* info = metrics::slot_metric(m);
    int64_t count = 0;
    for (int64_t k : h.counts) count += k;
    out.push_back({{"tag", std::string(info->tag)}, {"header", std::string(info->header)},
                   {"unit", std::string(info->display_unit)}, {"count", count},
                   {"hist", internal::histogram_json(h)}, {"cdf", internal::cdf_json(make_cdf(v))}});
  }
  return out;
}

}  // namespace

Result<RunFiles> read_run_files(const std::string& dir, const std::string& prefix,
                                RequestColumns* columns) {
  const exporter::ArtifactNames names = exporter::artifact_names(prefix);
  RunFiles run;
  auto meta = read_run_meta((fs::path(dir) / names.json).string());
  if (!meta) return tl::unexpected(meta.error());
  run.meta = std::move(*meta);
  const std::string jsonl = (fs::path(dir) / names.jsonl).string();
  if (columns != nullptr) {
    run.columns = std::move(*columns);
    run.has_records = true;
  } else if (fs::exists(jsonl)) {
    auto cols = read_request_columns(jsonl);
    if (!cols) return tl::unexpected(cols.error());
    run.columns = std::move(*cols);
    run.has_records = true;
  }
  return run;
}

std::string report_data_json(const RunFiles& run, const std::string& dir, size_t max_requests) {
  const RequestColumns& c = run.columns;
  const int64_t origin = c.origin_ns();
  // The object is written key by key, as dump() writes one, so the requests' arrays can go in
  // as text.
  std::string out = "{";
  const auto field = [&out](const char* key, const std::string& text) {
    if (out.size() > 1) out.push_back(',');
    out.append("\"").append(key).append("\":").append(text);
  };
  const auto value = [&field](const char* key, const Json& v) {
    field(key, v.dump(-1, ' ', false, Json::error_handler_t::replace));
  };
  value("kind", "report");
  value("format", 1);
  value("run", run_json(run.meta));
  value("warnings", run.meta.warnings);
  value("config", parse_or(run.meta.input_config_json, Json::object()));
  value("errors", parse_or(run.meta.error_summary_json, Json::array()));
  value("metrics", metrics_json(run.meta));
  value("has_records", run.has_records);
  value("origin_ns", origin);
  if (run.has_records && c.size() > 0) {
    field("requests", requests_text(c, origin, max_requests));
    value("distributions", distributions_json(c));
    value("series", internal::time_series_json(make_time_series(c)));
  }
  if (!dir.empty()) {
    Json server = internal::server_metrics_panel((fs::path(dir) / "server_metrics_export.json").string());
    if (!server.is_null()) value("server_metrics", server);
    Json gpu = internal::gpu_panel((fs::path(dir) / "gpu_telemetry_export.jsonl").string(), origin);
    if (!gpu.is_null()) value("gpu", gpu);
  }
  out.push_back('}');
  return out;
}

Result<std::string> build_report_data(const DataOptions& options) {
  auto run = read_run_files(options.artifact_dir, options.profile_export_prefix);
  if (!run) return tl::unexpected(run.error());
  return report_data_json(*run, options.artifact_dir, options.max_requests);
}

}  // namespace servebench::report_html
