// build_summary(): one loop over the metric table turns a SummaryState into a Summary.
// Distributions are registered first and computed together (in parallel when large), because
// the client-limited verdict, a formula row, reads the schedule-lag percentiles.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <thread>

#include "metrics/metric_info.h"
#include "metrics/summary_state.h"

namespace servebench::metrics {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A distribution to compute: `values` (reordered in place) → metrics[index].stats.
struct PendingStats {
  std::vector<double>* values;
  PercentileMethod method;
  size_t index;
};

// Computes every pending distribution, largest first, on up to hardware_concurrency threads
// when there is enough work to pay for them.
void compute_all(std::vector<PendingStats>& pending, std::vector<MetricResult>* metrics,
                 int max_threads) {
  std::sort(pending.begin(), pending.end(), [](const PendingStats& a, const PendingStats& b) {
    return a.values->size() > b.values->size();
  });
  size_t total = 0;
  for (const auto& p : pending) total += p.values->size();
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next.fetch_add(1); i < pending.size(); i = next.fetch_add(1)) {
      (*metrics)[pending[i].index].stats = compute_stats(*pending[i].values, pending[i].method);
    }
  };
  size_t threads = std::min<size_t>(std::thread::hardware_concurrency(), pending.size());
  if (max_threads > 0) threads = std::min<size_t>(threads, static_cast<size_t>(max_threads));
  if (total < 200'000 || threads <= 1) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

// Peak and time-weighted concurrency from [start, end) intervals.
void concurrency(std::vector<std::pair<int64_t, int64_t>>& intervals, ScalarInputs* x) {
  if (intervals.empty()) return;
  std::vector<std::pair<int64_t, int>> events;
  events.reserve(intervals.size() * 2);
  for (const auto& [start, end] : intervals) {
    events.emplace_back(start, +1);
    events.emplace_back(end, -1);
  }
  // Ends sort before starts at the same instant: back-to-back requests do not overlap.
  std::sort(events.begin(), events.end());
  int64_t current = 0, peak = 0;
  long double area = 0;
  int64_t prev_t = events.front().first;
  for (const auto& [t, delta] : events) {
    area += static_cast<long double>(current) * static_cast<long double>(t - prev_t);
    prev_t = t;
    current += delta;
    peak = std::max(peak, current);
  }
  x->peak_concurrency = peak;
  const int64_t span = events.back().first - events.front().first;
  x->avg_concurrency = span > 0 ? static_cast<double>(area / span) : static_cast<double>(peak);
}

ScalarInputs scalar_inputs(SummaryState& st, const SummaryOptions& opt) {
  ScalarInputs x;
  x.request_count = st.request_count;
  x.error_request_count = st.error_request_count;
  x.cancelled_request_count = st.cancelled_request_count;
  x.good_request_count = st.good_request_count;
  x.goodput_enabled = !opt.slos.empty();
  x.usage_discrepancy_count = st.usage_discrepancy_count;
  x.osl_mismatch_count = st.osl_mismatch_count;
  for (size_t i = 0; i < kNumRecordSlots; ++i) {
    const auto& col = st.columns[i];
    x.slot_count[i] = static_cast<int64_t>(col.size());
    double sum = 0;
    for (double v : col) sum += v;
    x.slot_sum[i] = sum;
  }
  if (st.request_count > 0 && st.max_end_ns > 0) {
    x.window_start_ns = st.min_start_ns;
    x.window_end_ns = st.max_end_ns;
  } else if (st.any_max_end_ns > 0) {
    x.window_start_ns = st.any_min_start_ns;
    x.window_end_ns = st.any_max_end_ns;
  }
  x.window_start_wall_ns = opt.anchor.to_wall_ns(x.window_start_ns);
  x.window_end_wall_ns = opt.anchor.to_wall_ns(x.window_end_ns);
  const int64_t duration = opt.window_ns > 0 ? opt.window_ns : x.window_end_ns - x.window_start_ns;
  if (duration > 0 && (x.window_end_ns > 0 || opt.window_ns > 0)) x.duration_ns = duration;
  const auto& lag = st.columns[static_cast<size_t>(RecordMetric::kScheduleLag)];
  x.sends_with_intended = static_cast<int64_t>(lag.size());
  for (double v : lag) {
    if (v > static_cast<double>(kLateSendThresholdNs)) ++x.late_sends;
  }
  concurrency(st.intervals, &x);
  return x;
}

// The client-limited verdict from the late-send share and the schedule-lag p99.
void client_limited(const Summary& s, ScalarInputs* x, Extras* e) {
  if (x->sends_with_intended == 0) return;
  e->late_send_fraction =
      static_cast<double>(x->late_sends) / static_cast<double>(x->sends_with_intended);
  const MetricResult* lag = s.find("schedule_lag");
  const double p99 = lag != nullptr ? lag->stats.p[8] : 0;
  if (e->late_send_fraction > kClientLimitedLateFraction) {
    e->client_limited = true;
    e->client_limited_reason = fmt::format(
        "{:.1f}% of requests were sent more than 1 ms after their intended time (limit {:.0f}%)",
        e->late_send_fraction * 100, kClientLimitedLateFraction * 100);
  } else if (p99 > static_cast<double>(kClientLimitedLagP99Ns)) {
    e->client_limited = true;
    e->client_limited_reason = fmt::format("schedule lag p99 is {:.3f} ms (limit {} ms)", p99 / 1e6,
                                           kClientLimitedLagP99Ns / 1'000'000);
  }
  x->client_limited = e->client_limited;
}

// The series behind a chunk-list row; nullptr when the row is off or empty.
SampleSeries* series_of(const MetricInfo& m, SummaryState& st) {
  if (!st.icl_enabled) return nullptr;
  SampleSeries* s = &st.icl;
  if (m.series == ChunkSeries::kPerTokenItl) {
    if (!st.per_token_enabled) return nullptr;
    if (st.per_token_separate) s = &st.per_token;
  }
  return s->empty() ? nullptr : s;
}

}  // namespace

