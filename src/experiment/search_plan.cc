#include "experiment/search_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace servebench::experiment {
namespace {

Status bad(const std::string& flag, const std::string& v, const std::string& want) {
  return make_error(ErrorCode::kInvalidArgument,
                    fmt::format("{} '{}' is invalid; expected {}", flag, v, want));
}

Result<double> positive(const std::string& flag, const std::string& v) {
  auto d = core::parse_double(v);
  if (!d || !std::isfinite(*d) || !(*d > 0))
    return tl::unexpected(bad(flag, v, "a number > 0").error());
  return *d;
}

Result<int64_t> whole(const std::string& flag, const std::string& v, int64_t lo) {
  auto d = core::parse_double(v);
  if (!d || *d != std::floor(*d) || *d < static_cast<double>(lo) || *d > 1e9)
    return tl::unexpected(bad(flag, v, fmt::format("a whole number >= {}", lo)).error());
  return static_cast<int64_t>(*d);
}

Status one_of(const std::string& flag, const std::string& v, std::vector<std::string> choices) {
  if (std::find(choices.begin(), choices.end(), v) != choices.end()) return {};
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
  return bad(flag, v, "one of " + list);
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : " ") + p;
  return out;
}

}  // namespace

Result<std::string> aiperf_sla(const std::string& flag, const std::string& v) {
  const size_t a = v.find(':'), b = a == std::string::npos ? a : v.find(':', a + 1),
               c = b == std::string::npos ? b : v.find(':', b + 1);
  const std::string op = c == std::string::npos ? "" : v.substr(b + 1, c - b - 1);
  const char* sign = op == "lt" || op == "le" ? "<=" : op == "gt" || op == "ge" ? ">=" : nullptr;
  if (!sign || a == 0 || b == a + 1 || !core::parse_double(v.substr(c + 1)))
    return tl::unexpected(bad(flag, v,
                              "METRIC:STAT:OP:THRESHOLD with OP lt, le, gt or ge "
                              "(e.g. time_to_first_token:p95:lt:200)")
                              .error());
  return v.substr(0, b) + sign + v.substr(c + 1);
}

const std::vector<std::string>& plan_flag_names() {
  static const std::vector<std::string> kNames = {
      "--slo", "--over", "--min", "--max", "--resolution", "--budget", "--boundary-trials",
      // AIPerf's profile spellings (config/flags_search.cc)
      "--search-recipe", "--ttft-sla-ms", "--itl-sla-ms", "--tpot-sla-ms", "--e2e-sla-ms",
      "--search-sla", "--concurrency-min", "--concurrency-max", "--search-max-iterations",
      "--error-rate-sla", "--slo-attainment-fraction", "--search-style", "--search-planner",
      "--search-space", "--search-metric", "--search-stat", "--search-direction",
      "--search-initial-points", "--search-random-seed", "--search-percentile-pooling",
      "--search-sla-tier", "--bo-constraint-mode", "--optuna-sampler", "--optuna-acquisition",
      "--optuna-terminator", "--degradation-threshold", "--degradation-metric-tag",
      "--degradation-stat", "--isl-min", "--isl-max", "--isl-steps", "--osl-min", "--osl-max",
      "--osl-steps", "--concurrency-steps", "--isl-osl-pairs"};
  return kNames;
}

size_t plan_own_flag_count() { return 7; }

namespace {

Status take_number_flag(const std::string& n, const std::string& v, PlanArgs* a) {
  std::optional<int64_t>* counts[] = {&a->isl_min, &a->isl_max, &a->osl_min, &a->osl_max};
  const char* count_names[] = {"--isl-min", "--isl-max", "--osl-min", "--osl-max"};
  for (size_t i = 0; i < 4; ++i)
    if (n == count_names[i]) {
      auto w = whole(n, v, 1);
      if (!w) return tl::unexpected(w.error());
      *counts[i] = *w;
      return {};
    }
  if (n == "--isl-steps" || n == "--osl-steps" || n == "--concurrency-steps" ||
      n == "--search-initial-points" || n == "--search-random-seed") {
    auto w = whole(n, v, n == "--search-random-seed" ? 0 : n == "--search-initial-points" ? 1 : 2);
    if (!w) return tl::unexpected(w.error());
    if (n == "--isl-steps") a->isl_steps = *w;
    if (n == "--osl-steps") a->osl_steps = *w;
    if (n == "--concurrency-steps") a->conc_steps = *w;
    if (n == "--search-initial-points") a->initial_points = *w;
    if (n == "--search-random-seed") a->seed = static_cast<uint64_t>(*w);
    return {};
  }
  auto d = positive(n, v);
  if (!d) return tl::unexpected(d.error());
  if ((n == "--error-rate-sla" || n == "--degradation-threshold") && !(*d < 1))
    return bad(n, v, "a fraction in (0, 1), e.g. 0.05");
  if (n == "--slo-attainment-fraction" && *d > 1) return bad(n, v, "a fraction in (0, 1]");
  if (n == "--error-rate-sla")
    a->error_rate = v;
  else if (n == "--slo-attainment-fraction")
    a->attainment = v;
  else if (n == "--degradation-threshold")
    a->degradation = *d;
  else if (n == "--min" || n == "--concurrency-min")
    a->options.min = *d, a->min_given = true;
  else if (n == "--max" || n == "--concurrency-max")
    a->options.max = *d, a->max_given = true;
  else if (n == "--resolution")
    a->options.resolution = *d;
  else if (n == "--budget" || n == "--search-max-iterations") {
    if (n == "--search-max-iterations" && (*d < 2 || *d > 200)) return bad(n, v, "2 to 200");
    a->options.budget = static_cast<int64_t>(*d);
  } else if (n == "--boundary-trials") {
    a->options.boundary_trials = std::min<int64_t>(10, static_cast<int64_t>(*d));
  } else if (n == "--ttft-sla-ms")
    a->ttft_ms = v;
  else if (n == "--itl-sla-ms" || n == "--tpot-sla-ms")
    a->itl_ms = v;
  else if (n == "--e2e-sla-ms")
    a->e2e_ms = v;
  return {};
}

}  // namespace

