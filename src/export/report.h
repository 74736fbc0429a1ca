// Report: recomputes a finished run's summary from its per-request file, the way
// `servebench report DIR` does (and the merge of shards will): the records come back from
// profile_export.jsonl (records_reader.h), the run's metadata (input_config, run_info, start and
// end time, warnings, --goodput, --fail-on) from the existing profile_export_aiperf.json, and
// profile_export_aiperf.json/.csv and profile_export_console.txt are rewritten with the same
// writers as a live run. For a run written by this version the rewritten JSON equals the
// original, value for value.
//
// Other files (JSONL, raw JSONL, time slices, inputs.json) are left as they are; the console
// lists those that exist, as the run's console did.
//
// Thread safety: call from one thread.
#pragma once

#include <string>

#include "core/result.h"
#include "export/artifacts.h"

namespace servebench::exporter {

struct ReportOptions {
  std::string artifact_dir;           // the run's folder
  std::string profile_export_prefix;  // the run's --profile-export-prefix ("" = default names)
  bool print_console = true;          // print the table to stdout
};

// Fails with kNotFound when a needed file is missing, kParse when one is malformed.
Result<ExportOutcome> report_from_artifacts(const ReportOptions& options);

// "YYYY-MM-DDTHH:MM:SS.ffffff+00:00" (format_wall_time's output) back to wall ns; 0 on error.
int64_t parse_wall_time(const std::string& text);

}  // namespace servebench::exporter
