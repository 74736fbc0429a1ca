// Run metadata and summary read back from a run's profile_export_aiperf.json: identity (model,
// endpoint, load), every metric row with its statistics exactly as the file has them, and the
// warnings the report shows at the top (the run's own, client-limited, OSL mismatch, usage
// discrepancy, cancelled run).
//
// Thread safety: plain value types; read_run_meta reads on the calling thread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace servebench::report_html {

struct MetricRow {
  std::string tag;
  std::string header;     // AIPerf's header from the metric table (the tag when unknown)
  std::string unit;
  bool servebench = false;  // under the JSON "servebench" key
  bool larger_is_better = false;
  std::vector<std::pair<std::string, double>> stats;  // in file order; null values skipped

  bool get(const std::string& stat, double* out) const;
};

struct RunMeta {
  std::string json_path;
  std::string benchmark_id, model, endpoint_type, start_time, end_time, cli_command;
  bool streaming = false;
  bool was_cancelled = false;
  std::string load_mode;        // "concurrency 8", "request_rate 20 (poisson)", ...
  double isl_requested = -1;    // --synthetic-input-tokens-mean (-1 = not set)
  double osl_requested = -1;    // --output-tokens-mean
  std::vector<MetricRow> metrics;  // AIPerf's rows, then servebench's
  std::vector<std::string> warnings;
  std::string input_config_json;   // the run's input_config object (secrets already redacted)
  std::string error_summary_json;  // the error_summary array

  const MetricRow* find(const std::string& tag) const;
};

// Fails with kNotFound (missing file) or kParse (not a JSON object).
Result<RunMeta> read_run_meta(const std::string& json_path);

}  // namespace servebench::report_html
