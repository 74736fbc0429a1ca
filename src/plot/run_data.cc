#include "plot/run_data.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "export/records_reader.h"
#include "metrics/record_metrics.h"

namespace servebench::plot {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

double number_at(const json& j, const char* metric, const char* stat) {
  if (!j.contains(metric) || !j[metric].is_object()) return NAN;
  const json& m = j[metric];
  return m.contains(stat) && m[stat].is_number() ? m[stat].get<double>() : NAN;
}

// AIPerf's aggregate: {"metric": {"stat": {"mean", "ci_low", "ci_high"}}} or
// {"metric": {"mean", "ci_low", "ci_high"}}.
void read_interval(const json& agg, const char* metric, const char* stat, Figure* f) {
  if (!agg.contains(metric) || !agg[metric].is_object()) return;
  const json* m = &agg[metric];
  if (m->contains(stat) && (*m)[stat].is_object()) m = &(*m)[stat];
  auto num = [&](const char* k) {
    return m->contains(k) && (*m)[k].is_number() ? (*m)[k].get<double>() : NAN;
  };
  if (!std::isnan(num("mean"))) f->value = num("mean");
  f->ci_low = num("ci_low");
  f->ci_high = num("ci_high");
}

Result<json> read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    return make_error(ErrorCode::kNotFound,
                      path +
                          " not found; pass a run's artifact folder (written by servebench "
                          "profile or aiperf profile)");
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return make_error(ErrorCode::kParse, path +
                                             " is not a JSON object; re-create it with "
                                             "servebench report DIR");
  return j;
}

}  // namespace

Result<RunData> load_run(const std::string& dir) {
  RunData run;
  run.dir = dir;
  run.name = fs::path(dir).lexically_normal().filename().string();
  if (run.name.empty() || run.name == ".")
    run.name = fs::path(dir).lexically_normal().parent_path().filename().string();
  const std::string jsonl = (fs::path(dir) / "profile_export.jsonl").string();
  if (!fs::exists(jsonl))
    return make_error(ErrorCode::kNotFound,
                      jsonl +
                          " not found; pass a run's artifact folder written with "
                          "--export-level records or raw");
  int64_t t0 = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> start_ns, end_ns, any_start_ns, any_end_ns, error_ns;
  using M = metrics::RecordMetric;
  auto st = exporter::for_each_record(jsonl, [&](record::RequestRecord&& r) {
    if (r.phase != record::Phase::kProfiling || r.dropped()) return;
    if (r.request_start_ns > 0) {
      t0 = std::min(t0, r.request_start_ns);
      any_start_ns.push_back(r.request_start_ns);
      any_end_ns.push_back(std::max(r.end_ns, r.request_start_ns));
      run.lag_ms.push_back(r.intended_ns > 0
                               ? static_cast<double>(r.request_start_ns - r.intended_ns) / 1e6
                               : NAN);
    }
    if (!r.ok()) {
      ++run.failed;
      error_ns.push_back(r.end_ns > 0 ? r.end_ns : r.request_start_ns);
      run.error_kind.emplace_back(record::error_kind_name(r.error));
      return;
    }
    metrics::RecordValues v;
    metrics::compute_record_metrics(r, &v);
    start_ns.push_back(r.request_start_ns);
    end_ns.push_back(v.last_content_ns != 0 ? v.last_content_ns : r.end_ns);
    run.ttft_ms.push_back(v.get(M::kTtft) / 1e6);
    run.itl_ms.push_back(v.get(M::kItl) / 1e6);
    run.latency_ms.push_back(v.get(M::kRequestLatency) / 1e6);
    run.isl.push_back(v.get(M::kIsl));
    run.osl.push_back(v.get(M::kOsl));
  });
  if (!st) return tl::unexpected(Error{ErrorCode::kParse, st.error().message});
  if (t0 == std::numeric_limits<int64_t>::max()) t0 = 0;
  run.origin_ns = t0;
  auto since = [t0](int64_t ns) { return static_cast<double>(std::max(ns, t0) - t0) / 1e9; };
  for (size_t i = 0; i < start_ns.size(); ++i) {
    run.start_s.push_back(since(start_ns[i]));
    run.end_s.push_back(since(end_ns[i]));
  }
  for (size_t i = 0; i < any_start_ns.size(); ++i) {
    run.any_start_s.push_back(since(any_start_ns[i]));
    run.any_end_s.push_back(since(any_end_ns[i]));
  }
  for (int64_t ns : error_ns) run.error_s.push_back(since(ns));
  auto summary = read_json((fs::path(dir) / "profile_export_aiperf.json").string());
  if (!summary) return tl::unexpected(summary.error());
  run.request_throughput.value = number_at(*summary, "request_throughput", "avg");
  run.output_token_throughput.value = number_at(*summary, "output_token_throughput", "avg");
  run.latency_p50_ms.value = number_at(*summary, "request_latency", "p50");
  run.ttft_p50_ms.value = number_at(*summary, "time_to_first_token", "p50");
  const fs::path agg_path = fs::path(dir) / "aggregate" / "profile_export_aiperf_aggregate.json";
  if (fs::exists(agg_path)) {
    auto agg = read_json(agg_path.string());
    if (!agg) return tl::unexpected(agg.error());
    read_interval(*agg, "request_throughput", "avg", &run.request_throughput);
    read_interval(*agg, "output_token_throughput", "avg", &run.output_token_throughput);
    read_interval(*agg, "request_latency", "p50", &run.latency_p50_ms);
    read_interval(*agg, "time_to_first_token", "p50", &run.ttft_p50_ms);
  }
  return run;
}

}  // namespace servebench::plot
