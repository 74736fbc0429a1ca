#include "compare/compare.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "core/rng.h"
#include "report_html/request_columns.h"

namespace servebench::compare {
namespace {

struct Headline {
  const char* tag;
  Better better;
};

// Per-request distributions: rows avg, p50, p90, p99, each with an interval.
constexpr Headline kDistributions[] = {
    {"time_to_first_token", Better::kLower},
    {"time_to_second_token", Better::kLower},
    {"inter_token_latency", Better::kLower},
    {"request_latency", Better::kLower},
    {"output_token_throughput_per_user", Better::kHigher},
    {"input_sequence_length", Better::kNeither},
    {"output_sequence_length", Better::kNeither},
    {"schedule_lag", Better::kLower},
};
constexpr const char* kStats[] = {"avg", "p50", "p90", "p99"};

// Run-level values (one number per run: no interval).
constexpr Headline kScalars[] = {
    {"request_throughput", Better::kHigher},
    {"output_token_throughput", Better::kHigher},
    {"total_token_throughput", Better::kHigher},
    {"goodput", Better::kHigher},
    {"request_error_rate", Better::kLower},
    {"request_count", Better::kNeither},
    {"error_request_count", Better::kLower},
};

double stat_q(const std::string& stat) { return std::stod(stat.substr(1)); }

Verdict verdict_of(Better better, double low, double high) {
  if (low <= 0 && high >= 0) return Verdict::kNoDifference;
  const bool up = low > 0;
  switch (better) {
    case Better::kLower: return up ? Verdict::kWorse : Verdict::kBetter;
    case Better::kHigher: return up ? Verdict::kBetter : Verdict::kWorse;
    case Better::kNeither: break;
  }
  return up ? Verdict::kHigher : Verdict::kLower;
}

std::vector<double> sorted_finite(const std::vector<double>& v) {
  std::vector<double> out;
  out.reserve(v.size());
  for (double x : v) {
    if (std::isfinite(x)) out.push_back(x);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The requests' values of `tag` for every run (empty when a run has no records).
std::vector<std::vector<double>> samples(const std::vector<report_html::RunFiles>& runs,
                                         const std::string& tag) {
  std::vector<std::vector<double>> out(runs.size());
  const int col = report_html::column_index(tag);
  for (size_t i = 0; i < runs.size(); ++i) {
    if (col >= 0 && runs[i].has_records) out[i] = sorted_finite(runs[i].columns.values[col]);
  }
  return out;
}

Row make_row(const std::vector<report_html::RunFiles>& runs, const Headline& h,
             const std::string& stat, const report_html::MetricRow& first) {
  Row row;
  row.tag = h.tag;
  row.header = first.header;
  row.unit = first.unit;
  row.stat = stat;
  row.better = h.better;
  for (const auto& run : runs) {
    const report_html::MetricRow* m = run.meta.find(h.tag);
    double v = NAN;
    if (m == nullptr || !m->get(stat, &v)) v = NAN;
    row.values.push_back(v);
  }
  return row;
}

void fill_versus(Row* row, const std::vector<std::vector<double>>* s, const CompareOptions& o,
                 core::Rng* rng) {
  for (size_t i = 1; i < row->values.size(); ++i) {
    Versus v;
    v.run = i;
    v.diff = row->values[i] - row->values[0];
    if (row->values[0] != 0 && std::isfinite(row->values[0]))
      v.diff_pct = 100.0 * v.diff / std::fabs(row->values[0]);
    if (s != nullptr && !(*s)[0].empty() && !(*s)[i].empty()) {
      const Interval iv = row->stat == "avg"
                              ? mean_difference((*s)[0], (*s)[i])
                              : percentile_difference((*s)[0], (*s)[i], stat_q(row->stat),
                                                      o.resamples, rng);
      v.has_interval = true;
      v.low = iv.low;
      v.high = iv.high;
      v.verdict = verdict_of(row->better, iv.low, iv.high);
    }
    row->versus.push_back(v);
  }
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kBetter: return "better";
    case Verdict::kWorse: return "worse";
    case Verdict::kHigher: return "higher";
    case Verdict::kLower: return "lower";
    case Verdict::kNoDifference: return "no significant difference";
    case Verdict::kNotTested: break;
  }
  return "not tested";
}

Result<RegressionGate> parse_gate(const std::string& text) {
  RegressionGate g;
  g.text = text;
  std::string metric = text;
  if (const size_t colon = text.find(':'); colon != std::string::npos) {
    metric = text.substr(0, colon);
    std::string pct = text.substr(colon + 1);
    if (!pct.empty() && pct.back() == '%') pct.pop_back();
    char* end = nullptr;
    g.threshold_pct = std::strtod(pct.c_str(), &end);
    if (pct.empty() || end == nullptr || *end != '\0' || !(g.threshold_pct >= 0)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--fail-on-regression '{}': the threshold must be a "
                                    "percentage >= 0 (e.g. time_to_first_token.p99:5%)",
                                    text));
    }
  }
  if (const size_t dot = metric.find('.'); dot != std::string::npos) {
    g.stat = metric.substr(dot + 1);
    metric = metric.substr(0, dot);
  }
  g.tag = metric;
  if (g.tag.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--fail-on-regression '{}': expected METRIC[.STAT][:THRESHOLD%] "
                                  "(e.g. time_to_first_token.p99:5%)",
                                  text));
  }
  return g;
}

