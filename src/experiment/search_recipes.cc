// expand_plan (search_plan.h): AIPerf's recipe names, the explicit --search-space path and the
// plain --slo/--over path, each as a planner, its PlanSpec and the recipe's post-processing.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/units.h"
#include "experiment/pooled.h"
#include "experiment/search_plan.h"

namespace servebench::experiment {
namespace {

Status usage(const std::string& s) { return make_error(ErrorCode::kInvalidArgument, s); }

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : " ") + p;
  return out;
}

Dimension axis_dim(const std::string& axis, double lo, double hi) {
  Dimension d;
  d.path = d.axis = axis;
  d.lo = lo;
  d.hi = hi;
  d.integer = axis != "request-rate";
  return d;
}

// "128/128,512/256" -> {{128,128},{512,256}}.
Result<std::vector<std::pair<double, double>>> parse_pairs(const std::string& text) {
  std::vector<std::pair<double, double>> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    const size_t slash = item.find('/');
    auto a = core::parse_double(item.substr(0, slash));
    auto b = core::parse_double(slash == std::string::npos ? "" : item.substr(slash + 1));
    if (slash == std::string::npos || !a || !b || *a < 1 || *b < 1 || *a != std::floor(*a) ||
        *b != std::floor(*b))
      return tl::unexpected(usage("--isl-osl-pairs: '" + item +
                                  "' is invalid; expected <isl>/<osl> with positive whole numbers, "
                                  "e.g. 128/128,512/256")
                                .error());
    if (std::find(out.begin(), out.end(), std::make_pair(*a, *b)) != out.end())
      return tl::unexpected(usage("--isl-osl-pairs: duplicate pair '" + item + "'").error());
    out.emplace_back(*a, *b);
  }
  if (out.empty())
    return tl::unexpected(usage("--isl-osl-pairs is empty; expected e.g. 128/128,512/256").error());
  return out;
}

// Recipe-only knobs and the recipes that read them.
Status check_knobs(const PlanArgs& a) {
  const auto given = [&](const char* flag, bool set, std::vector<std::string> recipes) -> Status {
    if (!set || std::find(recipes.begin(), recipes.end(), a.recipe) != recipes.end()) return {};
    return usage(fmt::format("{} is a knob of --search-recipe {}; {}", flag, recipes.front(),
                             a.recipe.empty() ? "add that recipe" : "not of " + a.recipe));
  };
  const Status checks[] = {
      given("--search-style", !a.style.empty(), {"max-concurrency-under-sla"}),
      given("--degradation-threshold", a.degradation.has_value(), {"concurrency-ramp"}),
      given("--degradation-metric-tag", !a.degradation_metric.empty(), {"concurrency-ramp"}),
      given("--degradation-stat", !a.degradation_stat.empty(), {"concurrency-ramp"}),
      given("--isl-min", a.isl_min.has_value(), {"prefill-ttft-curve"}),
      given("--isl-max", a.isl_max.has_value(), {"prefill-ttft-curve"}),
      given("--isl-steps", a.isl_steps.has_value(), {"prefill-ttft-curve"}),
      given("--osl-min", a.osl_min.has_value(), {"decode-itl-curve"}),
      given("--osl-max", a.osl_max.has_value(), {"decode-itl-curve"}),
      given("--osl-steps", a.osl_steps.has_value(), {"decode-itl-curve"}),
      given("--concurrency-steps", a.conc_steps.has_value(),
            {"concurrency-ramp", "decode-itl-curve"}),
      given("--isl-osl-pairs", !a.isl_osl_pairs.empty(), {"pareto-sweep"}),
  };
  for (const auto& st : checks)
    if (!st) return st;
  if (!a.recipe.empty()) {
    const char* defining = !a.space.empty()       ? "--search-space"
                           : !a.planner.empty()   ? "--search-planner"
                           : !a.metric.empty()    ? "--search-metric"
                           : !a.direction.empty() ? "--search-direction"
                                                  : nullptr;
    if (defining)
      return usage(fmt::format("--search-recipe {} and {} both define the search; drop one",
                               a.recipe, defining));
  }
  return {};
}

struct Slas {
  std::string ttft, itl, e2e, error;
};

