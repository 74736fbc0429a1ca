#include "compare/bootstrap.h"

#include <algorithm>
#include <cmath>

namespace servebench::compare {
namespace {

double linear_percentile(const std::vector<double>& sorted, double q) {
  const double h = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

size_t index_of(double u, size_t n) {
  return std::min(n - 1, static_cast<size_t>(u * static_cast<double>(n)));
}

}  // namespace

double beta_draw(double a, double b, core::Rng* rng) {
  const double x = rng->gamma(a, 1.0), y = rng->gamma(b, 1.0);
  return x + y > 0 ? x / (x + y) : 0.5;
}

double resampled_percentile(const std::vector<double>& sorted, double q, core::Rng* rng) {
  const size_t n = sorted.size();
  if (n == 1) return sorted[0];
  const double h = q / 100.0 * static_cast<double>(n - 1);
  const size_t k = static_cast<size_t>(std::floor(h));  // 0-based order statistic
  const double frac = h - static_cast<double>(k);
  // U_(k+1) (1-based rank k + 1) ~ Beta(k + 1, n - k).
  const double u1 = beta_draw(static_cast<double>(k + 1), static_cast<double>(n - k), rng);
  const double v1 = sorted[index_of(u1, n)];
  if (frac == 0 || k + 1 >= n) return v1;
  // The smallest of the n - k - 1 uniforms above u1: u1 + (1 - u1) Beta(1, n - k - 1).
  const double m = static_cast<double>(n - k - 1);
  const double b1 = 1.0 - std::pow(1.0 - rng->next_double(), 1.0 / m);
  const double u2 = u1 + (1.0 - u1) * b1;
  const double v2 = sorted[index_of(u2, n)];
  return v1 + frac * (v2 - v1);
}

double resampled_percentile_naive(const std::vector<double>& sorted, double q, core::Rng* rng) {
  std::vector<double> s(sorted.size());
  for (double& v : s) v = sorted[rng->next_below(sorted.size())];
  std::sort(s.begin(), s.end());
  return linear_percentile(s, q);
}

Interval percentile_difference(const std::vector<double>& a, const std::vector<double>& b, double q,
                               int resamples, core::Rng* rng) {
  Interval out;
  out.estimate = linear_percentile(b, q) - linear_percentile(a, q);
  std::vector<double> diffs(static_cast<size_t>(resamples));
  for (double& d : diffs) d = resampled_percentile(b, q, rng) - resampled_percentile(a, q, rng);
  std::sort(diffs.begin(), diffs.end());
  out.low = linear_percentile(diffs, 2.5);
  out.high = linear_percentile(diffs, 97.5);
  return out;
}

Interval mean_difference(const std::vector<double>& a, const std::vector<double>& b) {
  auto moments = [](const std::vector<double>& v, double* mean, double* var) {
    double s = 0;
    for (double x : v) s += x;
    *mean = s / static_cast<double>(v.size());
    double ss = 0;
    for (double x : v) ss += (x - *mean) * (x - *mean);
    *var = v.size() > 1 ? ss / static_cast<double>(v.size() - 1) : 0;
  };
  double ma, va, mb, vb;
  moments(a, &ma, &va);
  moments(b, &mb, &vb);
  const double se = std::sqrt(va / static_cast<double>(a.size()) + vb / static_cast<double>(b.size()));
  return Interval{mb - ma, mb - ma - 1.959964 * se, mb - ma + 1.959964 * se};
}

}  // namespace servebench::compare
