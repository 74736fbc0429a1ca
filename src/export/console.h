// Console report: AIPerf's metrics table (rich HEAVY_HEAD box, rows "Header (unit)", columns
// avg min max p99 p90 p50 std; aggregate and derived metrics fill avg only, others "N/A"),
// followed by the warning panels (errors by kind, usage discrepancy, OSL mismatch, client
// limited, engine warnings), our schedule/concurrency line, the CLI command, the benchmark
// duration and the artifact paths. The same text is saved as profile_export_console.txt.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "metrics/summary.h"

namespace servebench::exporter {

struct ConsoleInput {
  std::string title;                    // "servebench | LLM Metrics"
  const metrics::Summary* summary = nullptr;
  std::vector<std::string> engine_warnings;
  std::string cli_command;              // already redacted
  std::vector<std::pair<std::string, std::string>> artifact_paths;  // ("JSON Export", path)
  std::vector<std::string> gate_messages;  // --fail-on results
  bool interrupted = false;
  std::string extra_text;  // collectors' panels, after the metrics table
  bool show_trace_timing = false;  // --show-trace-timing: the HTTP Trace table (k6's phases)
};

// The metrics table alone (no trailing newline after the bottom border line's '\n').
std::string render_metrics_table(const std::string& title, const metrics::Summary& summary,
                                 metrics::ConsoleGroup group = metrics::ConsoleGroup::kDefault);

// The whole console report.
std::string render_console(const ConsoleInput& in);

}  // namespace servebench::exporter
