#include "sinks/mlflow_client.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "control/control_client.h"
#include "core/secrets.h"

namespace servebench::sinks {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr size_t kMaxParamValue = 6000;  // MLflow's param value limit
constexpr size_t kParamsPerBatch = 100;
constexpr size_t kMetricsPerBatch = 1000;
const char* const kStats[] = {"avg", "min", "max", "std", "p50", "p90", "p95", "p99"};

std::string url_escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

class Api {
 public:
  explicit Api(std::string base) : base_(std::move(base)) {
    while (!base_.empty() && base_.back() == '/') base_.pop_back();
    if (const char* tok = std::getenv("MLFLOW_TRACKING_TOKEN"); tok != nullptr && *tok != '\0') {
      core::secrets::add(tok);
      auth_ = std::string("Authorization: Bearer ") + tok;
    }
  }
  Result<json> call(control::Method method, const std::string& path, const std::string& body,
                    const std::string& step, bool allow_404 = false) {
    control::ControlRequest req;
    req.method = method;
    req.url = base_ + path;
    req.body = body;
    req.timeout_ns = 60'000'000'000;
    if (!auth_.empty()) req.headers.push_back(auth_);
    req.headers.push_back(method == control::Method::kPut ? "Content-Type: application/octet-stream"
                                                           : "Content-Type: application/json");
    auto resp = client_.fetch(req);
    if (!resp) return fail(step, resp.error().message);
    if (allow_404 && resp->http_status == 404) return json(nullptr);
    if (resp->http_status < 200 || resp->http_status >= 300)
      return fail(step, fmt::format("HTTP {}: {}", resp->http_status, resp->body.substr(0, 200)));
    if (resp->body.empty()) return json::object();
    auto j = json::parse(resp->body, nullptr, false);
    if (j.is_discarded()) return json::object();
    return j;
  }

 private:
  tl::unexpected<Error> fail(const std::string& step, const std::string& why) {
    return tl::unexpected(Error{ErrorCode::kNetwork,
                                core::secrets::scrub("MLflow " + step + " at " + base_ + " failed: " + why)});
  }
  std::string base_;
  std::string auth_;
  control::ControlClient client_;
};

std::pair<std::string, std::string> split_pair(const std::string& kv) {
  const size_t eq = kv.find('=');
  return {kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1)};
}

void flatten(const json& j, const std::string& prefix, std::vector<std::pair<std::string, std::string>>* out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  if (j.is_null()) return;
  std::string v = j.is_string() ? j.get<std::string>() : j.dump();
  if (v.size() > kMaxParamValue) v.resize(kMaxParamValue);
  out->emplace_back(prefix, std::move(v));
}

Result<std::string> experiment_id(Api& api, const std::string& name) {
  if (name.empty()) return std::string("0");
  auto got = api.call(control::Method::kGet,
                      "/api/2.0/mlflow/experiments/get-by-name?experiment_name=" + url_escape(name), "",
                      "experiments/get-by-name", true);
  if (!got) return tl::unexpected(got.error());
  if (got->contains("experiment")) return (*got)["experiment"].value("experiment_id", "");
  auto made = api.call(control::Method::kPost, "/api/2.0/mlflow/experiments/create",
                       json{{"name", name}}.dump(), "experiments/create");
  if (!made) return tl::unexpected(made.error());
  return made->value("experiment_id", "");
}

// Files of the folder to upload, relative paths, sorted.
std::vector<std::string> artifact_files(const MlflowOptions& o) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(o.artifact_dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const std::string rel = fs::relative(it->path(), o.artifact_dir).generic_string();
    bool match = o.artifact_globs.empty();
    for (const auto& g : o.artifact_globs)
      match |= fnmatch(g.c_str(), rel.c_str(), 0) == 0 ||
               fnmatch(g.c_str(), it->path().filename().c_str(), 0) == 0;
    if (match) files.push_back(rel);
  }
  std::sort(files.begin(), files.end());
  return files;
}

