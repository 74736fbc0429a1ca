#include "report_html/distributions.h"

#include <algorithm>
#include <cmath>

namespace servebench::report_html {
namespace {

std::vector<double> finite_sorted(const std::vector<double>& values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double v : values) {
    if (std::isfinite(v)) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Histogram make_histogram(const std::vector<double>& values, int bins) {
  Histogram h;
  double lo = INFINITY, hi = -INFINITY;
  bool integers = true;
  int64_t n = 0;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    integers = integers && v == std::floor(v);
    ++n;
  }
  if (n == 0) return h;
  if (integers && hi - lo + 1 <= bins) {
    bins = static_cast<int>(hi - lo + 1);
    lo -= 0.5;
    hi += 0.5;
  } else if (hi == lo) {
    bins = 1;
    lo -= 0.5;
    hi += 0.5;
  }
  const double width = (hi - lo) / bins;
  for (int i = 0; i <= bins; ++i) h.edges.push_back(i == bins ? hi : lo + width * i);
  h.counts.assign(static_cast<size_t>(bins), 0);
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    int b = static_cast<int>((v - lo) / width);
    b = std::clamp(b, 0, bins - 1);
    ++h.counts[static_cast<size_t>(b)];
  }
  return h;
}

Cdf make_cdf(const std::vector<double>& values, size_t points) {
  Cdf c;
  const std::vector<double> s = finite_sorted(values);
  const size_t n = s.size();
  if (n == 0 || points == 0) return c;
  const size_t k = std::min(n, points);
  for (size_t i = 0; i < k; ++i) {
    // Rank (1-based) of the i-th point: evenly spaced, the last one n.
    const size_t rank = k == n ? i + 1 : static_cast<size_t>(std::ceil(double(i + 1) * n / k));
    c.x.push_back(s[rank - 1]);
    c.y.push_back(static_cast<double>(rank) / static_cast<double>(n));
  }
  return c;
}

double percentile_of_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return NAN;
  const double h = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace servebench::report_html
