// The Bayesian planner: a Latin-hypercube start (--search-initial-points), then each probe at
// the candidate that maximizes expected improvement of the objective times the probability
// that every SLO holds (a second GP on the binding SLO margin). Inputs are scaled to [0, 1]
// per dimension; whole-number dimensions are rounded and a point is never probed twice.
#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "experiment/gp.h"
#include "experiment/planners.h"

namespace servebench::experiment {
namespace {

double to_unit(const Dimension& d, double v) { return (v - d.lo) / (d.hi - d.lo); }
double from_unit(const Dimension& d, double u) {
  double v = d.lo + std::clamp(u, 0.0, 1.0) * (d.hi - d.lo);
  return d.integer ? std::round(v) : v;
}

class BayesianPlanner : public SearchPlanner {
 public:
  std::string check(const PlanSpec& spec) const override {
    if (spec.dims.empty()) return "needs a --search-space";
    if (!spec.objective) return "needs an objective (--search-metric and --search-direction)";
    if (spec.initial_points < 1 || spec.initial_points >= spec.options.budget)
      return "needs 1 <= --search-initial-points < --search-max-iterations";
    return "";
  }

  SearchOutcome run(const PlanSpec& spec, const PointProbe& probe) const override {
    std::mt19937_64 rng(spec.seed ? *spec.seed : std::random_device{}());
    SearchOutcome out;
    std::set<Point> seen;
    std::vector<Point> queue = initial_design(spec, rng);
    int64_t since_best = 0;
    double best = -std::numeric_limits<double>::infinity();
    while (static_cast<int64_t>(out.steps.size()) < spec.options.budget) {
      Point p;
      if (!queue.empty()) {
        p = queue.front();
        queue.erase(queue.begin());
        if (seen.count(p)) continue;
      } else if (!propose(spec, out, seen, rng, &p)) {
        out.stop_reason = "space exhausted";
        break;
      }
      seen.insert(p);
      out.steps.push_back(probe_point(
          spec, probe, p,
          out.steps.size() < static_cast<size_t>(spec.initial_points) ? "initial" : "bayesian",
          spec.options.boundary_trials, static_cast<int64_t>(out.steps.size())));
      const SearchStep& s = out.steps.back();
      if (s.result.interrupted) {
        out.stop_reason = "interrupted";
        break;
      }
      const double v = s.pass && s.objective ? signed_value(spec, *s.objective) : best;
      if (v > best)
        best = v, since_best = 0;
      else if (++since_best >= spec.patience && queue.empty()) {
        out.stop_reason = "improvement patience";
        break;
      }
    }
    if (out.stop_reason.empty()) out.stop_reason = "budget";
    summarize_outcome(spec, &out);
    return out;
  }

 private:
  static double signed_value(const PlanSpec& spec, double v) {
    return spec.objective->maximize ? v : -v;
  }

  static Point snap(const PlanSpec& spec, const std::vector<double>& u) {
    Point p;
    for (size_t i = 0; i < spec.dims.size(); ++i) p.push_back(from_unit(spec.dims[i], u[i]));
    return p;
  }

  // Latin hypercube: one point per stratum of every dimension, strata shuffled per dimension.
  static std::vector<Point> initial_design(const PlanSpec& spec, std::mt19937_64& rng) {
    const size_t n = static_cast<size_t>(spec.initial_points);
    std::uniform_real_distribution<double> uni(0, 1);
    std::vector<std::vector<double>> u(n, std::vector<double>(spec.dims.size()));
    for (size_t d = 0; d < spec.dims.size(); ++d) {
      std::vector<size_t> strata(n);
      for (size_t i = 0; i < n; ++i) strata[i] = i;
      std::shuffle(strata.begin(), strata.end(), rng);
      for (size_t i = 0; i < n; ++i)
        u[i][d] = (static_cast<double>(strata[i]) + uni(rng)) / static_cast<double>(n);
    }
    std::vector<Point> out;
    for (const auto& x : u) out.push_back(snap(spec, x));
    return out;
  }

  static std::vector<std::vector<double>> candidates(const PlanSpec& spec, std::mt19937_64& rng) {
    std::vector<std::vector<double>> out;
    const Dimension& d0 = spec.dims[0];
    if (spec.dims.size() == 1 && d0.integer && d0.hi - d0.lo <= 4096) {
      for (double v = d0.lo; v <= d0.hi; v += 1) out.push_back({to_unit(d0, v)});
      return out;
    }
    std::uniform_real_distribution<double> uni(0, 1);
    for (int i = 0; i < 2048; ++i) {
      std::vector<double> x;
      for (size_t d = 0; d < spec.dims.size(); ++d) x.push_back(uni(rng));
      out.push_back(std::move(x));
    }
    return out;
  }

  static bool propose(const PlanSpec& spec, const SearchOutcome& out, const std::set<Point>& seen,
                      std::mt19937_64& rng, Point* next) {
    std::vector<std::vector<double>> xo, xm;
    std::vector<double> yo, ym;
    double best = -std::numeric_limits<double>::infinity();
    for (const auto& s : out.steps) {
      std::vector<double> u;
      for (size_t d = 0; d < spec.dims.size(); ++d) u.push_back(to_unit(spec.dims[d], s.point[d]));
      xm.push_back(u);
      ym.push_back(binding_margin(spec.slos, s.result));
      if (!s.objective) continue;
      xo.push_back(u);
      yo.push_back(signed_value(spec, *s.objective));
      if (s.pass) best = std::max(best, yo.back());
    }
    GaussianProcess objective, margin;
    if (!yo.empty()) objective.fit(xo, yo);
    const bool constrained = !spec.slos.empty();
    if (constrained) margin.fit(xm, ym);
    double top = -1;
    bool found = false;
    for (const auto& u : candidates(spec, rng)) {
      const Point p = snap(spec, u);
      if (seen.count(p)) continue;
      double mu = 0, sd = 1, feasible = 1;
      if (constrained) {
        margin.predict(u, &mu, &sd);
        feasible = normal_cdf(mu / std::max(sd, 1e-9));
      }
      double gain = 1;
      if (!yo.empty() && std::isfinite(best)) {
        objective.predict(u, &mu, &sd);
        gain = expected_improvement(mu, sd, best);
      } else if (!yo.empty()) {
        objective.predict(u, &mu, &sd);
        gain = 1e-6 + sd;  // nothing feasible yet: explore where the SLOs likely hold
      }
      const double a = gain * feasible;
      if (!found || a > top) top = a, *next = p, found = true;
    }
    return found;
  }
};

}  // namespace

std::unique_ptr<SearchPlanner> make_bayesian_planner() {
  return std::make_unique<BayesianPlanner>();
}

}  // namespace servebench::experiment
