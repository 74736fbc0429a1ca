// AIPerf's adaptive-search profile flags that `servebench search` implements (experiment/
// search_plan.h, planner.h): the recipe and its knobs, --search-sla filters and tiers, the
// search space, objective and planner, the bounds and the probe budget. Given to `servebench
// profile`, --search-recipe, --search-sla or --search-space make it run the search:
// profile_cmd.cc hands the command line to search_cmd.cc, which takes these flags out and reads
// them; a knob without one of those three is a usage error there. Here each value is only checked
// (a run's configuration holds none of them).
#include <fmt/format.h>

#include "config/flag_kinds.h"
#include "core/units.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

constexpr const char* kRecipes =
    "max-throughput-ttft-sla, max-throughput-itl-sla, max-concurrency-under-sla, "
    "max-goodput-under-slo, concurrency-ramp, prefill-ttft-curve, decode-itl-curve or pareto-sweep";

FlagSpec knob(std::string name, std::string help, std::function<Status(const std::string&)> check) {
  FlagSpec s = base(name, std::move(help), "");
  s.apply = [check](const FlagInput& in, C*) -> Status {
    if (in.text.empty()) return {};
    return check(in.text);
  };
  return s;
}

std::function<Status(const std::string&)> positive_ms(std::string flag) {
  return [flag](const std::string& t) -> Status {
    auto v = to_double(flag, t, "milliseconds > 0");
    if (!v) return tl::unexpected(v.error());
    if (!(*v > 0)) return usage(flag + " '" + t + "' must be > 0 (milliseconds)");
    return {};
  };
}

std::function<Status(const std::string&)> count_in(std::string flag, int64_t lo, int64_t hi) {
  return [=](const std::string& t) -> Status {
    auto v = to_count(flag, t, lo);
    if (!v) return tl::unexpected(v.error());
    if (*v > hi)
      return usage(fmt::format("{} '{}' is invalid; expected {} to {}", flag, t, lo, hi));
    return {};
  };
}

Status check_recipe(const std::string& t) {
  for (const char* r : {"max-throughput-ttft-sla", "max-throughput-itl-sla",
                        "max-concurrency-under-sla", "max-goodput-under-slo", "concurrency-ramp",
                        "prefill-ttft-curve", "decode-itl-curve", "pareto-sweep"})
    if (t == r) return {};
  return usage(fmt::format("--search-recipe '{}' is unknown; expected {}", t, kRecipes));
}

// AIPerf's 'tag:stat:op:threshold' ("time_to_first_token:p95:lt:200").
Status check_search_sla(const std::string& t) {
  const size_t a = t.find(':'), b = a == std::string::npos ? a : t.find(':', a + 1),
               c = b == std::string::npos ? b : t.find(':', b + 1);
  bool ok = c != std::string::npos && a > 0 && b > a + 1 && c > b + 1;
  if (ok) {
    const std::string op = t.substr(b + 1, c - b - 1);
    ok = (op == "lt" || op == "le" || op == "gt" || op == "ge") &&
         core::parse_double(t.substr(c + 1)).has_value();
  }
  if (!ok)
    return usage("--search-sla '" + t +
                 "' is invalid; expected METRIC:STAT:OP:THRESHOLD with OP lt, le, gt or ge "
                 "(e.g. time_to_first_token:p95:lt:200)");
  return {};
}

std::function<Status(const std::string&)> choice(std::string flag,
                                                 std::vector<std::string> options) {
  return [=](const std::string& t) -> Status {
    for (const auto& o : options)
      if (t == o) return {};
    std::string list;
    for (const auto& o : options) list += (list.empty() ? "" : ", ") + o;
    return usage(fmt::format("{} '{}' is invalid; expected one of {}", flag, t, list));
  };
}

// A fraction in (0, 1), or (0, 1] when `one` is allowed.
std::function<Status(const std::string&)> fraction(std::string flag, bool one) {
  return [=](const std::string& t) -> Status {
    auto v = to_double(flag, t, "a fraction");
    if (!v) return tl::unexpected(v.error());
    if (!(*v > 0) || *v > 1 || (*v == 1 && !one))
      return usage(fmt::format("{} '{}' is invalid; expected a fraction in (0, 1{}", flag, t,
                               one ? "]" : ")"));
    return {};
  };
}

std::function<Status(const std::string&)> any_text(std::string flag) {
  return [=](const std::string& t) -> Status {
    if (t.empty()) return usage(flag + " needs a value");
    return {};
  };
}

// A repeatable knob: every value is checked.
FlagSpec list_knob(std::string name, std::string help,
                   std::function<Status(const std::string&)> check) {
  FlagSpec s = base(name, std::move(help), "");
  s.arity = FlagArity::kList;
  s.one_value_per_use = true;
  s.apply = [check](const FlagInput& in, C*) -> Status {
    for (const auto& t : in.texts)
      if (auto st = check(t); !st) return st;
    return {};
  };
  return s;
}