Slas slas_of(const PlanArgs& a) {
  Slas s;
  if (!a.ttft_ms.empty()) s.ttft = "time_to_first_token:p99<=" + a.ttft_ms + "ms";
  if (!a.itl_ms.empty()) s.itl = "inter_token_latency:p99<=" + a.itl_ms + "ms";
  if (!a.e2e_ms.empty()) s.e2e = "request_latency:p99<=" + a.e2e_ms + "ms";
  if (!a.error_rate.empty())  // request_error_rate is in percent; the flag is a fraction
    s.error = fmt::format("request_error_rate:avg<={:g}", *core::parse_double(a.error_rate) * 100);
  return s;
}

// Per-request attainment: the SLA knobs become the runs' --goodput, and the criterion is the
// fraction of good requests.
Status attainment(const PlanArgs& a, Plan* p, std::string* slo) {
  std::string g;
  if (!a.ttft_ms.empty()) g = join({g, "time_to_first_token:" + a.ttft_ms});
  if (!a.itl_ms.empty()) g = join({g, "inter_token_latency:" + a.itl_ms});
  if (!a.e2e_ms.empty()) g = join({g, "request_latency:" + a.e2e_ms});
  if (g.empty())
    return usage(
        "--slo-attainment-fraction needs per-request SLOs: --ttft-sla-ms, --itl-sla-ms "
        "or --e2e-sla-ms");
  p->goodput = g;
  *slo =
      join({*slo, "good_request_fraction:avg>=" + (a.attainment.empty() ? "0.95" : a.attainment)});
  return {};
}

Status grid_recipe(const PlanArgs& a, Plan* p) {
  PlanSpec& s = p->spec;
  if (a.recipe == "concurrency-ramp") {
    s.dims = {axis_dim("concurrency", a.min_given ? a.options.min : 1,
                       a.max_given ? a.options.max : 1000)};
    for (double c : log_grid(s.dims[0].lo, s.dims[0].hi, a.conc_steps.value_or(8), true))
      s.grid.push_back({c});
    p->post = "degradation_knee";
    p->knee.threshold = a.degradation.value_or(0.2);
    if (!a.degradation_metric.empty()) p->knee.metric = a.degradation_metric;
    if (!a.degradation_stat.empty()) p->knee.stat = a.degradation_stat;
  } else if (a.recipe == "prefill-ttft-curve") {
    const double lo = static_cast<double>(a.isl_min.value_or(256)),
                 hi = static_cast<double>(a.isl_max.value_or(32768));
    if (!(hi > lo)) return usage("--isl-max must be > --isl-min");
    s.dims = {axis_dim("isl", lo, hi), axis_dim("concurrency", 1, 1)};
    for (double isl : log_grid(lo, hi, a.isl_steps.value_or(8), true)) s.grid.push_back({isl, 1});
    p->post = "prefill_curve";
  } else if (a.recipe == "decode-itl-curve") {
    const double clo = a.min_given ? a.options.min : 1, chi = a.max_given ? a.options.max : 200;
    const double olo = static_cast<double>(a.osl_min.value_or(64)),
                 ohi = static_cast<double>(a.osl_max.value_or(1024));
    if (!(chi > clo) || !(ohi > olo)) return usage("decode-itl-curve needs min < max on both axes");
    s.dims = {axis_dim("concurrency", clo, chi), axis_dim("osl", olo, ohi)};
    for (double c : log_grid(clo, chi, a.conc_steps.value_or(6), true))
      for (double o : log_grid(olo, ohi, a.osl_steps.value_or(4), true)) s.grid.push_back({c, o});
    p->post = "decode_itl_surface";
  } else {  // pareto-sweep
    if (a.isl_osl_pairs.empty()) return usage("--search-recipe pareto-sweep needs --isl-osl-pairs");
    auto pairs = parse_pairs(a.isl_osl_pairs);
    if (!pairs) return tl::unexpected(pairs.error());
    std::vector<double> cs = a.concurrency_list;
    if (cs.empty()) cs = {1, 4, 16, 64, 256};
    if (pairs->size() * cs.size() < 2)
      return usage(
          "--search-recipe pareto-sweep: a single point is no frontier; pass at least 2 "
          "pairs or at least 2 --concurrency values");
    s.dims = {axis_dim("isl", 1, 1e9), axis_dim("osl", 1, 1e9), axis_dim("concurrency", 1, 1e9)};
    for (const auto& [i, o] : *pairs)
      for (double c : cs) s.grid.push_back({i, o, c});
    p->post = "pareto_sweep";
  }
  p->planner = "grid";
  s.options.budget = static_cast<int64_t>(s.grid.size());
  return {};
}

