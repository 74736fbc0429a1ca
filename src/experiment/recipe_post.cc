#include "experiment/recipe_post.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace servebench::experiment {
namespace {

using Json = nlohmann::json;

Json value_of(const SearchStep& s, const std::string& key) {
  auto it = s.result.values.find(key);
  return it == s.result.values.end() ? Json(nullptr) : Json(it->second);
}

std::vector<const SearchStep*> sorted_by(const SearchOutcome& r, size_t dim) {
  std::vector<const SearchStep*> out;
  for (const auto& s : r.steps)
    if (s.point.size() > dim) out.push_back(&s);
  std::stable_sort(out.begin(), out.end(),
                   [dim](auto* a, auto* b) { return a->point[dim] < b->point[dim]; });
  return out;
}

// Solves the normal equations A c = b (small, by Gaussian elimination with pivoting).
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  const size_t n = b.size();
  for (size_t c = 0; c < n; ++c) {
    size_t p = c;
    for (size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r][c]) > std::abs(a[p][c])) p = r;
    std::swap(a[c], a[p]);
    std::swap(b[c], b[p]);
    if (std::abs(a[c][c]) < 1e-300) return std::vector<double>(n, 0.0);
    for (size_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (size_t k = c; k < n; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (size_t c = 0; c < n; ++c) b[c] /= a[c][c];
  return b;
}

}  // namespace

CurveFit fit_polynomial(const std::vector<double>& xs, const std::vector<double>& ys, int degree) {
  const size_t n = static_cast<size_t>(degree) + 1;
  std::vector<std::vector<double>> a(n, std::vector<double>(n, 0.0));
  std::vector<double> b(n, 0.0);
  for (size_t i = 0; i < xs.size(); ++i) {
    std::vector<double> pw(n);  // x^0 .. x^degree
    for (size_t k = 0; k < n; ++k) pw[k] = std::pow(xs[i], static_cast<double>(k));
    for (size_t r = 0; r < n; ++r) {
      b[r] += pw[r] * ys[i];
      for (size_t c = 0; c < n; ++c) a[r][c] += pw[r] * pw[c];
    }
  }
  const std::vector<double> low_first = solve(a, b);
  CurveFit f;
  f.coefficients.assign(low_first.rbegin(), low_first.rend());
  double mean = 0, ss_tot = 0, ss_res = 0;
  for (double y : ys) mean += y / static_cast<double>(ys.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    double fit = 0;
    for (size_t k = 0; k < n; ++k) fit += low_first[k] * std::pow(xs[i], static_cast<double>(k));
    ss_res += (ys[i] - fit) * (ys[i] - fit);
    ss_tot += (ys[i] - mean) * (ys[i] - mean);
  }
  f.r_squared = ss_tot > 0 ? 1 - ss_res / ss_tot : 1.0;
  return f;
}

std::string degradation_knee_json(const SearchOutcome& r, const KneeOptions& o) {
  const std::string key = o.metric + "_" + o.stat;
  Json points = Json::array();
  Json baseline = nullptr, knee = nullptr, base_value = nullptr;
  for (const SearchStep* s : sorted_by(r, 0)) {
    const Json v = value_of(*s, key);
    bool degraded = false;
    if (v.is_number() && base_value.is_null()) {
      baseline = s->load;
      base_value = v;
    } else if (v.is_number()) {
      degraded = v.get<double>() > base_value.get<double>() * (1 + o.threshold);
      if (degraded && knee.is_null()) knee = s->load;
    }
    points.push_back({{"concurrency", s->load}, {"value", v}, {"degraded", degraded}});
  }
  return Json{{"metric_tag", o.metric},       {"stat", o.stat},
              {"threshold", o.threshold},     {"baseline_concurrency", baseline},
              {"baseline_value", base_value}, {"knee_concurrency", knee},
              {"all_points", points}}
             .dump(2) +
         "\n";
}

std::string prefill_curve_json(const SearchOutcome& r, size_t isl_dim) {
  std::vector<double> xs, ys;
  Json raw = Json::array();
  for (const SearchStep* s : sorted_by(r, isl_dim)) {
    const Json v = value_of(*s, "time_to_first_token_avg");
    raw.push_back({{"isl", s->point[isl_dim]}, {"ttft_ms", v}});
    if (v.is_number()) xs.push_back(s->point[isl_dim]), ys.push_back(v.get<double>());
  }
  constexpr double kFloor = 0.85;
  Json out = {{"r_squared_floor", kFloor}, {"raw_points", raw}};
  if (xs.size() < 2) {
    out["fit_form"] = nullptr;
    out["coefficients"] = Json::array();
    out["r_squared"] = nullptr;
    out["below_floor"] = true;
    return out.dump(2) + "\n";
  }
  CurveFit f = fit_polynomial(xs, ys, 1);
  std::string form = "linear";
  if (f.r_squared < kFloor && xs.size() >= 3) {
    f = fit_polynomial(xs, ys, 2);
    form = "quadratic";
  }
  out["fit_form"] = form;
  out["coefficients"] = f.coefficients;
  out["r_squared"] = f.r_squared;
  out["below_floor"] = f.r_squared < kFloor;
  return out.dump(2) + "\n";
}

