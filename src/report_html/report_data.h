// Report data: everything report.html shows, as one compact JSON object built from a run's files
// (profile_export_aiperf.json for the metrics table, warnings and configuration;
// profile_export.jsonl for the per-request panels; server_metrics_export.json and
// gpu_telemetry_export.jsonl when present). The page's script (assets/report.js) renders it; the
// golden test pins it (tests/unit/report_html/).
//
// Exactness: the metrics table is the JSON file's numbers unchanged; histograms, CDFs and
// over-time series are computed from every request. Only the per-request arrays (the timeline)
// keep every k-th request when a run has more than max_requests (k = ceil(n / max_requests)),
// and per-request numbers are rounded to 0.01 ms / 5 significant digits to keep the file small.
//
// Thread safety: pure functions of the files; call from one thread.
#pragma once

#include <cstddef>
#include <string>

#include "core/result.h"
#include "report_html/request_columns.h"
#include "report_html/run_meta.h"

namespace servebench::report_html {

inline constexpr size_t kDefaultMaxRequests = 100'000;

struct DataOptions {
  std::string artifact_dir;
  std::string profile_export_prefix;  // the run's --profile-export-prefix ("" = default names)
  size_t max_requests = kDefaultMaxRequests;
  // A live run's request columns (moved from); nullptr = read profile_export.jsonl.
  RequestColumns* columns = nullptr;
};

struct RunFiles {
  RunMeta meta;
  bool has_records = false;  // profile_export.jsonl was there (not with --export-level summary)
  RequestColumns columns;
};

// Reads the run's summary JSON (required) and records JSONL (optional), or takes `columns`
// (moved from) instead of the JSONL when given.
Result<RunFiles> read_run_files(const std::string& artifact_dir, const std::string& prefix,
                                RequestColumns* columns = nullptr);

// The data object of one run (kind "report") as JSON text. `dir` is where the telemetry files
// are looked for ("" = none).
std::string report_data_json(const RunFiles& run, const std::string& dir, size_t max_requests);

// read_run_files + report_data_json.
Result<std::string> build_report_data(const DataOptions& options);

}  // namespace servebench::report_html
