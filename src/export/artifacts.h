// Artifacts: the entry points that write a run's exports (console table,
// profile_export_aiperf.json/.csv, profile_export.jsonl, raw JSONL, time slices,
// profile_export_console.txt). A live run streams its records (record_stream.h) and then calls
// write_summary_artifacts(); write_artifacts() does both for a record vector. Pure with respect
// to the records: no network, no tokenizer.
//
// Thread safety: call from one thread after all workers have stopped.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/capabilities.h"
#include "core/result.h"
#include "export/http_trace_json.h"
#include "record/request_record.h"

namespace servebench::metrics {
struct Summary;
}

namespace servebench::exporter {

// What a collector (GPU telemetry, network RTT) adds to the summary exports once the profiling
// summary exists: top-level keys of profile_export_aiperf.json (key, JSON text), text appended
// to profile_export_aiperf.csv after a blank line, text after the console's metrics table, and
// whole files written into the artifact folder (name, content).
struct ExtraSections {
  std::vector<std::pair<std::string, std::string>> json;
  std::string csv;
  std::string console;
  std::vector<std::pair<std::string, std::string>> files;
};
using ExtraSectionsFn = std::function<ExtraSections(const metrics::Summary& profiling)>;

enum class ExportLevel { kSummary, kRecords, kRaw };

struct RunSummaries;  // record_stream.h

struct ExportOptions {
  std::string artifact_dir;            // final folder (already resolved, see artifact_dir_name)
  std::string profile_export_prefix;   // --profile-export-prefix ("" = default names)
  ExportLevel level = ExportLevel::kRecords;
  std::string goodput;                 // --goodput "tag:value ..." ("" = none)
  int64_t slice_duration_ns = 0;       // --slice-duration (0 = none)
  std::string fail_on;                 // --fail-on "tag.stat>value ..." ("" = none)
  bool print_console = true;           // print the table to stdout
  // Profiling records the run will make when known (--request-count): the summary columns are
  // reserved for them up front, so they never grow by copying into fresh pages during the load
  // (0 = unknown; capped, and only address space until a value is stored).
  int64_t expected_records = 0;
  bool show_trace_timing = false;      // --show-trace-timing: HTTP Trace table in the console
};

// One conversation as sent, for inputs.json: AIPerf's {"session_id", "payloads": [body per
// turn]}. Each payload is the request body as a JSON object text: a view of the body the load
// sends (its storage outlives the export), so inputs.json holds no second copy of every body.
struct InputSession {
  std::string session_id;
  std::vector<std::string_view> payloads_json;
};

// What the run was, for run_info / input_config and the console header.
struct RunContext {
  std::string input_config_json;       // resolved config as a JSON object (secrets redacted)
  std::string cli_command;             // the command line, secrets redacted
  std::string model;
  std::string endpoint_type;           // "chat", "completions", ...
  // From the endpoint's spec (endpoints/registry.h): which metrics apply, and the console title.
  core::Capabilities capabilities = core::kTextGenerationCaps;
  std::string metrics_title = "LLM Metrics";
  bool streaming = false;
  bool fixed_schedule = false;        // requests sent at a trace's timestamps (replay lag rows)
  uint64_t random_seed = 0;
  bool has_random_seed = false;
  std::string benchmark_id;            // uuid-like id of this run
  record::RunAnchor anchor;            // steady → wall mapping for all record timestamps
  int64_t start_wall_ns = 0;
  int64_t end_wall_ns = 0;
  bool interrupted = false;            // Ctrl-C
  std::vector<std::string> warnings;   // engine-side warnings to show (e.g. tokenizer fallback)
  // What was sent; when non-empty, inputs.json ({"data": [InputSession...]}) is written
  // (<prefix>_inputs.json with --profile-export-prefix).
  // Entry i is also the body of records with payload_index i (profile_export_raw.jsonl).
  std::vector<InputSession> inputs;
  // Called with each payload once inputs.json has it (null: nothing to do); a file-backed body
  // store drops its resident pages of the body then (load/body_store.h).
  std::function<void(std::string_view)> payload_written;
  // --export-http-trace: each JSONL line carries "trace_data" (export/http_trace_json.h).
  bool export_http_trace = false;
  HttpTraceContext http_trace;
  // Collectors' additions, called once each when the summary files are written.
  std::vector<ExtraSectionsFn> extra_sections;
};

struct ExportOutcome {
  bool gate_failed = false;            // a --fail-on condition held
  std::vector<std::string> gate_messages;
  int64_t request_count = 0;           // successful profiling requests
  int64_t error_request_count = 0;
  std::vector<std::string> files;      // paths written
};

// Summarizes `records` (warm-up and profiling phases; cancelled ones kept in JSONL only) and
// writes the artifacts into options.artifact_dir (created if missing). The same code path as a
// streamed run (record_stream.h) given every record at once; for tests and tools that hold the
// records.
Result<ExportOutcome> write_artifacts(const std::vector<record::RequestRecord>& records,
                                      const RunContext& context, const ExportOptions& options);

// After a streamed run (or a `report` that re-read the records): writes the summary files
// (profile_export_aiperf.json/.csv, time slices with options.slice_duration_ns, inputs.json,
// profile_export_console.txt, and the table on stdout) from `run`, evaluates --fail-on, and
// lists run.record_files (written by the stream) among the files and console paths.
Result<ExportOutcome> write_summary_artifacts(const RunSummaries& run,
                                              const RunContext& context,
                                              const ExportOptions& options);

// File names for a --profile-export-prefix ("" = AIPerf's defaults: profile_export_aiperf.json,
// profile_export_aiperf.csv, profile_export.jsonl, profile_export_raw.jsonl,
// profile_export_aiperf_timeslices.{json,csv}, profile_export_console.txt; with prefix P:
// P.json, P.csv, P.jsonl, P_raw.jsonl, P_timeslices.{json,csv}, P_console.txt).
struct ArtifactNames {
  std::string json, csv, jsonl, raw_jsonl, timeslices_json, timeslices_csv, console, inputs;
};
ArtifactNames artifact_names(const std::string& prefix);

// AIPerf's default folder name: "<model>-<service>-<endpoint>-<load>", e.g.
// "Qwen_Qwen3-0.6B-openai-chat-concurrency2" ('/' in the model becomes '_'). `endpoint_part` is
// the "<service>-<endpoint>" part the endpoint's spec supplies, e.g. "openai-chat".
std::string artifact_dir_name(const std::string& model, const std::string& endpoint_part,
                              bool streaming, const std::string& load_label);

}  // namespace servebench::exporter
