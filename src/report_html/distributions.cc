#include "report_html/distributions.h"

#include <algorithm>
#include <cmath>

#include "metrics/rank_select.h"
#include "metrics/stats.h"

namespace servebench::report_html {
namespace {

std::vector<double> finite(const std::vector<double>& values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double v : values) {
    if (std::isfinite(v)) out.push_back(v);
  }
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
  std::vector<double> s = finite(values);
  const size_t n = s.size();
  if (n == 0 || points == 0) return c;
  const size_t k = std::min(n, points);
  std::vector<size_t> ranks(k);  // 0-based
  for (size_t i = 0; i < k; ++i) {
    // Rank (1-based) of the i-th point: evenly spaced, the last one n.
    const size_t rank = k == n ? i + 1 : static_cast<size_t>(std::ceil(double(i + 1) * n / k));
    ranks[i] = rank - 1;
    c.y.push_back(static_cast<double>(rank) / static_cast<double>(n));
  }
  c.x.resize(k);
  const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
  metrics::order_statistics(&s, *lo, *hi, ranks.data(), k, c.x.data());
  return c;
}

double percentile_of_sorted(const std::vector<double>& sorted, double q) {
  return sorted.empty() ? NAN : metrics::percentile_sorted(sorted, q);
}

void place_percentile_ranks(std::vector<double>* s, std::initializer_list<double> shares) {
  const size_t n = s->size();
  std::vector<size_t> ranks = {n - 1};
  for (double q : shares) {
    const size_t lo = static_cast<size_t>(std::floor(metrics::percentile_rank(n, q)));
    ranks.push_back(lo);
    ranks.push_back(std::min(lo + 1, n - 1));
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  metrics::select_order_statistics(s, ranks.data(), ranks.data() + ranks.size());
}

}  // namespace servebench::report_html
