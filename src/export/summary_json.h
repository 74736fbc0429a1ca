// profile_export_aiperf.json and profile_export_aiperf_timeslices.json writers.
//
// Layout (AIPerf schema 1.4; docs/metrics.md lists every key): schema_version,
// servebench_version, benchmark_id, start_time, end_time, was_cancelled, is_complete (and
// incomplete_reason when interrupted), input_config,
// run_info, error_summary, then one key per metric tag in display units ({"unit", "avg", "p1"
// .. "p99", "min", "max", "std", "count", "sum"} for record metrics, {"unit", "avg"} for
// aggregate and derived ones), warmup_metrics (when warm-up requests ran), and our additions
// under the single extra key "servebench".
//
// Non-finite numbers (the +inf samples of adj_* distributions) are written as null, which is
// also what AIPerf's pydantic serializer produces.
//
// Thread safety: pure functions.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "export/artifacts.h"
#include "metrics/summary.h"
#include "metrics/timeslices.h"

namespace servebench::exporter {

inline constexpr const char* kSchemaVersion = "1.4";

struct JsonInput {
  const RunContext* context = nullptr;
  const metrics::Summary* profiling = nullptr;
  const metrics::Summary* warmup = nullptr;        // null when no warm-up records
  std::vector<std::string> gate_messages;
  bool gate_failed = false;
  std::vector<std::string> fail_on;                 // the gate conditions as written
  std::vector<std::string> goodput;                 // the SLOs as written
  // Collectors' top-level keys (key, JSON text), written before "servebench".
  std::vector<std::pair<std::string, std::string>> extra_json;
};

// The whole document (pretty-printed, 2-space indent, trailing newline).
std::string render_summary_json(const JsonInput& in);

// {"timeslices": [{"timeslice_index", "start_ns", "end_ns", "is_complete" (false, only on a
// last slice clipped to the run's end, as AIPerf), <tag>: {stats}...}], "input_config"}.
std::string render_timeslices_json(const RunContext& context,
                                   const std::vector<metrics::TimeSlice>& slices);

// inputs.json: {"data": [{"session_id": ..., "payloads": [body, ...]}]}. Each JSON payload is
// embedded byte for byte as sent (registered secret literals excepted, core/secrets.h); a
// payload that is not valid JSON is kept as a string.
std::string render_inputs_json(const std::vector<InputSession>& sessions);
// The same text handed to `sink` piece by piece (the artifact writer streams it to the file:
// with media the bodies add up to gigabytes, and a whole-file string would be one more copy).
// `written`, when set, is called with each payload once it is written (a file-backed body
// store drops its pages then).
void write_inputs_json(const std::vector<InputSession>& sessions,
                       const std::function<void(std::string_view)>& sink,
                       const std::function<void(std::string_view)>& written = {});

// Formats wall ns as "YYYY-MM-DDTHH:MM:SS.ffffff+00:00" (UTC).
std::string format_wall_time(int64_t wall_ns);

// Parses `json` (input_config) and scrubs the registered secret literals from every string
// (the config redacts known secret fields itself: config::to_json).
// Invalid JSON yields an empty object.
std::string redact_config_json(const std::string& json);

}  // namespace servebench::exporter
