#include "experiment/planner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "experiment/planners.h"

namespace servebench::experiment {

Result<Dimension> parse_dimension(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return make_error(
        ErrorCode::kInvalidArgument,
        fmt::format("--search-space '{}' is invalid: {}; expected PATH:LO,HI[:int|real] "
                    "such as concurrency:1,64:int",
                    text, why));
  };
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0) return bad("no PATH:");
  Dimension d;
  d.path = text.substr(0, colon);
  std::string rest = text.substr(colon + 1);
  d.integer = false;
  const size_t kind = rest.find(':');
  if (kind != std::string::npos) {
    const std::string k = rest.substr(kind + 1);
    if (k != "int" && k != "real") return bad("KIND '" + k + "' is not int or real");
    d.integer = k == "int";
    rest.resize(kind);
  }
  const size_t comma = rest.find(',');
  if (comma == std::string::npos) return bad("no LO,HI");
  auto lo = core::parse_double(rest.substr(0, comma));
  auto hi = core::parse_double(rest.substr(comma + 1));
  if (!lo || !hi || !std::isfinite(*lo) || !std::isfinite(*hi))
    return bad("LO and HI must be numbers");
  if (!(*lo > 0) || !(*hi > *lo)) return bad("needs 0 < LO < HI");
  d.lo = *lo;
  d.hi = *hi;
  const std::string leaf =
      d.path.substr(d.path.rfind('.') == std::string::npos ? 0 : d.path.rfind('.') + 1);
  if (leaf == "concurrency")
    d.axis = "concurrency";
  else if (leaf == "rate" || leaf == "request_rate" || leaf == "request-rate")
    d.axis = "request-rate";
  else if (leaf == "isl")
    d.axis = "isl";
  else if (leaf == "osl")
    d.axis = "osl";
  else
    return bad("PATH must end in concurrency, rate, request_rate, isl or osl");
  if (d.axis != "request-rate" && !d.integer && kind == std::string::npos) d.integer = true;
  return d;
}

double binding_margin(const std::vector<Slo>& slos, const ProbeResult& r) {
  if (!r.ok) return -1;
  double m = 1;
  for (const auto& s : slos) {
    auto it = r.values.find(s.key);
    if (it == r.values.end()) return -1;
    const double scale = std::max(std::abs(s.threshold), 1e-9);
    const double one =
        s.at_most ? (s.threshold - it->second) / scale : (it->second - s.threshold) / scale;
    m = std::min(m, std::max(one, -1.0));
  }
  return m;
}

SearchStep probe_point(const PlanSpec& spec, const PointProbe& probe, const Point& point,
                       const char* phase, int64_t trials, int64_t index) {
  SearchStep s;
  s.index = index;
  s.point = point;
  s.load = point.at(0);
  s.phase = phase;
  s.trials = trials;
  s.result = probe(point, trials, index);
  s.violations = check_slos(spec.slos, s.result);
  s.pass = s.violations.empty();
  if (spec.objective && s.result.ok) {
    auto it = s.result.values.find(spec.objective->key);
    if (it != s.result.values.end())
      s.objective = it->second;
    else
      s.violations.push_back(spec.objective->key + " missing"), s.pass = false;
  }
  return s;
}

void summarize_outcome(const PlanSpec& spec, SearchOutcome* out) {
  out->answer.reset();
  out->first_fail.reset();
  out->best.reset();
  for (const auto& s : out->steps) {
    if (!s.pass) continue;
    bool better = !out->best;
    if (!better) {
      const auto& b = out->steps[static_cast<size_t>(*out->best)];
      if (spec.objective && s.objective && b.objective)
        better =
            spec.objective->maximize ? *s.objective > *b.objective : *s.objective < *b.objective;
      else if (!spec.objective)
        better = s.load > b.load;
    }
    if (better) out->best = s.index;
  }
  if (out->best) out->answer = out->steps[static_cast<size_t>(*out->best)].load;
  for (const auto& s : out->steps)
    if (!s.pass && (!out->answer || s.load > *out->answer) &&
        (!out->first_fail || s.load < *out->first_fail))
      out->first_fail = s.load;
}

std::vector<double> log_grid(double lo, double hi, int64_t steps, bool integer) {
  std::vector<double> out;
  if (steps < 2 || !(lo > 0) || !(hi > lo)) return {lo};
  const double r = std::log(hi / lo) / static_cast<double>(steps - 1);
  for (int64_t i = 0; i < steps; ++i) {
    double v = i + 1 == steps ? hi : lo * std::exp(r * static_cast<double>(i));
    if (integer) v = std::round(v);
    if (out.empty() || v > out.back()) out.push_back(v);
  }
  return out;
}

std::string check_one_dimension_slos(const PlanSpec& spec) {
  if (spec.dims.size() != 1) return "needs exactly one --search-space dimension";
  if (spec.slos.empty()) return "needs at least one SLO";
  return "";
}

namespace {

// Bracketing + bisection on dims[0] (search.h's run_search), the other dimensions fixed.
class MonotonicPlanner : public SearchPlanner {
 public:
  std::string check(const PlanSpec& spec) const override { return check_one_dimension_slos(spec); }
  SearchOutcome run(const PlanSpec& spec, const PointProbe& probe) const override {
    auto out = run_search(spec.slos, spec.options, [&](double load, int64_t trials, int64_t i) {
      return probe(Point{load}, trials, i);
    });
    for (auto& s : out.steps) {
      s.point = {s.load};
      if (spec.objective && s.result.ok) {
        auto it = s.result.values.find(spec.objective->key);
        if (it != s.result.values.end()) s.objective = it->second;
      }
    }
    return out;
  }
};

// Every point of spec.grid, in order; the answer is the best passing point.
class GridPlanner : public SearchPlanner {
 public:
  std::string check(const PlanSpec& spec) const override {
    return spec.grid.empty() ? "needs grid points" : "";
  }
  SearchOutcome run(const PlanSpec& spec, const PointProbe& probe) const override {
    SearchOutcome out;
    for (const auto& p : spec.grid) {
      if (static_cast<int64_t>(out.steps.size()) >= spec.options.budget) {
        out.stop_reason = "budget";
        break;
      }
      out.steps.push_back(probe_point(spec, probe, p, "grid", spec.options.boundary_trials,
                                      static_cast<int64_t>(out.steps.size())));
      if (out.steps.back().result.interrupted) {
        out.stop_reason = "interrupted";
        break;
      }
    }
    if (out.stop_reason.empty()) out.stop_reason = "grid done";
    summarize_outcome(spec, &out);
    return out;
  }
};

}  // namespace

const std::vector<std::string>& planner_names() {
  static const std::vector<std::string> kNames = {"monotonic_sla", "smooth_isotonic", "bayesian",
                                                  "optuna", "grid"};
  return kNames;
}

std::unique_ptr<SearchPlanner> make_planner(const std::string& name) {
  if (name == "monotonic_sla" || name == "monotonic") return std::make_unique<MonotonicPlanner>();
  if (name == "smooth_isotonic") return make_isotonic_planner();
  if (name == "bayesian" || name == "optuna" || name == "bo") return make_bayesian_planner();
  if (name == "grid") return std::make_unique<GridPlanner>();
  return nullptr;
}

}  // namespace servebench::experiment
