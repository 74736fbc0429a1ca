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

#include "metrics/replay_lag_rows.h"
#include "metrics/metric_info.h"
#include "metrics/summary_state.h"

namespace servebench::metrics {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A distribution to compute: a column's values (a held vector may be reordered in place), or
// `values` (the adjusted samples), → metrics[index].stats.
struct PendingStats {
  Column* column;
  std::vector<double>* values;
  PercentileMethod method;
  size_t index;

  size_t size() const { return column != nullptr ? column->size() : values->size(); }
  // What the computation reads: nothing for a constant column.
  size_t work() const { return column != nullptr && column->constant() ? 0 : size(); }
  Stats compute() const {
    return column != nullptr ? column->stats(method) : compute_stats(*values, method);
  }
};

// Computes every pending distribution, largest first, on up to hardware_concurrency threads
// when there is enough work to pay for them.
void compute_all(std::vector<PendingStats>& pending, std::vector<MetricResult>* metrics,
                 int max_threads) {
  std::sort(pending.begin(), pending.end(), [](const PendingStats& a, const PendingStats& b) {
    return a.work() > b.work();
  });
  size_t total = 0;
  for (const auto& p : pending) total += p.work();
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next.fetch_add(1); i < pending.size(); i = next.fetch_add(1)) {
      (*metrics)[pending[i].index].stats = pending[i].compute();
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
    x.slot_count[i] = static_cast<int64_t>(st.columns[i].size());
    x.slot_sum[i] = st.columns[i].sum();
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
  x.late_sends = static_cast<int64_t>(lag.count_above(static_cast<double>(kLateSendThresholdNs)));
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

// The state of a chunk-list row; nullptr when the options leave the row out.
SummaryState::ChunkList* chunk_list_of(const MetricInfo& m, SummaryState& st) {
  for (auto& cl : st.chunk_lists) {
    if (cl.info == &m) return &cl;
  }
  return nullptr;
}

// Collects the rows of one summary in table order; distributions are computed together at the
// end, formulas after them.
struct RowBuilder {
  RowBuilder(SummaryState& state, const ScalarInputs& inputs, std::vector<MetricResult>& out)
      : st(state), x(inputs), rows(out) {}

  SummaryState& st;
  const ScalarInputs& x;
  std::vector<MetricResult>& rows;
  std::vector<PendingStats> pending;
  std::deque<std::vector<double>> adjusted;  // adj_* samples: the column plus one +inf per error
  std::vector<size_t> formulas;
  // Result index of each chunk list (SIZE_MAX while absent), and mirror rows to fill from them.
  std::vector<size_t> chunk_list_index;
  std::vector<std::pair<size_t, size_t>> mirrored;  // (row, row it mirrors)

  // Appends the row for `m` when this summary reports it (formulas: provisionally).
  void add(const MetricInfo& m) {
    MetricResult r;
    r.info = &m;
    r.distribution = m.distribution();
    const size_t index = rows.size();
    if (m.aggregate == Aggregate::kFormula) {
      formulas.push_back(index);
    } else if (m.aggregate == Aggregate::kSum) {
      if (!x.has(m.slot)) return;
      r.value = x.sum(m.slot);
    } else if (m.kind == MetricKind::kChunkList) {
      if (!chunk_list(m, index, &r)) return;
    } else if (!column(m, index)) {
      return;
    }
    rows.push_back(r);
  }

  bool chunk_list(const MetricInfo& m, size_t index, MetricResult* r) {
    SummaryState::ChunkList* cl = chunk_list_of(m, st);
    if (cl == nullptr) return false;
    const size_t list = static_cast<size_t>(cl - st.chunk_lists.data());
    chunk_list_index.resize(st.chunk_lists.size(), SIZE_MAX);
    if (!cl->separate) {
      // Still a mirror: same samples as the list it mirrors, computed once.
      const size_t base = chunk_list_index[static_cast<size_t>(cl->mirror_of)];
      if (base == SIZE_MAX) return false;
      mirrored.emplace_back(index, base);
    } else if (cl->series.empty()) {
      return false;
    } else if (cl->series.exact()) {
      pending.push_back({nullptr, cl->series.exact_values(), PercentileMethod::kLinear, index});
    } else {
      r->stats = cl->series.histogram_stats();
    }
    chunk_list_index[list] = index;
    return true;
  }

  bool column(const MetricInfo& m, size_t index) {
    auto& col = st.columns[static_cast<size_t>(m.slot)];
    if (col.empty()) return false;
    if (!m.has(kAdjusted)) {
      pending.push_back({&col, nullptr, PercentileMethod::kLinear, index});
      return true;
    }
    if (st.error_request_count == 0) return false;
    std::vector<double>& adj = adjusted.emplace_back(col.copy_values());
    adj.insert(adj.end(), static_cast<size_t>(st.error_request_count), kInf);
    pending.push_back({nullptr, &adj, PercentileMethod::kNearest, index});
    return true;
  }

  void compute_distributions(int max_threads) {
    compute_all(pending, &rows, max_threads);
    for (const auto& [row, base] : mirrored) rows[row].stats = rows[base].stats;
  }

  // Evaluates the formula rows over `inputs`, dropping those not reported.
  void evaluate_formulas(const ScalarInputs& inputs) {
    std::vector<bool> absent(rows.size(), false);
    for (size_t i : formulas) {
      ScalarValue v;
      absent[i] = !rows[i].info->formula(inputs, &v);
      rows[i].value = v.value;
      rows[i].int_value = v.exact;
    }
    size_t kept = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!absent[i]) rows[kept++] = rows[i];
    }
    rows.resize(kept);
  }
};

// Frees what only the distribution and formula rows read, before the sweep rows build their
// curves: the end of a long run then does not hold both (the columns are the largest part).
void release_per_request(SummaryState* st) {
  for (auto& col : st->columns) col = Column();
  st->intervals = std::vector<std::pair<int64_t, int64_t>>();
  st->chunk_lists.clear();
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

  RowBuilder rows(st, x, s.metrics);
  size_t count = 0;
  const MetricInfo* table = all_metrics(&count);
  for (size_t t = 0; t < count; ++t) {
    if (table[t].applies_to(opt.capabilities)) rows.add(table[t]);
  }
  rows.compute_distributions(opt.max_threads);
  Extras& e = s.extras;
  client_limited(s, &x, &e);
  rows.evaluate_formulas(x);
  release_per_request(&st);
  if (opt.sweep_rows) append_sweep_rows(st.sweep, x.window_start_ns, x.window_end_ns, &s.metrics);
  if (opt.replay_lag_rows) append_replay_lag_rows(&s.metrics);

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