Status log_batches(Api& api, const std::string& run_id, const json& summary, MlflowOutcome* out) {
  std::vector<std::pair<std::string, std::string>> params;
  if (summary.contains("input_config")) flatten(summary["input_config"], "", &params);
  json metrics = json::array();
  for (auto it = summary.begin(); it != summary.end(); ++it) {
    if (!it.value().is_object() || !it.value().contains("unit")) continue;
    for (const char* stat : kStats) {
      const auto v = it.value().find(stat);
      if (v == it.value().end() || !v->is_number()) continue;
      metrics.push_back({{"key", it.key() + "_" + stat}, {"value", v->get<double>()},
                         {"timestamp", 0}, {"step", 0}});
    }
  }
  for (size_t i = 0; i < params.size(); i += kParamsPerBatch) {
    json batch = json::array();
    for (size_t k = i; k < std::min(params.size(), i + kParamsPerBatch); ++k)
      batch.push_back({{"key", params[k].first}, {"value", params[k].second}});
    auto r = api.call(control::Method::kPost, "/api/2.0/mlflow/runs/log-batch",
                      json{{"run_id", run_id}, {"params", batch}}.dump(), "runs/log-batch (params)");
    if (!r) return tl::unexpected(r.error());
  }
  for (size_t i = 0; i < metrics.size(); i += kMetricsPerBatch) {
    json batch = json::array();
    for (size_t k = i; k < std::min(metrics.size(), i + kMetricsPerBatch); ++k) batch.push_back(metrics[k]);
    auto r = api.call(control::Method::kPost, "/api/2.0/mlflow/runs/log-batch",
                      json{{"run_id", run_id}, {"metrics", batch}}.dump(), "runs/log-batch (metrics)");
    if (!r) return tl::unexpected(r.error());
  }
  out->params = static_cast<int>(params.size());
  out->metrics = static_cast<int>(metrics.size());
  return {};
}

Status upload_artifacts(Api& api, const MlflowOptions& o, const std::string& artifact_uri,
                        MlflowOutcome* out) {
  const std::string scheme = "mlflow-artifacts:";
  if (artifact_uri.rfind(scheme, 0) != 0)
    return make_error(ErrorCode::kUnsupported,
                      "MLflow artifacts: the run's artifact URI '" + artifact_uri +
                          "' is not served by the tracking server; start it with --serve-artifacts");
  std::string root = artifact_uri.substr(scheme.size());
  while (!root.empty() && root.front() == '/') root.erase(0, 1);
  for (const std::string& rel : artifact_files(o)) {
    std::ifstream in(fs::path(o.artifact_dir) / rel, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    auto r = api.call(control::Method::kPut,
                      "/api/2.0/mlflow-artifacts/artifacts/" + url_escape(root + "/" + rel),
                      core::secrets::scrub(ss.str()), "artifact upload of " + rel);
    if (!r) return tl::unexpected(r.error());
    out->artifacts.push_back(rel);
  }
  return {};
}

}  // namespace

Result<MlflowOutcome> log_to_mlflow(const MlflowOptions& o) {
  Api api(o.tracking_uri);
  MlflowOutcome out;
  std::ifstream in(o.summary_json_path);
  json summary = json::parse(in, nullptr, false);
  if (summary.is_discarded()) summary = json::object();

  auto exp = experiment_id(api, o.experiment);
  if (!exp) return tl::unexpected(exp.error());
  out.experiment_id = *exp;
  json tags = json::array();
  for (const auto& t : o.tags) {
    auto [k, v] = split_pair(t);
    tags.push_back({{"key", k}, {"value", v}});
  }
  if (!o.parent_run_id.empty()) tags.push_back({{"key", "mlflow.parentRunId"}, {"value", o.parent_run_id}});
  tags.push_back({{"key", "mlflow.source.name"}, {"value", "servebench"}});
  json create = {{"experiment_id", out.experiment_id}, {"start_time", o.start_unix_ms}, {"tags", tags}};
  if (!o.run_name.empty()) create["run_name"] = o.run_name;
  auto run = api.call(control::Method::kPost, "/api/2.0/mlflow/runs/create", create.dump(), "runs/create");
  if (!run) return tl::unexpected(run.error());
  const json info = (*run)["run"]["info"];
  out.run_id = info.value("run_id", "");
  const std::string artifact_uri = info.value("artifact_uri", "");

  Status st = log_batches(api, out.run_id, summary, &out);
  if (st) st = upload_artifacts(api, o, artifact_uri, &out);
  auto done = api.call(control::Method::kPost, "/api/2.0/mlflow/runs/update",
                       json{{"run_id", out.run_id},
                            {"status", o.failed || !st ? "FAILED" : "FINISHED"},
                            {"end_time", o.end_unix_ms}}.dump(),
                       "runs/update");
  if (!st) return tl::unexpected(st.error());
  if (!done) return tl::unexpected(done.error());
  return out;
}

std::string mlflow_outcome_json(const MlflowOptions& o, const MlflowOutcome& out) {
  json j = {{"tracking_uri", o.tracking_uri}, {"experiment_id", out.experiment_id},
            {"run_id", out.run_id},           {"params_logged", out.params},
            {"metrics_logged", out.metrics},  {"artifacts", out.artifacts}};
  return core::secrets::scrub(j.dump(2)) + "\n";
}

}  // namespace servebench::sinks