Summary build_summary(SummaryState& st, const SummaryOptions& opt) {
  Summary s;
  s.goodput_enabled = !opt.slos.empty();
  s.request_count = st.request_count;
  s.error_request_count = st.error_request_count;
  s.usage_discrepancy_count = st.usage_discrepancy_count;
  s.osl_mismatch_count = st.osl_mismatch_count;
  ScalarInputs x = scalar_inputs(st, opt);

  size_t count = 0;
  const MetricInfo* table = all_metrics(&count);
  std::vector<PendingStats> pending;
  std::deque<std::vector<double>> adjusted;
  std::vector<size_t> formulas;
  size_t icl_index = SIZE_MAX, shared_per_token_index = SIZE_MAX;
  for (size_t t = 0; t < count; ++t) {
    const MetricInfo& m = table[t];
    if (!m.applies_to(opt.capabilities)) continue;
    MetricResult r;
    r.info = &m;
    r.distribution = m.distribution();
    if (m.aggregate == Aggregate::kFormula) {
      formulas.push_back(s.metrics.size());
    } else if (m.aggregate == Aggregate::kSum) {
      if (!x.has(m.slot)) continue;
      r.value = x.sum(m.slot);
    } else if (m.kind == MetricKind::kChunkList) {
      SampleSeries* series = series_of(m, st);
      if (series == nullptr) continue;
      if (m.series == ChunkSeries::kInterChunk) icl_index = s.metrics.size();
      if (m.series == ChunkSeries::kPerTokenItl && !st.per_token_separate) {
        // Every chunk carried one token: per-token ITL is the ICL distribution, computed once.
        shared_per_token_index = s.metrics.size();
      } else if (series->exact()) {
        pending.push_back({series->exact_values(), PercentileMethod::kLinear, s.metrics.size()});
      } else {
        r.stats = series->histogram_stats();
      }
    } else {
      auto& col = st.columns[static_cast<size_t>(m.slot)];
      if (col.empty()) continue;
      if (!m.has(kAdjusted)) {
        pending.push_back({&col, PercentileMethod::kLinear, s.metrics.size()});
      } else {
        if (st.error_request_count == 0) continue;
        std::vector<double>& adj = adjusted.emplace_back(col);
        adj.insert(adj.end(), static_cast<size_t>(st.error_request_count), kInf);
        pending.push_back({&adj, PercentileMethod::kNearest, s.metrics.size()});
      }
    }
    s.metrics.push_back(r);
  }
  compute_all(pending, &s.metrics, opt.max_threads);
  if (shared_per_token_index != SIZE_MAX && icl_index != SIZE_MAX) {
    s.metrics[shared_per_token_index].stats = s.metrics[icl_index].stats;
  }

  Extras& e = s.extras;
  client_limited(s, &x, &e);
  std::vector<bool> absent(s.metrics.size(), false);
  for (size_t i : formulas) {
    ScalarValue v;
    absent[i] = !s.metrics[i].info->formula(x, &v);
    s.metrics[i].value = v.value;
    s.metrics[i].int_value = v.exact;
  }
  size_t kept = 0;
  for (size_t i = 0; i < s.metrics.size(); ++i) {
    if (!absent[i]) s.metrics[kept++] = s.metrics[i];
  }
  s.metrics.resize(kept);

  e.sends_with_intended = x.sends_with_intended;
  e.late_sends = x.late_sends;
  e.peak_concurrency = x.peak_concurrency;
  e.avg_concurrency = x.avg_concurrency;
  e.cancelled_request_count = x.cancelled_request_count;
  e.errors_by_kind = st.errors.by_kind();
  s.error_summary = st.errors.groups();
  return s;
}

}  // namespace servebench::metrics
