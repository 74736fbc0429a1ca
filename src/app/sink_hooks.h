// What a run reports beyond the summary files, attached to the run's hooks (app/run.h;
// docs/sinks.md): outputs.json (--export-outputs-json) and the OpenTelemetry exporter
// (--otel-url) fed by the `records` hook on the record-processing thread, and the MLflow upload
// (--mlflow-tracking-uri) after the artifacts are written. Never touches the load workers.
//
// Thread safety: open()/finish() on run_benchmark's thread; the wrapped `records` hook on the
// record-processing thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/run.h"
#include "config/benchmark_config.h"
#include "export/outputs_json.h"
#include "sinks/otel_exporter.h"

namespace servebench::app {

class SinkHooks {
 public:
  explicit SinkHooks(const config::BenchmarkConfig& cfg) : cfg_(cfg) {}

  // Opens outputs.json in the run's folder and starts the OTel exporter. Error: the file cannot
  // be created (exit 2 before anything is sent).
  Status open(const std::string& artifact_dir, int64_t start_unix_ns);
  // `inner` first, then the sinks (only `records` is wrapped).
  RunHooks wrap(const RunHooks& inner);
  // After the records are processed: closes outputs.json, flushes and stops the exporter.
  void finish_records(std::vector<std::string>* warnings);
  // After the artifacts are written: the MLflow upload (writes mlflow_export.json). Failures
  // become warnings.
  void finish_run(const RunResult& result, int64_t start_unix_ns,
                  std::vector<std::string>* warnings);

 private:
  const config::BenchmarkConfig& cfg_;
  std::string artifact_dir_;
  std::unique_ptr<exporter::OutputsJsonWriter> outputs_;
  std::unique_ptr<sinks::OtelExporter> otel_;
};

}  // namespace servebench::app