Status recipe_plan(const PlanArgs& a, Plan* p, std::string* slo) {
  const Slas s = slas_of(a);
  const auto need = [&](const std::string& have, const char* knob) -> Status {
    if (!have.empty()) return {};
    return usage(fmt::format("--search-recipe {} needs {}", a.recipe, knob));
  };
  p->planner = "monotonic_sla";
  if (a.recipe == "max-throughput-ttft-sla" || a.recipe == "max-throughput-itl-sla") {
    const bool ttft = a.recipe == "max-throughput-ttft-sla";
    if (auto st = need(ttft ? s.ttft : s.itl, ttft ? "--ttft-sla-ms" : "--itl-sla-ms"); !st)
      return st;
    *slo = join({ttft ? s.ttft : s.itl, s.error});
    p->over = "request-rate";
  } else if (a.recipe == "max-concurrency-under-sla") {
    if (!a.attainment.empty()) {
      if (auto st = attainment(a, p, slo); !st) return st;
      *slo = join({*slo, s.error});
    } else {
      *slo = join({s.ttft, s.itl, s.e2e, s.error});
    }
    if (auto st = need(*slo + a.search_sla + (a.tiers.empty() ? "" : "tiers"),
                       "--ttft-sla-ms, --itl-sla-ms, --e2e-sla-ms, --error-rate-sla, --search-sla "
                       "or --search-sla-tier");
        !st)
      return st;
    p->over = "concurrency";
    const std::string style = a.style.empty() ? "monotonic" : a.style;
    if (style == "smooth_isotonic") p->planner = "smooth_isotonic";
    if (style == "bo" || style == "optuna") {
      p->planner = "bayesian";
      p->spec.objective = Objective{"output_token_throughput_avg", true};
    }
    if (style == "grid") {
      p->planner = "grid";
      p->post = "sla_breach";
    }
  } else if (a.recipe == "max-goodput-under-slo") {
    if (auto st = attainment(a, p, slo); !st) return st;
    *slo = join({*slo, s.error});
    p->over = "concurrency";
    p->spec.objective = Objective{"goodput_avg", true};
  } else if (a.recipe == "concurrency-ramp" || a.recipe == "prefill-ttft-curve" ||
             a.recipe == "decode-itl-curve" || a.recipe == "pareto-sweep") {
    *slo = join({s.ttft, s.itl, s.e2e, s.error});
    return grid_recipe(a, p);
  } else {
    return usage(fmt::format(
        "--search-recipe '{}' is unknown; expected max-throughput-ttft-sla, "
        "max-throughput-itl-sla, "
        "max-concurrency-under-sla, max-goodput-under-slo, concurrency-ramp, prefill-ttft-curve, "
        "decode-itl-curve or pareto-sweep",
        a.recipe));
  }
  return {};
}

Result<std::vector<Slo>> tier_slos(const std::string& text) {
  std::string label, rest = text;
  const size_t comma = text.find(',');
  const std::string first = text.substr(0, comma);
  if (std::count(first.begin(), first.end(), ':') == 4) {
    label = first.substr(0, first.find(':'));
    rest = text.substr(label.size() + 1);
  }
  std::string slo;
  std::stringstream in(rest);
  std::string item;
  while (std::getline(in, item, ',')) {
    auto s = aiperf_sla("--search-sla-tier", item);
    if (!s) return tl::unexpected(s.error());
    slo = join({slo, *s});
  }
  auto parsed = parse_slos(slo);
  if (!parsed)
    return tl::unexpected(usage("--search-sla-tier '" + text + "' has no filters").error());
  for (auto& x : *parsed) x.text = label;  // the label travels in text of the first entry
  return parsed;
}

}  // namespace

