#include "export/csv_export.h"

#include <algorithm>
#include <cmath>

#include "export/text_util.h"
#include "metrics/metric_info.h"
#include "metrics/stats.h"

namespace servebench::exporter {

using metrics::MetricResult;

namespace {

constexpr const char* kStatKeys[] = {"avg", "min", "max", "sum", "p1",  "p5",  "p10", "p25",
                                     "p50", "p75", "p90", "p95", "p99", "std"};

std::string metric_name(const MetricResult& m) {
  std::string name(m.info->header);
  std::string_view unit = m.info->display_unit;
  if (unit != "count" && unit != "requests") name += " (" + std::string(unit) + ")";
  return csv_field(name);
}

std::string display_value(const MetricResult& m) {
  if (m.info->has(metrics::kTimestamp)) return std::to_string(m.int_value);
  return format_number(m.info->to_display(m.value));
}

std::vector<const MetricResult*> sorted(const metrics::Summary& s, bool distributions) {
  std::vector<const MetricResult*> out;
  for (const MetricResult& m : s.metrics) {
    if (m.distribution != distributions || m.info->has(metrics::kNoCsv)) continue;
    out.push_back(&m);
  }
  std::sort(out.begin(), out.end(),
            [](const MetricResult* a, const MetricResult* b) { return a->tag() < b->tag(); });
  return out;
}

}  // namespace

std::string render_summary_csv(const metrics::Summary& s) {
  std::string out;
  auto dists = sorted(s, true);
  auto scalars = sorted(s, false);
  if (!dists.empty()) {
    out += "Metric";
    for (const char* k : kStatKeys) out += std::string(",") + k;
    out += "\n";
    for (const MetricResult* m : dists) {
      out += metric_name(*m);
      for (const char* k : kStatKeys) {
        out += ",";
        double v;
        // A statistic a row does not have (NaN: the sweep rows' p1..p25, p75, sum) stays empty.
        if (m->stats.get(k, &v) && !std::isnan(v)) {
          append_number(&out, v / m->info->display_divisor);
        }
      }
      out += "\n";
    }
    if (!scalars.empty()) out += "\n";
  }
  if (!scalars.empty()) {
    out += "Metric,Value\n";
    for (const MetricResult* m : scalars) out += metric_name(*m) + "," + display_value(*m) + "\n";
  }
  return out;
}

std::string render_timeslices_csv(const std::vector<metrics::TimeSlice>& slices,
                                  const record::RunAnchor& anchor) {
  std::string out = "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value\n";
  for (const auto& sl : slices) {
    const std::string slice_cols = std::to_string(sl.index) + "," +
                                   std::to_string(anchor.to_wall_ns(sl.start_ns)) + "," +
                                   std::to_string(anchor.to_wall_ns(sl.end_ns)) + ",";
    std::vector<const MetricResult*> sorted_metrics;
    for (const MetricResult& m : sl.summary.metrics) {
      if (!m.info->has(metrics::kNoCsv)) sorted_metrics.push_back(&m);
    }
    std::sort(sorted_metrics.begin(), sorted_metrics.end(),
              [](const MetricResult* a, const MetricResult* b) { return a->tag() < b->tag(); });
    for (const MetricResult* m : sorted_metrics) {
      const std::string prefix = slice_cols + csv_field(m->info->header) + "," +
                                 csv_field(m->info->display_unit) + ",";
      if (!m->distribution) {
        out += prefix + "avg," + display_value(*m) + "\n";
        continue;
      }
      for (const char* k : kStatKeys) {
        double v;
        if (!m->stats.get(k, &v) || std::isnan(v)) continue;
        out += prefix + k + ",";
        append_number(&out, v / m->info->display_divisor);
        out += "\n";
      }
    }
  }
  return out;
}

}  // namespace servebench::exporter