Status take_plan_flag(const std::string& n, const std::string& v, PlanArgs* a) {
  const auto note = [&](const std::string& why) {
    a->notes.push_back(fmt::format("{} {}: {}", n, v, why));
  };
  if (n == "--slo")
    a->slo = join({a->slo, v});
  else if (n == "--over")
    a->over = v;
  else if (n == "--search-recipe")
    a->recipe = v;
  else if (n == "--search-style") {
    if (auto st = one_of(n, v, {"monotonic", "smooth_isotonic", "bo", "optuna", "grid"}); !st)
      return st;
    a->style = v;
  } else if (n == "--search-planner") {
    if (auto st = one_of(n, v, {"bayesian", "monotonic_sla", "smooth_isotonic", "optuna"}); !st)
      return st;
    a->planner = v;
    if (v == "optuna") note("servebench's own Gaussian-process planner runs (no Optuna)");
  } else if (n == "--search-sla") {
    auto s = aiperf_sla(n, v);
    if (!s) return tl::unexpected(s.error());
    a->search_sla = join({a->search_sla, *s});
  } else if (n == "--search-space")
    a->space.push_back(v);
  else if (n == "--search-metric")
    a->metric = v;
  else if (n == "--search-stat") {
    if (auto st = one_of(n, v, {"avg", "min", "max", "p50", "p90", "p95", "p99"}); !st) return st;
    a->stat = v;
  } else if (n == "--search-direction") {
    if (auto st = one_of(n, v, {"maximize", "minimize"}); !st) return st;
    a->direction = v;
  } else if (n == "--search-percentile-pooling") {
    if (auto st = one_of(n, v, {"mean", "pooled"}); !st) return st;
    a->pooling = v;
  } else if (n == "--search-sla-tier")
    a->tiers.push_back(v);
  else if (n == "--bo-constraint-mode") {
    if (auto st = one_of(n, v, {"penalty", "eic"}); !st) return st;
    note(
        "deprecated and ignored, as in AIPerf (the planner weighs expected improvement by the "
        "probability that every SLO holds)");
  } else if (n == "--optuna-sampler") {
    if (auto st = one_of(n, v, {"tpe", "gp", "botorch"}); !st) return st;
    note("Optuna's samplers are not reproduced; servebench's Gaussian-process planner runs");
  } else if (n == "--optuna-acquisition") {
    if (auto st =
            one_of(n, v, {"logei", "qlogei", "qnei", "qlognei", "qehvi", "qnehvi", "qlognehvi"});
        !st)
      return st;
    note("servebench's planner uses expected improvement times the SLO probability");
  } else if (n == "--optuna-terminator") {
    if (auto st = one_of(n, v, {"none", "regret", "emmr"}); !st) return st;
    if (v != "none")
      note(
          "Optuna's regret-bound terminators are not reproduced; the search stops "
          "on the budget or after 10 probes without improvement");
  } else if (n == "--degradation-metric-tag")
    a->degradation_metric = v;
  else if (n == "--degradation-stat") {
    if (auto st = one_of(n, v, {"avg", "min", "max", "p50", "p90", "p95", "p99"}); !st) return st;
    a->degradation_stat = v;
  } else if (n == "--isl-osl-pairs")
    a->isl_osl_pairs = v;
  else
    return take_number_flag(n, v, a);
  return {};
}

}  // namespace servebench::experiment