Result<Plan> expand_plan(PlanArgs a) {
  if (auto st = check_knobs(a); !st) return tl::unexpected(st.error());
  Plan p;
  p.spec.options = a.options;
  std::string slo = a.slo;
  if (!a.recipe.empty()) {
    if (auto st = recipe_plan(a, &p, &slo); !st) return tl::unexpected(st.error());
  } else {
    p.planner = a.planner.empty() ? (a.space.empty() ? "monotonic_sla" : "bayesian") : a.planner;
    if (p.planner == "optuna") p.planner = "bayesian";
    const Slas s = slas_of(a);
    if (!a.attainment.empty()) {
      if (auto st = attainment(a, &p, &slo); !st) return tl::unexpected(st.error());
      slo = join({slo, s.error});
    } else {
      slo = join({slo, s.ttft, s.itl, s.e2e, s.error});
    }
  }
  slo = join({slo, a.search_sla});
  p.slo_text = slo;
  if (!slo.empty()) {
    auto parsed = parse_slos(slo);
    if (!parsed) return tl::unexpected(parsed.error());
    p.spec.slos = *parsed;
  }
  PlanSpec& s = p.spec;
  if (s.dims.empty()) {
    for (const auto& text : a.space) {
      auto d = parse_dimension(text);
      if (!d) return tl::unexpected(d.error());
      s.dims.push_back(*d);
    }
    if (s.dims.empty()) {
      const std::string over = a.over.empty() ? p.over : a.over;
      if (over != "concurrency" && over != "request-rate")
        return tl::unexpected(
            usage("--over '" + over + "' is invalid; expected concurrency or request-rate")
                .error());
      if (s.options.max < s.options.min)
        return tl::unexpected(usage("--max must be >= --min").error());
      s.dims.push_back(axis_dim(over, s.options.min, s.options.max));
    }
  }
  p.over = s.dims[0].axis;
  s.options.min = s.dims[0].lo;
  s.options.max = s.dims[0].hi;
  s.options.integer = s.dims[0].integer;
  if (s.options.resolution == 0)
    s.options.resolution = s.options.integer ? 1 : std::max(0.01, s.options.min / 4);
  if (p.planner == "grid" && s.grid.empty())
    for (double v : log_grid(s.options.min, s.options.max, 8, s.options.integer))
      s.grid.push_back({v});
  if (p.planner == "grid") s.options.budget = static_cast<int64_t>(s.grid.size());
  if (!a.metric.empty() || !a.direction.empty()) {
    if (a.metric.empty() || a.direction.empty())
      return tl::unexpected(usage("--search-metric and --search-direction go together").error());
    s.objective =
        Objective{a.metric + "_" + (a.stat.empty() ? "avg" : a.stat), a.direction == "maximize"};
  }
  if (a.initial_points)
    s.initial_points = *a.initial_points;
  else
    s.initial_points = std::min<int64_t>(5, std::max<int64_t>(1, s.options.budget - 1));
  s.seed = a.seed;
  if (!a.tiers.empty()) {
    if (a.tiers.size() < 2 || a.tiers.size() > 10)
      return tl::unexpected(usage("--search-sla-tier needs 2 to 10 tiers (one per use)").error());
    for (size_t i = 0; i < a.tiers.size(); ++i) {
      auto t = tier_slos(a.tiers[i]);
      if (!t) return tl::unexpected(t.error());
      const std::string label =
          t->front().text.empty() ? fmt::format("tier_{}", i + 1) : t->front().text;
      std::vector<Slo> all = *t;
      for (auto& x : all)
        x.text = x.key + (x.at_most ? "<=" : ">=") + fmt::format("{:g}", x.threshold);
      all.insert(all.end(), s.slos.begin(), s.slos.end());
      p.tiers.emplace_back(label, all);
    }
  }
  if (a.pooling == "pooled") {
    std::vector<std::string> keys;
    for (const auto& x : s.slos) keys.push_back(x.key);
    for (const auto& [label, slos] : p.tiers)
      for (const auto& x : slos) keys.push_back(x.key);
    if (s.objective) keys.push_back(s.objective->key);
    for (const auto& k : keys)
      if (percentile_key(k) &&
          std::find(p.pooled_keys.begin(), p.pooled_keys.end(), k) == p.pooled_keys.end())
        p.pooled_keys.push_back(k);
    if (p.pooled_keys.empty())
      return tl::unexpected(
          usage("--search-percentile-pooling pooled needs a percentile (p50, p90, "
                "p95, p99) in an SLO or --search-stat")
              .error());
  }
  auto planner = make_planner(p.planner);
  PlanSpec check = s;
  if (!p.tiers.empty()) check.slos = p.tiers.front().second;
  if (const std::string why = planner->check(check); !why.empty())
    return tl::unexpected(usage(fmt::format("the {} planner {}", p.planner, why)).error());
  return p;
}

}  // namespace servebench::experiment