std::string decode_itl_surface_json(const SearchOutcome& r, size_t conc_dim, size_t osl_dim) {
  std::vector<double> cs, os;
  for (const auto& s : r.steps) {
    if (std::find(cs.begin(), cs.end(), s.point[conc_dim]) == cs.end())
      cs.push_back(s.point[conc_dim]);
    if (std::find(os.begin(), os.end(), s.point[osl_dim]) == os.end())
      os.push_back(s.point[osl_dim]);
  }
  std::sort(cs.begin(), cs.end());
  std::sort(os.begin(), os.end());
  Json grid = Json::array(), raw = Json::array();
  for (double c : cs) {
    Json row = Json::array();
    for (double o : os) {
      Json v = nullptr;
      for (const auto& s : r.steps)
        if (s.point[conc_dim] == c && s.point[osl_dim] == o)
          v = value_of(s, "inter_token_latency_avg");
      row.push_back(v);
      if (!v.is_null()) raw.push_back({{"concurrency", c}, {"osl", o}, {"itl_ms", v}});
    }
    grid.push_back(row);
  }
  return Json{{"swept_params", {"concurrency", "osl"}},
              {"surface", {{"concurrency_axis", cs}, {"osl_axis", os}, {"itl_grid", grid}}},
              {"raw_points", raw}}
             .dump(2) +
         "\n";
}

std::string pareto_sweep_json(const SearchOutcome& r, size_t isl_dim, size_t osl_dim,
                              size_t conc_dim) {
  struct Cell {
    const SearchStep* s;
    Json x, y;
  };
  std::vector<Cell> cells;
  for (const auto& s : r.steps)
    cells.push_back(
        {&s, value_of(s, "time_to_first_token_p95"), value_of(s, "output_token_throughput_avg")});
  Json out = Json::array();
  for (const auto& c : cells) {
    bool optimal = c.x.is_number() && c.y.is_number();
    for (const auto& o : cells) {
      if (!optimal || &o == &c || !o.x.is_number() || !o.y.is_number()) continue;
      const double cx = c.x.get<double>(), cy = c.y.get<double>();
      const double ox = o.x.get<double>(), oy = o.y.get<double>();
      if (ox <= cx && oy >= cy && (ox < cx || oy > cy)) optimal = false;
    }
    out.push_back({{"isl", c.s->point[isl_dim]},
                   {"osl", c.s->point[osl_dim]},
                   {"concurrency", c.s->point[conc_dim]},
                   {"x", c.x},
                   {"y", c.y},
                   {"pareto_optimal", optimal}});
  }
  return Json{{"x_metric", "time_to_first_token"},
              {"x_stat", "p95"},
              {"y_metric", "output_token_throughput"},
              {"y_stat", "avg"},
              {"cells", out}}
             .dump(2) +
         "\n";
}

std::string sla_breach_json(const std::vector<Slo>& slos, const SearchOutcome& r,
                            const std::string& axis) {
  Json points = Json::array(), filters = Json::array();
  Json max_pass = nullptr, first_fail = nullptr, breach = nullptr;
  bool monotone = true, failed = false;
  for (const SearchStep* s : sorted_by(r, 0)) {
    points.push_back({{axis, s->load}, {"feasible", s->pass}, {"breaches", s->violations}});
    if (s->pass) {
      max_pass = s->load;
      if (failed) monotone = false;
    } else if (!failed) {
      failed = true;
      first_fail = s->load;
      breach = s->violations;
    }
  }
  if (!monotone) {  // the first failure above the highest pass
    first_fail = nullptr;
    for (const SearchStep* s : sorted_by(r, 0))
      if (!s->pass && s->load > max_pass.get<double>() && first_fail.is_null())
        first_fail = s->load, breach = s->violations;
  }
  for (const auto& s : slos) filters.push_back(s.text);
  return Json{{"swept_param", axis},
              {"max_passing_" + axis, max_pass},
              {"first_failing_" + axis, first_fail},
              {"first_failing_breach", breach},
              {"all_points", points},
              {"monotonicity_check", monotone},
              {"filters", filters}}
             .dump(2) +
         "\n";
}

}  // namespace servebench::experiment
