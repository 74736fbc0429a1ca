#include "metrics/stats.h"

#include "metrics/rank_select.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

namespace servebench::metrics {
namespace {

// numpy's "nearest": round half to even of the virtual index.
int64_t nearest_index(double h) {
  double r = std::nearbyint(h);  // default rounding mode: half to even
  return static_cast<int64_t>(r);
}

// Places the order statistics for every index in [first, last) (sorted, within [begin, end)) at
// their positions.
void multi_select(std::vector<double>& v, size_t begin, size_t end, const size_t* first,
                  const size_t* last) {
  while (first < last) {
    const size_t* mid = first + (last - first) / 2;
    auto base = v.begin();
    std::nth_element(base + static_cast<std::ptrdiff_t>(begin),
                     base + static_cast<std::ptrdiff_t>(*mid),
                     base + static_cast<std::ptrdiff_t>(end));
    multi_select(v, begin, *mid, first, mid);
    begin = *mid + 1;
    first = mid + 1;
  }
}

}  // namespace

void select_order_statistics(std::vector<double>* values, const size_t* first, const size_t* last) {
  multi_select(*values, 0, values->size(), first, last);
}

void select_order_statistics(std::vector<double>* values, size_t begin, size_t end,
                             const size_t* first, const size_t* last) {
  multi_select(*values, begin, end, first, last);
}

bool Stats::get(const char* name, double* out) const {
  if (std::strcmp(name, "avg") == 0) { *out = avg; return true; }
  if (std::strcmp(name, "min") == 0) { *out = min; return true; }
  if (std::strcmp(name, "max") == 0) { *out = max; return true; }
  if (std::strcmp(name, "sum") == 0) { *out = sum; return true; }
  if (std::strcmp(name, "count") == 0) { *out = static_cast<double>(count); return true; }
  if (std::strcmp(name, "std") == 0) {
    if (!has_std) return false;
    *out = std;
    return true;
  }
  for (size_t i = 0; i < kPercentileNames.size(); ++i) {
    if (std::strcmp(name, kPercentileNames[i]) == 0) {
      *out = p[i];
      return true;
    }
  }
  return false;
}

bool is_stat_name(const char* name) {
  static const char* kOthers[] = {"avg", "min", "max", "sum", "std", "count"};
  for (const char* o : kOthers) {
    if (std::strcmp(name, o) == 0) return true;
  }
  for (const char* p : kPercentileNames) {
    if (std::strcmp(name, p) == 0) return true;
  }
  return false;
}

double percentile_sorted(const std::vector<double>& sorted, double q) {
  const size_t n = sorted.size();
  if (n == 1) return sorted[0];
  double h = percentile_rank(n, q);
  size_t lo = static_cast<size_t>(std::floor(h));
  if (lo >= n - 1) return sorted[n - 1];
  double frac = h - static_cast<double>(lo);
  double a = sorted[lo], b = sorted[lo + 1];
  // numpy's _lerp: a + (b - a) * t, switching to b - (b - a) * (1 - t) for t >= 0.5, which
  // keeps the result exact at the endpoints and monotonic.
  double diff = b - a;
  if (a == b) return a;
  return frac >= 0.5 ? b - diff * (1.0 - frac) : a + diff * frac;
}

namespace {

// count, sum, min, max, avg and (linear method, finite avg) the two-pass population std of the n
// values at(0), at(1), ... in that order. compute_stats and constant_stats share it, so the
// moments of n copies of a value are those of their vector, bit for bit. REQUIRES: n > 0.
template <class At>
void moments(size_t n, At at, PercentileMethod method, Stats* s) {
  s->count = static_cast<int64_t>(n);
  double sum = 0, mn = at(0), mx = at(0);
  for (size_t i = 0; i < n; ++i) {
    const double v = at(i);
    sum += v;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  s->sum = sum;
  s->min = mn;
  s->max = mx;
  s->avg = sum / static_cast<double>(n);
  if (method == PercentileMethod::kLinear && std::isfinite(s->avg)) {
    // Two-pass population variance (numpy: mean(abs(x - x.mean())**2)).
    double acc = 0;
    for (size_t i = 0; i < n; ++i) {
      const double d = at(i) - s->avg;
      acc += d * d;
    }
    s->std = std::sqrt(acc / static_cast<double>(n));
  } else {
    s->has_std = false;
  }
}

}  // namespace

Stats constant_stats(double v, size_t n, PercentileMethod method) {
  Stats s;
  moments(n, [v](size_t) { return v; }, method, &s);
  s.p.fill(v);
  return s;
}

Stats compute_stats(std::vector<double>& values, PercentileMethod method) {
  Stats s;
  const size_t n = values.size();
  if (n == 0) return s;
  moments(n, [&values](size_t i) { return values[i]; }, method, &s);
  const double mn = s.min, mx = s.max;
  if (mn == mx) {  // every value is the same (fixed ISL/OSL, zero-only columns): no selection
    s.p.fill(mn);
    return s;
  }
  // Exact order statistics: collect every index the percentiles need (lo and, for
  // interpolation, lo + 1), then select them by value buckets (rank_select.h) or, for a small
  // sample, recursively: nth_element on the middle index splits the range, and each side only
  // holds the indices that fall in it. O(n log k).
  std::array<size_t, 18> idx{};
  std::array<double, 9> frac{};
  std::array<size_t, 9> lo_of{};
  size_t k = 0;
  for (size_t i = 0; i < kPercentiles.size(); ++i) {
    const double h = percentile_rank(n, kPercentiles[i]);
    size_t lo = method == PercentileMethod::kNearest ? static_cast<size_t>(nearest_index(h))
                                                     : static_cast<size_t>(std::floor(h));
    if (lo >= n) lo = n - 1;
    lo_of[i] = lo;
    frac[i] = method == PercentileMethod::kNearest ? 0.0 : h - static_cast<double>(lo);
    idx[k++] = lo;
    if (frac[i] > 0 && lo + 1 < n) idx[k++] = lo + 1;
  }
  std::sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k));
  k = static_cast<size_t>(std::unique(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k)) -
                          idx.begin());
  std::array<double, 18> at{};  // at[j]: the idx[j]-th smallest value
  order_statistics(&values, mn, mx, idx.data(), k, at.data());
  const auto idx_end = idx.begin() + static_cast<std::ptrdiff_t>(k);
  const auto value_at = [&](size_t rank) {
    return at[static_cast<size_t>(std::lower_bound(idx.begin(), idx_end, rank) - idx.begin())];
  };
  for (size_t i = 0; i < kPercentiles.size(); ++i) {
    const double a = value_at(lo_of[i]);
    if (frac[i] == 0 || lo_of[i] + 1 >= n) {
      s.p[i] = a;
      continue;
    }
    const double b = value_at(lo_of[i] + 1);
    if (a == b) {
      s.p[i] = a;
    } else {
      // numpy's _lerp: a + (b - a) * t, or b - (b - a) * (1 - t) for t >= 0.5.
      const double diff = b - a;
      s.p[i] = frac[i] >= 0.5 ? b - diff * (1.0 - frac[i]) : a + diff * frac[i];
    }
  }
  return s;
}

Stats compute_stats_copy(const std::vector<double>& values, PercentileMethod method) {
  std::vector<double> copy = values;
  return compute_stats(copy, method);
}

}  // namespace servebench::metrics
