#include "experiment/isotonic.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "experiment/planners.h"

namespace servebench::experiment {

std::vector<double> pava_nonincreasing(const std::vector<double>& ys) {
  struct Block {
    double sum;
    double n;
  };
  std::vector<Block> blocks;
  for (double y : ys) {
    blocks.push_back({y, 1});
    // Non-increasing: a block whose mean exceeds the previous one's pools with it.
    while (blocks.size() > 1) {
      const Block& b = blocks.back();
      const Block& a = blocks[blocks.size() - 2];
      if (b.sum / b.n <= a.sum / a.n) break;
      Block m{a.sum + b.sum, a.n + b.n};
      blocks.pop_back();
      blocks.back() = m;
    }
  }
  std::vector<double> out;
  for (const auto& b : blocks)
    for (int i = 0; i < static_cast<int>(b.n); ++i) out.push_back(b.sum / b.n);
  return out;
}

namespace {

// Fritsch-Carlson slopes: zero at local extrema and flat segments, harmonic mean inside.
std::vector<double> pchip_slopes(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size();
  std::vector<double> h(n - 1), d(n - 1), m(n, 0.0);
  for (size_t i = 0; i + 1 < n; ++i) h[i] = x[i + 1] - x[i], d[i] = (y[i + 1] - y[i]) / h[i];
  if (n == 2) return {d[0], d[0]};
  for (size_t i = 1; i + 1 < n; ++i) {
    if (d[i - 1] * d[i] <= 0) continue;
    const double w1 = 2 * h[i] + h[i - 1], w2 = h[i] + 2 * h[i - 1];
    m[i] = (w1 + w2) / (w1 / d[i - 1] + w2 / d[i]);
  }
  const auto end = [](double h0, double h1, double d0, double d1) {
    double s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (s * d0 <= 0) return 0.0;
    if (d0 * d1 <= 0 && std::abs(s) > std::abs(3 * d0)) return 3 * d0;
    return s;
  };
  m[0] = end(h[0], h[1], d[0], d[1]);
  m[n - 1] = end(h[n - 2], h[n - 3], d[n - 2], d[n - 3]);
  return m;
}

double hermite(double x0, double x1, double y0, double y1, double m0, double m1, double x) {
  const double h = x1 - x0, t = (x - x0) / h;
  const double t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + t) * h * m0 + (-2 * t3 + 3 * t2) * y1 +
         (t3 - t2) * h * m1;
}

}  // namespace

double pchip_at(const std::vector<double>& xs, const std::vector<double>& ys, double x) {
  if (xs.size() == 1) return ys[0];
  x = std::clamp(x, xs.front(), xs.back());
  const auto m = pchip_slopes(xs, ys);
  size_t i = static_cast<size_t>(std::upper_bound(xs.begin(), xs.end(), x) - xs.begin());
  i = std::clamp<size_t>(i, 1, xs.size() - 1) - 1;
  return hermite(xs[i], xs[i + 1], ys[i], ys[i + 1], m[i], m[i + 1], x);
}

std::optional<double> pchip_zero(const std::vector<double>& xs, const std::vector<double>& ys) {
  if (xs.size() < 2 || ys.front() < 0 || ys.back() >= 0) return std::nullopt;
  size_t i = 1;
  while (i < ys.size() && ys[i] >= 0) ++i;  // first negative point; the zero is in [i-1, i]
  double lo = xs[i - 1], hi = xs[i];
  for (int k = 0; k < 60; ++k) {  // bisection on the monotone interpolant
    const double mid = (lo + hi) / 2;
    (pchip_at(xs, ys, mid) >= 0 ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

namespace {

// Bracketing (doubling) as monotonic_sla, then each probe at the zero of the PCHIP curve
// through the PAVA fit of every probe's binding SLO margin, kept at least a quarter of the
// bracket from either end so the bracket shrinks at least geometrically.
class IsotonicPlanner : public SearchPlanner {
 public:
  std::string check(const PlanSpec& spec) const override { return check_one_dimension_slos(spec); }

  SearchOutcome run(const PlanSpec& spec, const PointProbe& probe) const override {
    SearchOptions bracket = spec.options;
    bracket.bisect = false;
    SearchOutcome out = run_search(spec.slos, bracket, [&](double load, int64_t t, int64_t i) {
      return probe(Point{load}, t, i);
    });
    for (auto& s : out.steps) s.point = {s.load};
    if (out.stop_reason != "bracketed") return finish(spec, &out);
    const SearchOptions& o = spec.options;
    while (*out.first_fail - *out.answer > o.resolution) {
      if (static_cast<int64_t>(out.steps.size()) >= o.budget) {
        out.stop_reason = "budget";
        return finish(spec, &out);
      }
      const double x = next_point(spec, out);
      if (x <= *out.answer || x >= *out.first_fail) break;
      out.steps.push_back(probe_point(spec, probe, Point{x}, "isotonic", o.boundary_trials,
                                      static_cast<int64_t>(out.steps.size())));
      const SearchStep& s = out.steps.back();
      if (s.result.interrupted) {
        out.stop_reason = "interrupted";
        return finish(spec, &out);
      }
      (s.pass ? out.answer : out.first_fail) = x;
    }
    out.stop_reason = "resolution";
    return finish(spec, &out);
  }

 private:
  static SearchOutcome finish(const PlanSpec& spec, SearchOutcome* out) {
    if (spec.objective)
      for (auto& s : out->steps)
        if (auto it = s.result.values.find(spec.objective->key); it != s.result.values.end())
          s.objective = it->second;
    return *out;
  }

  static double next_point(const PlanSpec& spec, const SearchOutcome& out) {
    std::map<double, std::pair<double, int>> by_load;  // load -> (margin sum, count)
    for (const auto& s : out.steps) {
      auto& e = by_load[s.load];
      e.first += binding_margin(spec.slos, s.result);
      e.second += 1;
    }
    std::vector<double> xs, ys;
    for (const auto& [x, e] : by_load) xs.push_back(x), ys.push_back(e.first / e.second);
    const std::vector<double> fit = pava_nonincreasing(ys);
    const double lo = *out.answer, hi = *out.first_fail, q = (hi - lo) / 4;
    double x = pchip_zero(xs, fit).value_or((lo + hi) / 2);
    x = std::clamp(x, lo + q, hi - q);
    if (spec.options.integer) {
      x = std::round(x);
      if (x <= lo) x = lo + 1;
      if (x >= hi) x = hi - 1;
    }
    return x;
  }
};

}  // namespace

std::unique_ptr<SearchPlanner> make_isotonic_planner() {
  return std::make_unique<IsotonicPlanner>();
}

}  // namespace servebench::experiment
