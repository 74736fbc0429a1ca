#include "report_html/time_series.h"

#include <algorithm>
#include <cmath>

#include "report_html/distributions.h"

namespace servebench::report_html {
namespace {

struct Binner {
  int64_t origin_ns;
  int64_t bin_ns;
  size_t bins;
  // Bin of wall time `ns`, clamped into the run; -1 when ns is 0 (unknown).
  long of(int64_t ns) const {
    if (ns <= 0) return -1;
    const int64_t b = (ns - origin_ns) / bin_ns;
    return static_cast<long>(std::clamp<int64_t>(b, 0, static_cast<int64_t>(bins) - 1));
  }
};

void fill_band(const std::vector<std::vector<double>>& per_bin, Band* band) {
  for (auto* v : {&band->p10, &band->p50, &band->p90, &band->p99, &band->max})
    v->assign(per_bin.size(), NAN);
  for (size_t b = 0; b < per_bin.size(); ++b) {
    std::vector<double> s = per_bin[b];
    if (s.empty()) continue;
    place_percentile_ranks(&s, {10, 50, 90, 99});
    band->p10[b] = percentile_of_sorted(s, 10);
    band->p50[b] = percentile_of_sorted(s, 50);
    band->p90[b] = percentile_of_sorted(s, 90);
    band->p99[b] = percentile_of_sorted(s, 99);
    band->max[b] = s.back();
  }
}

// Time-averaged in-flight requests per bin: each request adds its overlap with a bin.
std::vector<double> concurrency(const RequestColumns& c, const Binner& bn) {
  std::vector<double> area(bn.bins + 1, 0.0), full(bn.bins + 1, 0.0);
  const double w = static_cast<double>(bn.bin_ns);
  for (size_t i = 0; i < c.size(); ++i) {
    const int64_t s = c.start_ns[i], e = c.end_ns[i];
    if (s <= 0 || e <= s) continue;
    const long bs = bn.of(s), be = bn.of(e);
    const int64_t s_bin_end = bn.origin_ns + (bs + 1) * bn.bin_ns;
    if (bs == be) {
      area[bs] += static_cast<double>(e - s) / w;
      continue;
    }
    area[bs] += static_cast<double>(s_bin_end - s) / w;
    area[be] += static_cast<double>(e - (bn.origin_ns + be * bn.bin_ns)) / w;
    full[bs + 1] += 1.0;  // difference array for the bins strictly inside
    full[be] -= 1.0;
  }
  std::vector<double> out(bn.bins, 0.0);
  double running = 0;
  for (size_t b = 0; b < bn.bins; ++b) {
    running += full[b];
    out[b] = area[b] + running;
  }
  return out;
}

}  // namespace

double pick_bin_seconds(double duration_s) {
  static const double kWidths[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1,   2,   5,    10,
                                   15,   30,   60,   120, 300, 600, 900, 1800, 3600};
  for (double w : kWidths) {
    if (duration_s / w <= kTargetBins) return w;
  }
  return 3600;
}

TimeSeries make_time_series(const RequestColumns& c) {
  TimeSeries ts;
  ts.origin_ns = c.origin_ns();
  if (ts.origin_ns == 0) return ts;
  int64_t last = ts.origin_ns;
  for (size_t i = 0; i < c.size(); ++i) last = std::max({last, c.end_ns[i], c.start_ns[i]});
  ts.bin_s = pick_bin_seconds(static_cast<double>(last - ts.origin_ns) / 1e9);
  const int64_t bin_ns = std::llround(ts.bin_s * 1e9);
  const size_t bins = static_cast<size_t>((last - ts.origin_ns) / bin_ns + 1);
  const Binner bn{ts.origin_ns, bin_ns, bins};
  for (size_t b = 0; b < bins; ++b) ts.t_s.push_back(static_cast<double>(b) * ts.bin_s);
  ts.sends_per_s.assign(bins, 0);
  ts.completions_per_s.assign(bins, 0);
  ts.output_tokens_per_s.assign(bins, 0);
  std::vector<double> intended(bins, 0);
  bool any_intended = false;
  std::vector<std::vector<double>> ttft(bins), latency(bins), lag(bins);
  const auto& ttft_col = c.column(metrics::RecordMetric::kTtft);
  const auto& lat_col = c.column(metrics::RecordMetric::kRequestLatency);
  const auto& lag_col = c.column(metrics::RecordMetric::kScheduleLag);
  for (size_t i = 0; i < c.size(); ++i) {
    if (c.dropped[i]) continue;
    const long sb = bn.of(c.start_ns[i]);
    if (sb >= 0) ts.sends_per_s[sb] += 1 / ts.bin_s;
    if (const long ib = bn.of(c.intended_ns[i]); ib >= 0) {
      intended[ib] += 1 / ts.bin_s;
      any_intended = true;
      if (!std::isnan(lag_col[i])) lag[ib].push_back(lag_col[i]);
    }
    const auto kind = static_cast<record::ErrorKind>(c.error[i]);
    const long eb = bn.of(c.end_ns[i]);
    if (kind == record::ErrorKind::kNone) {
      if (eb >= 0) ts.completions_per_s[eb] += 1 / ts.bin_s;
      if (sb >= 0 && !std::isnan(ttft_col[i])) ttft[sb].push_back(ttft_col[i]);
      if (sb >= 0 && !std::isnan(lat_col[i])) latency[sb].push_back(lat_col[i]);
    } else if (eb >= 0) {
      auto& counts = ts.errors[record::error_kind_name(kind)];
      counts.resize(bins, 0);
      ++counts[eb];
    }
  }
  if (any_intended) ts.intended_per_s = std::move(intended);
  for (const auto& [bucket, tokens] : c.tokens_by_bucket) {
    const long b = bn.of(bucket * kTokenBucketNs);
    if (b >= 0) ts.output_tokens_per_s[b] += static_cast<double>(tokens) / ts.bin_s;
  }
  ts.concurrency = concurrency(c, bn);
  fill_band(ttft, &ts.ttft_ms);
  fill_band(latency, &ts.latency_ms);
  fill_band(lag, &ts.lag_ms);
  return ts;
}

}  // namespace servebench::report_html
