// --mlflow-*: logs a finished run to an MLflow tracking server through its REST API (2.0), after
// the artifacts are written (docs/sinks.md):
//   1. the experiment: GET experiments/get-by-name, else POST experiments/create (none given:
//      MLflow's Default experiment, id 0);
//   2. POST runs/create with the run name, --mlflow-tag tags and, with --mlflow-parent-run-id,
//      the mlflow.parentRunId tag (a nested run);
//   3. POST runs/log-batch: params = input_config of profile_export_aiperf.json flattened to
//      dotted keys (already redacted), metrics = every metric's statistics as <tag>_<stat>
//      (avg, min, max, std, p50, p90, p95, p99) in the JSON's display units; in chunks within
//      MLflow's per-call limits;
//   4. the artifact files (every file of the folder, or those matching --mlflow-artifact-glob)
//      PUT through the tracking server's artifact proxy (mlflow-artifacts:/ URIs, i.e. a server
//      started with --serve-artifacts);
//   5. POST runs/update status FINISHED (FAILED when the benchmark failed).
// MLFLOW_TRACKING_TOKEN, when set, is sent as a Bearer token and registered as a secret. Failures
// are returned as one line naming the step; the caller turns them into a warning.
//
// Thread safety: one call at a time; blocking.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::sinks {

struct MlflowOptions {
  std::string tracking_uri;
  std::string experiment;   // "" = Default (id 0)
  std::string run_name;
  std::vector<std::string> tags;  // key=value
  std::string parent_run_id;
  std::vector<std::string> artifact_globs;  // relative to the artifact folder; empty = all
  std::string artifact_dir;                 // the run's folder
  std::string summary_json_path;            // profile_export_aiperf.json (params and metrics)
  bool failed = false;                      // the benchmark failed: status FAILED
  int64_t start_unix_ms = 0;
  int64_t end_unix_ms = 0;
};

struct MlflowOutcome {
  std::string experiment_id;
  std::string run_id;
  int params = 0;
  int metrics = 0;
  std::vector<std::string> artifacts;  // relative paths uploaded
};

Result<MlflowOutcome> log_to_mlflow(const MlflowOptions& options);

// The same outcome as mlflow_export.json's text (experiment and run ids, counts, files).
std::string mlflow_outcome_json(const MlflowOptions& options, const MlflowOutcome& outcome);

}  // namespace servebench::sinks
