#include "telemetry/server_export.h"

#include <cmath>
#include <ctime>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace servebench::telemetry {
namespace {

using nlohmann::json;
using prom::MetricType;

const char* kGaugeKeys[] = {"avg", "min", "max", "std", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"};
const char* kCounterKeys[] = {"total", "rate", "rate_avg", "rate_min", "rate_max", "rate_std"};
const char* kHistogramKeys[] = {"count", "count_rate", "sum", "sum_rate", "avg",
                                "p1_estimate", "p5_estimate", "p10_estimate", "p25_estimate",
                                "p50_estimate", "p75_estimate", "p90_estimate", "p95_estimate",
                                "p99_estimate"};

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// JSON has no NaN/Inf: such a statistic is left out (null in CSV terms).
void put(json& obj, const char* key, double v) {
  if (std::isfinite(v)) obj[key] = v;
}

json gauge_json(const GaugeStats& g) {
  json o = json::object();
  put(o, "avg", g.avg);
  put(o, "min", g.min);
  put(o, "max", g.max);
  put(o, "std", g.std);
  for (size_t i = 0; i < kServerPercentiles.size(); ++i) put(o, kGaugeKeys[4 + i], g.p[i]);
  return o;
}

json counter_json(const CounterStats& c) {
  json o = json::object();
  put(o, "total", c.total);
  put(o, "rate", c.rate);
  if (c.has_rates) {
    put(o, "rate_avg", c.rate_avg);
    put(o, "rate_min", c.rate_min);
    put(o, "rate_max", c.rate_max);
    put(o, "rate_std", c.rate_std);
  }
  return o;
}

json histogram_json(const HistogramStats& h) {
  json o = json::object();
  if (std::isfinite(h.count)) o["count"] = static_cast<int64_t>(std::llround(h.count));
  put(o, "count_rate", h.count_rate);
  put(o, "sum", h.sum);
  put(o, "sum_rate", h.sum_rate);
  put(o, "avg", h.avg);
  if (h.has_estimate) {
    for (size_t i = 0; i < kServerPercentiles.size(); ++i) put(o, kHistogramKeys[5 + i], h.p_estimate[i]);
  }
  return o;
}

json buckets_json(const HistogramStats& h) {
  json o = json::object();
  for (const auto& [le, c] : h.buckets) o[le] = static_cast<int64_t>(std::llround(c));
  return o;
}

json slice_json(const SliceStats& s, const core::WallAnchor& anchor) {
  json o = {{"start_ns", anchor.to_wall_ns(s.start_ns)}, {"end_ns", anchor.to_wall_ns(s.end_ns)}};
  if (!s.complete) o["is_complete"] = false;
  if (s.gauge) {
    put(o, "avg", s.gauge->avg);
    put(o, "min", s.gauge->min);
    put(o, "max", s.gauge->max);
  } else if (s.counter) {
    put(o, "total", s.counter->total);
    put(o, "rate", s.counter->rate);
  } else if (s.histogram) {
    o["count"] = static_cast<int64_t>(std::llround(s.histogram->count));
    put(o, "sum", s.histogram->sum);
    put(o, "avg", s.histogram->avg);
    o["buckets"] = buckets_json(*s.histogram);
  }
  return o;
}

const char* type_name(MetricType t) {
  return t == MetricType::kUnknown ? "unknown" : prom::metric_type_name(t);
}

std::string description(const ServerReport& report, const SeriesReport& s) {
  for (const std::string& name : {s.metric, s.metric + "_total", s.metric + "_created"}) {
    auto it = report.families.find(name);
    if (it != report.families.end()) return it->second.help;
  }
  return "";
}

std::string declared_unit(const ServerReport& report, const SeriesReport& s) {
  auto it = report.families.find(s.metric);
  return it == report.families.end() ? "" : it->second.unit;
}

std::string iso_time(int64_t wall_ns) {
  std::time_t secs = static_cast<std::time_t>(wall_ns / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:06d}", buf, (wall_ns % 1'000'000'000) / 1000);
}

json endpoint_info(const EndpointFacts& f, const core::WallAnchor& anchor) {
  const int64_t ok = f.fetches - f.errors;
  return {{"total_fetches", f.fetches},
          {"failed_fetches", f.errors},
          {"first_fetch_ns", anchor.to_wall_ns(f.first_ns)},
          {"last_fetch_ns", anchor.to_wall_ns(f.last_ns)},
          {"avg_fetch_latency_ms", ok > 0 ? static_cast<double>(f.latency_sum_ns) / ok / 1e6 : 0.0},
          {"duration_seconds", static_cast<double>(f.last_ns - f.first_ns) / 1e9}};
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_number(double v) {
  if (!std::isfinite(v)) return "";
  return fmt::format("{:.4f}", v);
}

std::string endpoint_display(const std::string& url) {
  std::string s = url;
  if (size_t p = s.find("://"); p != std::string::npos) s = s.substr(p + 3);
  if (ends_with(s, "/metrics")) s.resize(s.size() - 8);
  return s;
}

std::vector<std::string> stat_cells(const SeriesReport& s) {
  std::vector<std::string> cells;
  if (s.gauge) {
    json j = gauge_json(*s.gauge);
    for (const char* k : kGaugeKeys) cells.push_back(j.contains(k) ? csv_number(j[k].get<double>()) : "");
  } else if (s.counter) {
    json j = counter_json(*s.counter);
    for (const char* k : kCounterKeys) cells.push_back(j.contains(k) ? csv_number(j[k].get<double>()) : "");
  } else if (s.histogram) {
    json j = histogram_json(*s.histogram);
    for (const char* k : kHistogramKeys) {
      if (!j.contains(k)) {
        cells.push_back("");
      } else if (std::string(k) == "count") {
        cells.push_back(std::to_string(j[k].get<int64_t>()));
      } else {
        cells.push_back(csv_number(j[k].get<double>()));
      }
    }
  }
  return cells;
}

}  // namespace

std::string infer_unit(const std::string& metric, const std::string& declared) {
  static const std::pair<std::string_view, const char*> kSuffixes[] = {
      {"_seconds", "seconds"}, {"_milliseconds", "milliseconds"}, {"_ms", "milliseconds"},
      {"_bytes", "bytes"},     {"_perc", "ratio"},                {"_percent", "percent"},
      {"_ratio", "ratio"},     {"_tokens", "tokens"},             {"_requests", "requests"}};
  std::string base = ends_with(metric, "_total") ? metric.substr(0, metric.size() - 6) : metric;
  for (const auto& [suffix, unit] : kSuffixes) {
    if (ends_with(base, suffix)) return unit;
  }
  return declared;
}

std::string render_server_json(const ServerReport& report, const std::vector<EndpointFacts>& facts,
                               const std::vector<ReconcileRow>& rows, const ExportContext& ctx) {
  json doc;
  doc["schema_version"] = "1.0";
  if (!ctx.benchmark_id.empty()) doc["benchmark_id"] = ctx.benchmark_id;
  json summary;
  summary["endpoints_configured"] = ctx.endpoints_configured;
  json ok = json::array(), info = json::object();
  for (const auto& f : facts) {
    if (f.live) ok.push_back(f.url);
    if (f.fetches > 0) info[f.url] = endpoint_info(f, ctx.anchor);
  }
  summary["endpoints_successful"] = ok;
  summary["start_time"] = iso_time(ctx.anchor.to_wall_ns(report.window.start_ns));
  summary["end_time"] = iso_time(ctx.anchor.to_wall_ns(report.window.end_ns));
  summary["endpoint_info"] = info;
  doc["summary"] = summary;
  json metrics = json::object();
  for (const auto& s : report.series) {
    json& m = metrics[s.metric];
    if (m.is_null()) {
      m["type"] = type_name(s.type);
      m["description"] = description(report, s);
      if (auto unit = infer_unit(s.metric, declared_unit(report, s)); !unit.empty()) m["unit"] = unit;
      m["series"] = json::array();
    }
    json e;
    e["endpoint_url"] = report.endpoints[s.endpoint];
    for (const auto& [k, v] : s.labels) e["labels"][k] = v;
    if (s.gauge) e["stats"] = gauge_json(*s.gauge);
    if (s.counter) e["stats"] = counter_json(*s.counter);
    if (s.histogram) {
      e["stats"] = histogram_json(*s.histogram);
      e["buckets"] = buckets_json(*s.histogram);
    }
    if (!s.slices.empty()) {
      e["timeslices"] = json::array();
      for (const auto& sl : s.slices) e["timeslices"].push_back(slice_json(sl, ctx.anchor));
    }
    m["series"].push_back(std::move(e));
  }
  doc["metrics"] = std::move(metrics);
  if (!report.unsupported.empty()) doc["unsupported_metrics"] = report.unsupported;
  json rec = json::object();
  rec["rows"] = json::array();
  for (const auto& r : rows) {
    json o = {{"quantity", r.quantity},           {"server_metric", r.server_metric},
              {"server_count", r.server_count},   {"client_count", r.client_count},
              {"server_avg_ms", r.server_avg_ms}, {"client_avg_ms", r.client_avg_ms},
              {"difference_avg_ms", r.diff_avg_ms}};
    auto opt = [&o](const char* k, const std::optional<double>& v) {
      if (v && std::isfinite(*v)) o[k] = *v;
    };
    opt("server_p50_estimate_ms", r.server_p50_ms);
    opt("client_p50_ms", r.client_p50_ms);
    opt("difference_p50_ms", r.diff_p50_ms);
    opt("server_p99_estimate_ms", r.server_p99_ms);
    opt("client_p99_ms", r.client_p99_ms);
    opt("difference_p99_ms", r.diff_p99_ms);
    rec["rows"].push_back(std::move(o));
  }
  rec["caveats"] = reconcile_caveats();
  doc["reconciliation"] = std::move(rec);
  if (!ctx.input_config_json.empty()) {
    json cfg = json::parse(ctx.input_config_json, nullptr, false);
    if (!cfg.is_discarded()) doc["input_config"] = std::move(cfg);
  }
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string render_server_csv(const ServerReport& report, const ExportContext& ctx) {
  std::string out = "# servebench server metrics export (CSV)\n# schema_version: 1.0\n";
  if (!ctx.benchmark_id.empty()) out += "# benchmark_id: " + ctx.benchmark_id + "\n";
  out += "#\n";
  bool first = true;
  for (MetricType type : {MetricType::kGauge, MetricType::kCounter, MetricType::kHistogram}) {
    std::vector<const SeriesReport*> rows;
    std::set<std::string> label_names;
    for (const auto& s : report.series) {
      bool gauge_like = s.type == MetricType::kGauge || s.type == MetricType::kUnknown;
      if (type == MetricType::kGauge ? !gauge_like : s.type != type) continue;
      rows.push_back(&s);
      for (const auto& kv : s.labels) label_names.insert(kv.first);
    }
    if (rows.empty()) continue;
    if (!first) out += "\n";
    first = false;
    std::vector<std::string> header = {"Endpoint", "Type", "Metric", "Unit"};
    if (type == MetricType::kGauge) header.insert(header.end(), std::begin(kGaugeKeys), std::end(kGaugeKeys));
    if (type == MetricType::kCounter) header.insert(header.end(), std::begin(kCounterKeys), std::end(kCounterKeys));
    if (type == MetricType::kHistogram)
      header.insert(header.end(), std::begin(kHistogramKeys), std::end(kHistogramKeys));
    header.insert(header.end(), label_names.begin(), label_names.end());
    header.push_back("Description");
    if (type == MetricType::kHistogram) header.push_back("buckets");
    std::vector<std::string> cells;
    for (const auto& h : header) cells.push_back(csv_field(h));
    out += fmt::format("{}\n", fmt::join(cells, ","));
    for (const SeriesReport* s : rows) {
      cells = {csv_field(endpoint_display(report.endpoints[s->endpoint])), type_name(s->type),
               csv_field(s->metric), infer_unit(s->metric, declared_unit(report, *s))};
      for (auto& c : stat_cells(*s)) cells.push_back(std::move(c));
      for (const auto& name : label_names) {
        std::string v;
        for (const auto& kv : s->labels) {
          if (kv.first == name) v = kv.second;
        }
        cells.push_back(csv_field(v));
      }
      cells.push_back(csv_field(description(report, *s)));
      if (s->histogram) {
        std::vector<std::string> b;
        for (const auto& [le, c] : s->histogram->buckets) b.push_back(fmt::format("{}={}", le, std::llround(c)));
        cells.push_back(csv_field(fmt::format("{}", fmt::join(b, ";"))));
      }
      out += fmt::format("{}\n", fmt::join(cells, ","));
    }
  }
  return out;
}

}  // namespace servebench::telemetry
