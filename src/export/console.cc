#include "export/console.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include <fmt/format.h>

#include "export/text_util.h"
#include "metrics/metric_info.h"
#include "metrics/record_metrics.h"

namespace servebench::exporter {

using metrics::MetricResult;
using metrics::Summary;

namespace {

// Display width of a UTF-8 string (box and symbol characters count one column).
size_t width(const std::string& s) {
  size_t w = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++w;
  }
  return w;
}

std::string pad_left(const std::string& s, size_t w) {
  size_t cur = width(s);
  return cur >= w ? s : std::string(w - cur, ' ') + s;
}

std::string repeat(const char* unit, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += unit;
  return out;
}

// Python's f"{value:,.2f}".
std::string fmt_value(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{:.2f}", std::abs(v));
  const size_t dot = s.find('.');
  const std::string int_part = s.substr(0, dot);
  std::string grouped;
  for (size_t i = 0; i < int_part.size(); ++i) {
    if (i > 0 && (int_part.size() - i) % 3 == 0) grouped += ',';
    grouped += int_part[i];
  }
  const std::string sign = (v < 0 && s != "0.00") ? "-" : "";
  return sign + grouped + s.substr(dot);
}

struct Row {
  std::vector<std::string> label_lines;
  std::vector<std::string> cells;
};

constexpr const char* kColumns[] = {"avg", "min", "max", "p99", "p90", "p50", "std"};

Row make_row(const MetricResult& m) {
  Row row;
  const std::string header(m.info->header);
  const std::string unit(m.info->display_unit);
  if (header.size() > 30) {
    row.label_lines = {header, "(" + unit + ")"};
  } else {
    row.label_lines = {header + " (" + unit + ")"};
  }
  const double div = m.info->display_divisor;
  for (const char* col : kColumns) {
    if (!m.distribution) {
      row.cells.push_back(std::string(col) == "avg" ? fmt_value(m.info->to_display(m.value))
                                                    : "N/A");
      continue;
    }
    double v;
    if (!m.stats.get(col, &v)) {
      row.cells.push_back("N/A");
    } else {
      row.cells.push_back(fmt_value(v / div));
    }
  }
  return row;
}

std::string panel(const std::string& title, const std::vector<std::string>& lines) {
  size_t inner = width(title) + 4;
  for (const auto& l : lines) inner = std::max(inner, width(l) + 2);
  std::string out;
  const std::string t = " " + title + " ";
  size_t left = (inner - width(t)) / 2;
  out += "╭" + repeat("─", left) + t + repeat("─", inner - left - width(t)) + "╮\n";
  for (const auto& l : lines) {
    out += "│ " + l + std::string(inner - 1 - width(l), ' ') + "│\n";
  }
  out += "╰" + repeat("─", inner) + "╯\n";
  return out;
}

std::string pct(double part, double whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100.0 * part / whole) : "0.0%";
}

}  // namespace

std::string render_metrics_table(const std::string& title, const Summary& summary,
                                 metrics::ConsoleGroup group) {
  std::vector<const MetricResult*> shown;
  for (const MetricResult& m : summary.metrics) {
    if (m.info->has(metrics::kNoConsole) || m.info->has(metrics::kErrorOnly)) continue;
    if (m.info->group != group) continue;
    shown.push_back(&m);
  }
  if (shown.empty() && group != metrics::ConsoleGroup::kDefault) return "";
  std::stable_sort(shown.begin(), shown.end(), [](const MetricResult* a, const MetricResult* b) {
    int oa = a->info->display_order ? a->info->display_order : INT_MAX;
    int ob = b->info->display_order ? b->info->display_order : INT_MAX;
    return oa < ob;
  });
  std::vector<Row> rows;
  for (const MetricResult* m : shown) rows.push_back(make_row(*m));

  const size_t ncols = 1 + std::size(kColumns);
  std::vector<size_t> w(ncols);
  w[0] = width("Metric");
  for (size_t c = 1; c < ncols; ++c) w[c] = width(kColumns[c - 1]);
  for (const Row& r : rows) {
    for (const auto& l : r.label_lines) w[0] = std::max(w[0], width(l));
    for (size_t c = 1; c < ncols; ++c) w[c] = std::max(w[c], width(r.cells[c - 1]));
  }
  size_t total = 1;
  for (size_t c = 0; c < ncols; ++c) total += w[c] + 3;

  std::string out;
  const std::string t = title;
  size_t lpad = total > width(t) ? (total - width(t)) / 2 : 0;
  out += std::string(lpad, ' ') + t + "\n";
  auto border = [&](const char* l, const char* fill, const char* mid, const char* r) {
    std::string s = l;
    for (size_t c = 0; c < ncols; ++c) {
      s += repeat(fill, w[c] + 2);
      s += c + 1 < ncols ? mid : r;
    }
    return s + "\n";
  };
  out += border("┏", "━", "┳", "┓");
  out += "┃";
  out += " " + pad_left("Metric", w[0]) + " ┃";
  for (size_t c = 1; c < ncols; ++c) out += " " + pad_left(kColumns[c - 1], w[c]) + " ┃";
  out += "\n";
  out += border("┡", "━", "╇", "┩");
  for (const Row& r : rows) {
    for (size_t line = 0; line < r.label_lines.size(); ++line) {
      out += "│ " + pad_left(r.label_lines[line], w[0]) + " │";
      for (size_t c = 1; c < ncols; ++c) {
        out += " " + pad_left(line == 0 ? r.cells[c - 1] : "", w[c]) + " │";
      }
      out += "\n";
    }
  }
  out += border("└", "─", "┴", "┘");
  return out;
}

