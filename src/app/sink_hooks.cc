#include "app/sink_hooks.h"

#include <chrono>
#include <fstream>

#include "app/load_setup.h"
#include "core/log.h"
#include "export/artifacts.h"
#include "sinks/mlflow_client.h"

namespace servebench::app {
namespace {

// host and port of the first --url, for server.address / server.port.
std::pair<std::string, std::string> host_port(const std::string& url) {
  std::string rest = url.substr(url.find("://") == std::string::npos ? 0 : url.find("://") + 3);
  rest = rest.substr(0, rest.find('/'));
  const size_t colon = rest.rfind(':');
  const size_t bracket = rest.rfind(']');  // [v6::addr]:port
  if (colon == std::string::npos || (bracket != std::string::npos && bracket > colon))
    return {rest, url.rfind("https", 0) == 0 ? "443" : "80"};
  return {rest.substr(0, colon), rest.substr(colon + 1)};
}

int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Status SinkHooks::open(const std::string& artifact_dir, int64_t start_unix_ns) {
  artifact_dir_ = artifact_dir;
  if (cfg_.export_outputs_json) {
    auto w = exporter::OutputsJsonWriter::open(artifact_dir + "/outputs.json");
    if (!w) return tl::unexpected(w.error());
    outputs_ = std::move(*w);
  }
  if (!cfg_.otel_url.empty()) {
    sinks::OtelOptions o;
    o.url = cfg_.otel_url;
    o.resource_attributes = cfg_.otel_resource_attributes;
    o.json = cfg_.otel_encoding == "json";
    o.genai_metrics = cfg_.otel_stream != "timing";
    o.timing_counters = cfg_.otel_stream != "metrics";
    o.operation_name = cfg_.endpoint_type == "completions" ? "text_completion"
                       : cfg_.endpoint_type == "embeddings" ? "embeddings"
                                                            : "chat";
    o.provider = cfg_.gen_ai_provider.empty() ? "openai" : cfg_.gen_ai_provider;
    o.model = cfg_.model();
    std::tie(o.server_address, o.server_port) = host_port(cfg_.urls.front());
    o.version = "0.1.0";
    otel_ = std::make_unique<sinks::OtelExporter>(std::move(o));
    otel_->start(static_cast<uint64_t>(start_unix_ns));
    SB_LOG_INFO("OpenTelemetry: metrics to {}", otel_->endpoint());
  }
  return {};
}

RunHooks SinkHooks::wrap(const RunHooks& inner) {
  if (!outputs_ && !otel_) return inner;
  RunHooks h = inner;
  h.records = [this, next = inner.records](const std::vector<record::RequestRecord>& batch) {
    if (next) next(batch);
    if (outputs_) outputs_->add(batch);
    if (otel_) otel_->add(batch);
  };
  return h;
}

void SinkHooks::finish_records(std::vector<std::string>* warnings) {
  if (outputs_) {
    if (auto st = outputs_->close(); !st) warnings->push_back(st.error().message);
  }
  if (otel_) {
    otel_->stop();
    for (auto& w : otel_->warnings()) warnings->push_back(std::move(w));
    SB_LOG_INFO("OpenTelemetry: {} export(s) sent to {}", otel_->exports_ok(), otel_->endpoint());
  }
}

void SinkHooks::finish_run(const RunResult& result, int64_t start_unix_ns,
                           std::vector<std::string>* warnings) {
  if (cfg_.mlflow_tracking_uri.empty() || result.artifact_dir.empty()) return;
  sinks::MlflowOptions o;
  o.tracking_uri = cfg_.mlflow_tracking_uri;
  o.experiment = cfg_.mlflow_experiment;
  o.run_name = cfg_.mlflow_run_name;
  o.tags = cfg_.mlflow_tags;
  o.parent_run_id = cfg_.mlflow_parent_run_id;
  o.artifact_globs = cfg_.mlflow_artifact_globs;
  o.artifact_dir = result.artifact_dir;
  o.summary_json_path =
      result.artifact_dir + "/" + exporter::artifact_names(cfg_.profile_export_prefix).json;
  o.failed = result.exit_code != 0;
  o.start_unix_ms = start_unix_ns / 1'000'000;
  o.end_unix_ms = unix_ms_now();
  auto out = sinks::log_to_mlflow(o);
  if (!out) {
    SB_LOG_WARN("{}", out.error().message);
    warnings->push_back(out.error().message);
    return;
  }
  std::ofstream(result.artifact_dir + "/mlflow_export.json") << sinks::mlflow_outcome_json(o, *out);
  SB_LOG_INFO("MLflow: run {} in experiment {} ({} params, {} metrics, {} artifacts)", out->run_id,
              out->experiment_id, out->params, out->metrics, out->artifacts.size());
}

}  // namespace servebench::app