std::vector<std::string> run_labels(const std::vector<std::string>& dirs) {
  std::vector<std::string> labels;
  std::set<std::string> seen;
  for (size_t i = 0; i < dirs.size(); ++i) {
    std::string name = std::filesystem::path(dirs[i]).lexically_normal().filename().string();
    if (name.empty() || name == ".") name = std::filesystem::path(dirs[i]).lexically_normal().parent_path().filename().string();
    if (name.empty()) name = "run";
    std::string label = name;
    for (int k = 2; seen.count(label) != 0; ++k) label = fmt::format("{} ({})", name, k);
    seen.insert(label);
    labels.push_back(label);
  }
  return labels;
}

Comparison compare_runs(const std::vector<report_html::RunFiles>& runs,
                        const std::vector<std::string>& labels, const CompareOptions& o) {
  Comparison c;
  c.labels = labels;
  c.resamples = o.resamples;
  c.seed = o.seed;
  c.warnings = comparability_warnings(runs, labels);
  for (const Headline& h : kDistributions) {
    const report_html::MetricRow* first = runs[0].meta.find(h.tag);
    if (first == nullptr) continue;
    const auto s = samples(runs, h.tag);
    for (const char* stat : kStats) {
      Row row = make_row(runs, h, stat, *first);
      // Each statistic has its own stream, so adding a row does not move the others' intervals.
      core::Rng rng = core::Rng::stream(o.seed, std::string(h.tag) + "." + stat);
      fill_versus(&row, &s, o, &rng);
      c.rows.push_back(std::move(row));
    }
  }
  for (const Headline& h : kScalars) {
    const report_html::MetricRow* first = runs[0].meta.find(h.tag);
    if (first == nullptr) continue;
    Row row = make_row(runs, h, "avg", *first);
    core::Rng rng(o.seed);
    fill_versus(&row, nullptr, o, &rng);
    c.rows.push_back(std::move(row));
  }
  return c;
}

Result<std::vector<std::string>> failed_gates(const Comparison& c,
                                              const std::vector<RegressionGate>& gates) {
  std::vector<std::string> failed;
  for (const RegressionGate& g : gates) {
    const Row* row = nullptr;
    for (const Row& r : c.rows) {
      const bool scalar = r.versus.empty() || !r.versus[0].has_interval;
      const std::string want = g.stat.empty() ? (r.stat == "avg" && scalar ? "avg" : "p50") : g.stat;
      if (r.tag == g.tag && r.stat == want) row = &r;
    }
    if (row == nullptr) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--fail-on-regression '{}': no compared metric {}{} (the "
                                    "headline metrics and avg, p50, p90, p99; see the table)",
                                    g.text, g.tag, g.stat.empty() ? "" : "." + g.stat));
    }
    if (row->better == Better::kNeither) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--fail-on-regression '{}': {} has no better direction",
                                    g.text, g.tag));
    }
    for (const Versus& v : row->versus) {
      const double base = std::fabs(row->values[0]);
      const double limit = base * g.threshold_pct / 100.0;
      // Worse by more than the limit: the whole interval (or the value) beyond it.
      const double inner = row->better == Better::kLower ? (v.has_interval ? v.low : v.diff)
                                                         : -(v.has_interval ? v.high : v.diff);
      if (std::isfinite(inner) && inner > limit) {
        failed.push_back(fmt::format(
            "{}: {}.{} regressed by {:.4g} {} ({:+.2f} %{}), more than {} %", c.labels[v.run],
            row->tag, row->stat, std::fabs(v.diff), row->unit, v.diff_pct,
            v.has_interval ? fmt::format(", 95 % interval [{:.4g}, {:.4g}]", v.low, v.high) : "",
            g.threshold_pct));
      }
    }
  }
  return failed;
}

}  // namespace servebench::compare
