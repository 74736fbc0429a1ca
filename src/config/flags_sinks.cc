// Flags of what a run reports beyond the summary files (config/flag_table.h; docs/sinks.md):
// HTTP timing in the records and the console (--export-http-trace, --show-trace-timing),
// outputs.json, and the result sinks: OpenTelemetry (--otel-*), MLflow (--mlflow-*). AIPerf's
// Weights & Biases flags are accepted by name and refused with a one-line message (exit 2):
// servebench has no W&B uploader (docs/sinks.md says why).
#include <string_view>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

bool http_url(std::string_view u) {
  return (u.rfind("http://", 0) == 0 && u.size() > 7) ||
         (u.rfind("https://", 0) == 0 && u.size() > 8);
}

FlagSpec url_flag(std::string names, std::string flag, std::string help, std::string C::*f,
                  std::string key) {
  FlagSpec s = string_flag(std::move(names), std::move(help), f, true, std::move(key));
  s.apply = [flag, f](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    if (!http_url(in.text) || in.text.find_first_of(" \t\r\n") != std::string::npos)
      return usage(flag + " '" + in.text + "' is not an http(s):// URL; expected e.g. " +
                   "http://localhost:5000");
    const size_t auth = in.text.find("://") + 3;
    const std::string authority = in.text.substr(auth, in.text.find('/', auth) - auth);
    if (authority.find('@') != std::string::npos)
      return usage(flag + " must not carry credentials; put them in the environment instead "
                          "(docs/sinks.md)");
    c->*f = in.text;
    return {};
  };
  return s;
}

// key=value pairs (repeatable, comma-separated as in OTEL_RESOURCE_ATTRIBUTES).
FlagSpec pairs_flag(std::string names, std::string flag, std::string help,
                    std::vector<std::string> C::*f, char delimiter, std::string key) {
  FlagSpec s = base(std::move(names), std::move(help), std::move(key));
  s.arity = FlagArity::kList;
  s.delimiter = delimiter;
  s.apply = [flag, f](const FlagInput& in, C* c) -> Status {
    for (const auto& p : in.texts) {
      if (p.empty()) continue;
      const size_t eq = p.find('=');
      if (eq == std::string::npos || eq == 0)
        return usage(flag + " '" + p + "' is invalid; expected key=value");
      (c->*f).push_back(p);
    }
    return {};
  };
  s.to_json = field_json(f);
  return s;
}

FlagSpec wandb_flag(std::string names, std::string flag) {
  FlagSpec s = base(std::move(names), "Weights & Biases: not supported (use --mlflow-* or --otel-url)",
                    "");
  s.apply = [flag](const FlagInput&, C*) -> Status {
    return usage(flag + " is not supported: servebench has no Weights & Biases uploader; use "
                        "--mlflow-tracking-uri or --otel-url (docs/sinks.md)");
  };
  return s;
}

}  // namespace

void add_sinks_flags(std::vector<FlagSpec>* out) {
  out->push_back(switch_flag("--export-http-trace",
                             "Add HTTP timing (http_req_*) and request/response headers (secrets "
                             "redacted) to each record of profile_export.jsonl",
                             &C::export_http_trace, "/output/export_http_trace"));
  out->push_back(switch_flag("--show-trace-timing",
                             "Print the HTTP Trace table (k6's phases: blocked, dns_lookup, "
                             "connecting, sending, waiting, receiving...) in the console",
                             &C::show_trace_timing, "/output/show_trace_timing"));
  out->push_back(switch_flag("--export-outputs-json",
                             "Write outputs.json: each request's generated text, streamed as the "
                             "run goes",
                             &C::export_outputs_json, "/output/export_outputs_json"));
  out->push_back(url_flag("--otel-url", "--otel-url",
                          "OTLP/HTTP collector (base URL or its /v1/metrics URL): stream GenAI "
                          "semantic-convention metrics while the run goes",
                          &C::otel_url, "/output/otel/url"));
  out->push_back(pairs_flag("--otel-resource-attributes", "--otel-resource-attributes",
                            "OTel resource attributes key=value (comma-separated or repeated)",
                            &C::otel_resource_attributes, ',', "/output/otel/resource_attributes"));
  out->push_back(choice_flag("--stream", "--stream",
                             "What --otel-url streams: default (GenAI metrics and timing "
                             "counters), metrics (GenAI metrics), timing (counters)",
                             &C::otel_stream,
                             std::vector<std::pair<std::string, std::string>>{
                                 {"default", "default"}, {"metrics", "metrics"}, {"timing", "timing"}},
                             "default, metrics or timing", true, "/output/otel/stream"));
  out->push_back(choice_flag("--otel-encoding", "--otel-encoding",
                             "OTLP/HTTP body encoding: protobuf (OTLP's default) or json",
                             &C::otel_encoding,
                             std::vector<std::pair<std::string, std::string>>{
                                 {"protobuf", "protobuf"}, {"json", "json"}},
                             "protobuf or json", true, "/output/otel/encoding"));
  out->push_back(string_flag("--gen-ai-provider",
                             "gen_ai.provider.name attribute of the OTel metrics (default: the "
                             "endpoint type)",
                             &C::gen_ai_provider, true, "/output/otel/gen_ai_provider"));
  out->push_back(url_flag("--mlflow-tracking-uri", "--mlflow-tracking-uri",
                          "MLflow tracking server: log params, metrics and artifacts after the "
                          "run (REST API)",
                          &C::mlflow_tracking_uri, "/output/mlflow/tracking_uri"));
  out->push_back(string_flag("--mlflow-experiment", "MLflow experiment name (created if missing)",
                             &C::mlflow_experiment, true, "/output/mlflow/experiment"));
  out->push_back(string_flag("--mlflow-run-name", "MLflow run name", &C::mlflow_run_name, true,
                             "/output/mlflow/run_name"));
  out->push_back(pairs_flag("--mlflow-tag", "--mlflow-tag", "MLflow run tag key=value (repeatable)",
                            &C::mlflow_tags, 0, "/output/mlflow/tags"));
  out->push_back(string_flag("--mlflow-parent-run-id", "Log the run as a child of this MLflow run",
                             &C::mlflow_parent_run_id, true, "/output/mlflow/parent_run_id"));
  {
    FlagSpec s = base("--mlflow-artifact-glob",
                      "Artifact files to upload (glob relative to the artifact folder; "
                      "repeatable; default: every file)",
                      "/output/mlflow/artifact_globs");
    s.arity = FlagArity::kList;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      for (const auto& g : in.texts)
        if (!g.empty()) c->mlflow_artifact_globs.push_back(g);
      return {};
    };
    s.to_json = field_json(&C::mlflow_artifact_globs);
    out->push_back(std::move(s));
  }
  out->push_back(wandb_flag("--wandb-project", "--wandb-project"));
  out->push_back(wandb_flag("--wandb-entity", "--wandb-entity"));
  out->push_back(wandb_flag("--wandb-run-name", "--wandb-run-name"));
  out->push_back(wandb_flag("--wandb-tag", "--wandb-tag"));
}

}  // namespace servebench::config