std::string render_console(const ConsoleInput& in) {
  const Summary& s = *in.summary;
  std::string out = "\n" + render_metrics_table(in.title, s);
  // AIPerf's per-group tables after the main one, each only when it has rows, in the order of
  // ConsoleMetricsExporter.console_groups (Effective, Active, Usage), then ours.
  for (metrics::ConsoleGroup g :
       {metrics::ConsoleGroup::kEffective, metrics::ConsoleGroup::kActive,
        metrics::ConsoleGroup::kUsage, metrics::ConsoleGroup::kSpecDecode,
        metrics::ConsoleGroup::kHttpTrace}) {
    if (g == metrics::ConsoleGroup::kHttpTrace && !in.show_trace_timing) continue;
    const std::string table = render_metrics_table(
        in.title + ": " + std::string(metrics::console_group_name(g)), s, g);
    if (!table.empty()) out += "\n" + table;
  }
  out += in.extra_text;

  if (in.interrupted) {
    out += "\n" + panel("Interrupted", {"The run was interrupted; these results cover the "
                                        "requests measured before the stop."});
  }
  if (!s.error_summary.empty()) {
    std::vector<std::string> lines;
    lines.push_back(fmt::format("{} of {} requests failed ({}).", s.error_request_count,
                                s.request_count + s.error_request_count,
                                pct(s.error_request_count, s.request_count + s.error_request_count)));
    for (const auto& [kind, count] : s.extras.errors_by_kind) {
      lines.push_back(fmt::format("  {:<20} {:>8}", kind, count));
    }
    size_t shown = 0;
    for (const auto& g : s.error_summary) {
      if (shown++ == 5) break;
      std::string msg = scrub_secrets(g.message);
      if (width(msg) > 90) msg = msg.substr(0, 87) + "...";
      lines.push_back(fmt::format("  {:>6} x {}{}: {}", g.count, g.type,
                                  g.code ? fmt::format(" {}", g.code) : "", msg));
    }
    out += "\n" + panel("Errors by kind", lines);
  }
  if (s.extras.cancelled_request_count > 0) {
    out += fmt::format("\n{} request(s) were cancelled (not counted as requests or errors).\n",
                       s.extras.cancelled_request_count);
  }
  if (s.usage_discrepancy_count > 0) {
    out += "\n" + panel("⚠ Usage Discrepancy Warning",
                        {fmt::format("{} of {} requests ({}) have client token counts that differ "
                                     "from the server's usage",
                                     s.usage_discrepancy_count, s.request_count,
                                     pct(s.usage_discrepancy_count, s.request_count)),
                         fmt::format("field by more than {:.0f}%. Check that --tokenizer matches "
                                     "the served model, or use",
                                     metrics::kUsageDiffThresholdPct),
                         "--use-server-token-count to count with the server's numbers."});
  }
  if (s.find("usage_prompt_tokens") != nullptr &&
      s.find("usage_prompt_cache_read_tokens") == nullptr) {
    out += "\nThe server reports token usage but no prompt-cache reads "
           "(usage.prompt_tokens_details.cached_tokens). If it caches prefixes, turn the report "
           "on to fill the cache metrics: vLLM --enable-prompt-tokens-details, SGLang "
           "--enable-cache-report (TensorRT-LLM reports it by default).\n";
  }
  if (s.osl_mismatch_count > 0) {
    double avg_diff = 0;
    if (const MetricResult* m = s.find("osl_mismatch_diff_pct")) avg_diff = m->stats.avg;
    out += "\n" +
           panel("⚠ OSL Mismatch Warning",
                 {fmt::format("{} of {} requests ({}) returned a different number of output "
                              "tokens than requested",
                              s.osl_mismatch_count, s.request_count,
                              pct(s.osl_mismatch_count, s.request_count)),
                  fmt::format("(more than min(5%, 50 tokens) off; average difference {:.1f}%).",
                              avg_diff),
                  "The server likely stopped at end-of-sequence. To force the requested length,",
                  "pass --extra-inputs ignore_eos:true and/or --extra-inputs min_tokens:<osl>",
                  "(vLLM, SGLang, TensorRT-LLM; TGI/llama.cpp use their own options)."});
  }
  if (s.extras.client_limited) {
    out += "\n" + panel("⚠ Client-limited: results suspect",
                        {s.extras.client_limited_reason,
                         "The load generator could not keep to its schedule; latencies measured "
                         "from the actual",
                         "send understate what users would see. See "
                         "time_to_first_token_from_intended in the JSON."});
  }
  for (const std::string& w : in.engine_warnings) {
    out += "\n" + panel("⚠ Warning", {scrub_secrets(w)});
  }
  const auto& x = s.extras;
  if (const MetricResult* lag = s.find("schedule_lag")) {
    out += fmt::format(
        "\nSchedule lag (ms): p50 {} p99 {} max {}; sends late > 1 ms: {}; concurrency peak {} "
        "avg {}\n",
        fmt_value(lag->stats.p[4] / 1e6), fmt_value(lag->stats.p[8] / 1e6),
        fmt_value(lag->stats.max / 1e6), pct(x.late_sends, x.sends_with_intended),
        x.peak_concurrency, fmt_value(x.avg_concurrency));
  }
  if (!in.gate_messages.empty()) {
    out += "\n";
    for (const auto& m : in.gate_messages) out += m + "\n";
  }
  out += "\n";
  if (!in.cli_command.empty()) out += "CLI Command: " + scrub_secrets(in.cli_command) + "\n";
  if (const MetricResult* d = s.find("benchmark_duration")) {
    out += "Benchmark Duration: " + fmt_value(d->info->to_display(d->value)) + " sec\n";
  }
  for (const auto& [what, path] : in.artifact_paths) out += what + ": " + path + "\n";
  return out;
}

}  // namespace servebench::exporter