// The planner, objective, SLA and recipe-grid knobs (values checked again, fully, by the
// search itself: experiment/search_plan.cc).
void add_plan_knobs(std::vector<FlagSpec>* out) {
  const std::vector<std::string> stats = {"avg", "min", "max", "p50", "p90", "p95", "p99"};
  out->push_back(knob("--error-rate-sla",
                      "Search: request error rate at most this fraction (0.05 = 5%)",
                      fraction("--error-rate-sla", false)));
  out->push_back(
      knob("--slo-attainment-fraction",
           "Search: the fraction of requests meeting every per-request SLO (default 0.95)",
           fraction("--slo-attainment-fraction", true)));
  out->push_back(knob(
      "--search-style", "max-concurrency-under-sla: monotonic, smooth_isotonic, bo, optuna or grid",
      choice("--search-style", {"monotonic", "smooth_isotonic", "bo", "optuna", "grid"})));
  out->push_back(
      knob("--search-planner", "Search planner: bayesian, monotonic_sla, smooth_isotonic or optuna",
           choice("--search-planner", {"bayesian", "monotonic_sla", "smooth_isotonic", "optuna"})));
  out->push_back(
      list_knob("--search-space",
                "Search space dimension PATH:LO,HI[:int|real] (repeatable); runs the search",
                any_text("--search-space")));
  out->push_back(
      knob("--search-metric", "Search objective metric tag", any_text("--search-metric")));
  out->push_back(knob("--search-stat", "Search objective statistic (default avg)",
                      choice("--search-stat", stats)));
  out->push_back(knob("--search-direction", "Search objective direction: maximize or minimize",
                      choice("--search-direction", {"maximize", "minimize"})));
  out->push_back(knob("--search-initial-points",
                      "Bayesian planner: space-filling points first (default 5)",
                      count_in("--search-initial-points", 1, 199)));
  out->push_back(knob("--search-random-seed", "Bayesian planner: seed of its random choices",
                      count_in("--search-random-seed", 0, int64_t{1} << 62)));
  out->push_back(knob("--search-percentile-pooling",
                      "Search: mean of the trials' percentiles (mean)",
                      choice("--search-percentile-pooling", {"mean", "pooled"})));
  out->push_back(list_knob("--search-sla-tier",
                           "Search SLA tier [LABEL:]FILTER[,FILTER...] (2-10 uses)",
                           any_text("--search-sla-tier")));
  out->push_back(knob("--bo-constraint-mode", "Deprecated and ignored, as in AIPerf",
                      choice("--bo-constraint-mode", {"penalty", "eic"})));
  out->push_back(knob("--optuna-sampler", "Accepted; servebench's Gaussian-process planner runs",
                      choice("--optuna-sampler", {"tpe", "gp", "botorch"})));
  out->push_back(knob("--optuna-acquisition",
                      "Accepted; servebench's planner uses constrained expected improvement",
                      choice("--optuna-acquisition", {"logei", "qlogei", "qnei", "qlognei", "qehvi",
                                                      "qnehvi", "qlognehvi"})));
  out->push_back(knob("--optuna-terminator", "Accepted; the search stops on its budget or patience",
                      choice("--optuna-terminator", {"none", "regret", "emmr"})));
  out->push_back(knob("--degradation-threshold",
                      "concurrency-ramp: relative degradation of the knee (default 0.2)",
                      fraction("--degradation-threshold", false)));
  out->push_back(knob("--degradation-metric-tag",
                      "concurrency-ramp: metric of the knee (default request_latency)",
                      any_text("--degradation-metric-tag")));
  out->push_back(knob("--degradation-stat", "concurrency-ramp: statistic of the knee (default p99)",
                      choice("--degradation-stat", stats)));
  for (const char* f : {"--isl-min", "--isl-max", "--osl-min", "--osl-max"})
    out->push_back(
        knob(f, "Curve recipes: bound of the log-spaced grid", count_in(f, 1, int64_t{1} << 30)));
  for (const char* f : {"--isl-steps", "--osl-steps", "--concurrency-steps"})
    out->push_back(
        knob(f, "Curve and ramp recipes: points of the log-spaced grid", count_in(f, 2, 1000)));
  out->push_back(knob("--isl-osl-pairs", "pareto-sweep: ISL/OSL pairs, e.g. 128/128,512/256",
                      any_text("--isl-osl-pairs")));
}

}  // namespace

void add_search_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--search-recipe",
                      std::string("Run the SLO capacity search (servebench search) with this "
                                  "recipe: ") +
                          kRecipes,
                      "");
    s.apply = [](const FlagInput& in, C*) -> Status {
      if (in.text.empty()) return {};
      return check_recipe(in.text);
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--search-sla",
                      "An SLO of the search, METRIC:STAT:OP:THRESHOLD (repeatable; OP lt, le, gt, "
                      "ge; e.g. time_to_first_token:p95:lt:200); runs the search over concurrency",
                      "");
    s.arity = FlagArity::kList;
    s.one_value_per_use = true;
    s.apply = [](const FlagInput& in, C*) -> Status {
      for (const auto& t : in.texts)
        if (auto st = check_search_sla(t); !st) return st;
      return {};
    };
    out->push_back(std::move(s));
  }
  out->push_back(knob("--ttft-sla-ms", "Search recipes: time_to_first_token p99 at most this (ms)",
                      positive_ms("--ttft-sla-ms")));
  out->push_back(knob("--itl-sla-ms", "Search recipes: inter_token_latency p99 at most this (ms)",
                      positive_ms("--itl-sla-ms")));
  out->push_back(knob("--tpot-sla-ms", "Same as --itl-sla-ms (time per output token)",
                      positive_ms("--tpot-sla-ms")));
  out->push_back(knob("--e2e-sla-ms",
                      "Search recipes over concurrency: request_latency p99 at most this (ms)",
                      positive_ms("--e2e-sla-ms")));
  out->push_back(knob("--concurrency-min", "Search: the lowest load probed (default 1)",
                      count_in("--concurrency-min", 1, int64_t{1} << 30)));
  out->push_back(knob("--concurrency-max", "Search: the highest load probed (default 1024)",
                      count_in("--concurrency-max", 1, int64_t{1} << 30)));
  out->push_back(knob("--search-max-iterations", "Search: probes at most (2-200, default 20)",
                      count_in("--search-max-iterations", 2, 200)));
  add_plan_knobs(out);
}

}  // namespace servebench::config
