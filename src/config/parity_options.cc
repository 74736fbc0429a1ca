#include "config/parity_options.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "config/benchmark_config.h"
#include "config/parity_validate.h"

namespace servebench::config {
namespace {

tl::unexpected<Error> bad(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

constexpr const char* kSeriesForm =
    "expected {\"points\": [{\"time_s\": 0, \"qps\": 5}, {\"time_s\": 60, \"qps\": 20}]}";

Result<RatePoint> read_point(const nlohmann::json& p, size_t i, const std::string& source) {
  if (!p.is_object() || p.size() != 2 || !p.contains("time_s") || !p.contains("qps") ||
      !p["time_s"].is_number() || !p["qps"].is_number())
    return bad(fmt::format("{}: point {} must be an object with numbers time_s and qps only; {}",
                           source, i, kSeriesForm));
  const double t = p["time_s"].get<double>();
  const double q = p["qps"].get<double>();
  if (!std::isfinite(t) || !std::isfinite(q) || t < 0 || q <= 0)
    return bad(fmt::format("{}: point {} needs time_s >= 0 and qps > 0 (finite)", source, i));
  return RatePoint{static_cast<int64_t>(std::llround(t * 1e9)), q};
}

}  // namespace

Result<std::vector<RatePoint>> parse_rate_series(const std::string& text, const std::string& source) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return bad(source + " is not valid JSON; " + kSeriesForm);
  const nlohmann::json* points = &doc;
  if (doc.is_object()) {
    if (doc.size() != 1 || !doc.contains("points"))
      return bad(source + " must have exactly one top-level key, points; " + kSeriesForm);
    points = &doc["points"];
  }
  if (!points->is_array()) return bad(source + ": points must be an array; " + kSeriesForm);
  std::vector<RatePoint> out;
  for (size_t i = 0; i < points->size(); ++i) {
    auto p = read_point((*points)[i], i, source);
    if (!p) return tl::unexpected(p.error());
    if (!out.empty() && p->time_ns <= out.back().time_ns)
      return bad(fmt::format("{}: time_s must be strictly increasing (point {})", source, i));
    out.push_back(*p);
  }
  if (out.size() < 2) return bad(source + " needs at least two points; " + kSeriesForm);
  return out;
}

const char* model_selection_name(ModelSelection m) {
  switch (m) {
    case ModelSelection::kRandom: return "random";
    case ModelSelection::kWeighted: return "weighted";
    case ModelSelection::kRoundRobin: break;
  }
  return "round_robin";
}

namespace {

Status check_warmup(const BenchmarkConfig& c) {
  const WarmupShape& w = c.parity.warmup;
  if (w.any() && !c.has_warmup())
    return bad("the --warmup-* load settings need a warm-up; add --warmup-request-count N, "
               "--warmup-duration S or --num-warmup-sessions N");
  if (w.prefill_concurrency && !c.streaming)
    return bad("--warmup-prefill-concurrency needs --streaming (the first token ends prefill)");
  if (w.prefill_ramp_ns && !(w.prefill_concurrency || c.prefill_concurrency))
    return bad("--warmup-prefill-concurrency-ramp-duration needs --warmup-prefill-concurrency or --prefill-concurrency");
  if (w.rate_ramp_ns && !(w.request_rate || c.request_rate))
    return bad("--warmup-request-rate-ramp-duration needs --warmup-request-rate or --request-rate");
  if (w.arrival_pattern && !(w.request_rate || c.request_rate))
    return bad("--warmup-arrival-pattern needs --warmup-request-rate or --request-rate");
  return {};
}

Status check_series(const BenchmarkConfig& c) {
  if (c.parity.request_rate_series.empty()) return {};
  if (c.request_rate)
    return bad("--request-rate-series and --request-rate are mutually exclusive; give one of them");
  if (c.user_centric_rate)
    return bad("--request-rate-series does not combine with --user-centric-rate");
  if (c.fixed_schedule.value_or(false))
    return bad("--request-rate-series does not combine with --fixed-schedule");
  return {};
}

Status check_models(const BenchmarkConfig& c) {
  const auto& w = c.parity.model_weights;
  if (c.parity.model_selection != ModelSelection::kWeighted) {
    if (!w.empty())
      return bad("--model-weights needs --model-selection-strategy weighted");
    return {};
  }
  if (w.size() != c.models.size())
    return bad(fmt::format("--model-selection-strategy weighted needs --model-weights with one weight "
                           "per -m model ({} model(s), {} weight(s))", c.models.size(), w.size()));
  double sum = 0;
  for (double x : w) sum += x;
  if (std::fabs(sum - 1.0) > 0.01)
    return bad(fmt::format("--model-weights must sum to 1 (+/- 0.01); they sum to {}", sum));
  return {};
}

}  // namespace

Status validate_parity(const BenchmarkConfig& c) {
  if (auto st = check_warmup(c); !st) return st;
  if (auto st = check_series(c); !st) return st;
  if (auto st = check_models(c); !st) return st;
  if (c.parity.prefill_concurrency_ramp_ns && !c.prefill_concurrency)
    return bad("--prefill-concurrency-ramp-duration needs --prefill-concurrency");
  for (const auto* p : {&c.parity.server_profiler_start_path, &c.parity.server_profiler_stop_path})
    if (p->empty() || p->front() != '/')
      return bad("--server-profiler-start-path/--server-profiler-stop-path '" + *p +
                 "' must be a path starting with '/'");
  return {};
}

}  // namespace servebench::config
