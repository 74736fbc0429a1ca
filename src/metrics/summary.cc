#include "metrics/summary.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <thread>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "metrics/record_metrics.h"

namespace servebench::metrics {

using record::RequestRecord;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

MetricResult scalar(std::string_view tag, double value) {
  MetricResult m;
  m.info = find_metric(tag);
  m.value = value;
  return m;
}

// Peak and time-weighted concurrency from [start, end) intervals.
void concurrency(const std::vector<const RequestRecord*>& records, Extras* x) {
  std::vector<std::pair<int64_t, int>> events;
  events.reserve(records.size() * 2);
  for (const RequestRecord* r : records) {
    if (r->request_start_ns <= 0) continue;
    int64_t end = std::max(r->end_ns, r->request_start_ns);
    events.emplace_back(r->request_start_ns, +1);
    events.emplace_back(end, -1);
  }
  if (events.empty()) return;
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

// A distribution to compute: `values` (reordered in place) → *out.
struct PendingStats {
  std::vector<double>* values;
  PercentileMethod method;
  size_t index;  // into Summary::metrics, when out is not set yet
  Stats* out;
};

// Computes every pending distribution, largest first, on up to hardware_concurrency threads
// when there is enough work to pay for them.
void compute_all(std::vector<PendingStats>& pending, int max_threads) {
  std::sort(pending.begin(), pending.end(), [](const PendingStats& a, const PendingStats& b) {
    return a.values->size() > b.values->size();
  });
  size_t total = 0;
  for (const auto& p : pending) total += p.values->size();
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next.fetch_add(1); i < pending.size(); i = next.fetch_add(1)) {
      *pending[i].out = compute_stats(*pending[i].values, pending[i].method);
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

}  // namespace

const MetricResult* Summary::find(std::string_view tag) const {
  for (const MetricResult& m : metrics) {
    if (m.tag() == tag) return &m;
  }
  return nullptr;
}

bool Summary::lookup(std::string_view tag, std::string_view stat, double* out) const {
  std::string stat_s(stat);
  auto from_stats = [&](bool has, const Stats& s, double divisor) {
    if (!has) return false;
    double v;
    if (!s.get(stat_s.c_str(), &v)) return false;
    *out = stat == "count" ? v : v / divisor;
    return true;
  };
  if (const MetricResult* m = find(tag)) {
    if (m->distribution) return from_stats(true, m->stats, m->info->display_divisor);
    if (stat != "avg") return false;
    *out = m->info->has(kTimestamp) ? static_cast<double>(m->int_value)
                                    : m->info->to_display(m->value);
    return true;
  }
  const Extras& x = extras;
  if (tag == "schedule_lag") return from_stats(x.has_schedule_lag, x.schedule_lag, 1e6);
  if (tag == "time_to_first_token_from_intended") {
    return from_stats(x.has_ttft_from_intended, x.ttft_from_intended, 1e6);
  }
  if (tag == "request_latency_from_intended") {
    return from_stats(x.has_latency_from_intended, x.latency_from_intended, 1e6);
  }
  if (tag == "per_token_inter_token_latency") {
    return from_stats(x.has_per_token_itl, x.per_token_itl, 1e6);
  }
  if (stat != "avg") return false;
  if (tag == "late_send_fraction") { *out = x.late_send_fraction; return true; }
  if (tag == "peak_concurrency") { *out = static_cast<double>(x.peak_concurrency); return true; }
  if (tag == "avg_concurrency") { *out = x.avg_concurrency; return true; }
  if (tag == "cancelled_request_count") {
    *out = static_cast<double>(x.cancelled_request_count);
    return true;
  }
  return false;
}

Summary summarize(const std::vector<const RequestRecord*>& records, const SummaryOptions& opt) {
  Summary s;
  s.goodput_enabled = !opt.slos.empty();
  std::array<std::vector<double>, kNumRecordMetrics> cols;
  for (auto& c : cols) c.reserve(records.size());
  std::vector<double> icl, per_token_itl, ttft_int, lat_int, lag;
  int64_t good = 0;
  int64_t min_start = std::numeric_limits<int64_t>::max(), max_end = 0;
  int64_t any_min_start = std::numeric_limits<int64_t>::max(), any_max_end = 0;
  double total_isl = 0, total_osl = 0, total_out = 0, total_reason = 0, total_err_isl = 0;
  double total_u_prompt = 0, total_u_compl = 0, total_u_total = 0, total_u_reason = 0;
  bool any_u_prompt = false, any_u_compl = false, any_u_total = false, any_u_reason = false;
  std::map<std::tuple<int32_t, std::string, std::string>, int64_t> errors;
  std::map<std::string, int64_t> errors_by_kind;

  // Column of each SLO's metric, resolved once (kNumRecordMetrics = not a record metric).
  std::vector<size_t> slo_index;
  for (const Slo& slo : opt.slos) {
    size_t found = kNumRecordMetrics;
    for (size_t i = 0; i < kNumRecordMetrics; ++i) {
      if (slo.tag == record_metric_tag(static_cast<RecordMetric>(i))) found = i;
    }
    slo_index.push_back(found);
  }

  bool per_token_separate = false;
  RecordValues rv;
  for (size_t record_pos = 0; record_pos < records.size(); ++record_pos) {
    const RequestRecord* r = records[record_pos];
    compute_record_metrics(*r, &rv);
    if (!std::isnan(rv.schedule_lag_ns)) lag.push_back(rv.schedule_lag_ns);
    if (r->dropped()) {
      ++s.extras.cancelled_request_count;
      continue;
    }
    if (r->request_start_ns > 0) {
      any_min_start = std::min(any_min_start, r->request_start_ns);
      any_max_end = std::max(any_max_end, r->end_ns);
    }
    if (!r->ok()) {
      ++s.error_request_count;
      ++errors[{error_code(*r), record::error_kind_name(r->error), r->error_message}];
      ++errors_by_kind[record::error_kind_name(r->error)];
      if (rv.has(RecordMetric::kErrorIsl)) {
        cols[static_cast<size_t>(RecordMetric::kErrorIsl)].push_back(
            rv.get(RecordMetric::kErrorIsl));
        total_err_isl += rv.get(RecordMetric::kErrorIsl);
      }
      continue;
    }
    ++s.request_count;
    for (size_t i = 0; i < kNumRecordMetrics; ++i) {
      if (!std::isnan(rv.v[i])) cols[i].push_back(rv.v[i]);
    }
    if (r->request_start_ns > 0) min_start = std::min(min_start, r->request_start_ns);
    if (rv.last_content_ns > 0) max_end = std::max(max_end, rv.last_content_ns);
    if (rv.has(RecordMetric::kIsl)) total_isl += rv.get(RecordMetric::kIsl);
    if (rv.has(RecordMetric::kOsl)) total_osl += rv.get(RecordMetric::kOsl);
    if (rv.has(RecordMetric::kOutputTokenCount)) total_out += rv.get(RecordMetric::kOutputTokenCount);
    if (rv.has(RecordMetric::kReasoningTokenCount)) {
      total_reason += rv.get(RecordMetric::kReasoningTokenCount);
    }
    auto add_usage = [&](RecordMetric m, double* total, bool* any) {
      if (rv.has(m)) {
        *total += rv.get(m);
        *any = true;
      }
    };
    add_usage(RecordMetric::kUsagePromptTokens, &total_u_prompt, &any_u_prompt);
    add_usage(RecordMetric::kUsageCompletionTokens, &total_u_compl, &any_u_compl);
    add_usage(RecordMetric::kUsageTotalTokens, &total_u_total, &any_u_total);
    add_usage(RecordMetric::kUsageReasoningTokens, &total_u_reason, &any_u_reason);
    if (rv.usage_discrepancy) ++s.usage_discrepancy_count;
    if (rv.osl_mismatch) ++s.osl_mismatch_count;
    if (!std::isnan(rv.ttft_from_intended_ns)) ttft_int.push_back(rv.ttft_from_intended_ns);
    if (!std::isnan(rv.latency_from_intended_ns)) lat_int.push_back(rv.latency_from_intended_ns);
    if (opt.inter_chunk_latency) {
      append_inter_chunk_latencies(*r, &icl);
      // While every chunk carries one token, per-token ITL is the ICL sample itself; build the
      // separate list only from the first multi-token chunk on (back-filling earlier records).
      if (!per_token_separate && !per_token_itl_equals_icl(*r)) {
        per_token_separate = true;
        for (size_t j = 0; j < record_pos; ++j) {
          if (records[j]->ok()) append_per_token_itl(*records[j], &per_token_itl);
        }
      }
      if (per_token_separate) append_per_token_itl(*r, &per_token_itl);
    }

    if (s.goodput_enabled) {
      bool ok = true;
      for (size_t k = 0; k < opt.slos.size(); ++k) {
        const Slo& slo = opt.slos[k];
        const double v = slo_index[k] < kNumRecordMetrics ? rv.v[slo_index[k]] : NAN;
        if (std::isnan(v) || (slo.larger_is_better ? v < slo.threshold_base
                                                   : v > slo.threshold_base)) {
          ok = false;
          break;
        }
      }
      if (ok) ++good;
    }
  }

  // Distributions are registered first and computed at the end, in parallel: each one is an
  // independent selection over its own column.
  const int64_t errors_n = s.error_request_count;
  std::vector<PendingStats> pending;
  std::deque<std::vector<double>> adj_storage;
  auto add_dist = [&](std::string_view tag, std::vector<double>* values, PercentileMethod method) {
    MetricResult m;
    m.info = find_metric(tag);
    m.distribution = true;
    s.metrics.push_back(m);
    pending.push_back({values, method, s.metrics.size() - 1, nullptr});
  };
  auto emit_dist = [&](RecordMetric m) {
    auto& col = cols[static_cast<size_t>(m)];
    if (!col.empty()) add_dist(record_metric_tag(m), &col, PercentileMethod::kLinear);
  };
  auto emit_with_adj = [&](RecordMetric m) {
    auto& col = cols[static_cast<size_t>(m)];
    if (col.empty()) return;
    if (errors_n > 0) {
      std::vector<double>& adj = adj_storage.emplace_back(col);
      adj.insert(adj.end(), static_cast<size_t>(errors_n), kInf);
      add_dist(std::string("adj_") + record_metric_tag(m), &adj, PercentileMethod::kNearest);
    }
    add_dist(record_metric_tag(m), &col, PercentileMethod::kLinear);
  };
  emit_with_adj(RecordMetric::kTtft);
  emit_dist(RecordMetric::kTtst);
  emit_dist(RecordMetric::kTtfo);
  emit_with_adj(RecordMetric::kRequestLatency);
  emit_with_adj(RecordMetric::kDecodeDuration);
  emit_with_adj(RecordMetric::kItl);
  if (!icl.empty()) add_dist("inter_chunk_latency", &icl, PercentileMethod::kLinear);
  for (RecordMetric m :
       {RecordMetric::kOutputTpsPerUser, RecordMetric::kE2eOutputTps,
        RecordMetric::kPrefillTpsPerUser, RecordMetric::kOsl, RecordMetric::kReasoningTokenCount,
        RecordMetric::kIsl, RecordMetric::kOutputTokenCount, RecordMetric::kUsagePromptTokens,
        RecordMetric::kUsageCompletionTokens, RecordMetric::kUsageTotalTokens,
        RecordMetric::kUsageReasoningTokens, RecordMetric::kUsagePromptCacheReadTokens,
        RecordMetric::kUsagePromptDiffPct, RecordMetric::kUsageCompletionDiffPct,
        RecordMetric::kUsageReasoningDiffPct, RecordMetric::kOslMismatchDiffPct,
        RecordMetric::kErrorIsl, RecordMetric::kStreamSetupLatency,
        RecordMetric::kStreamPrefillLatency, RecordMetric::kHttpReqSending,
        RecordMetric::kHttpReqWaiting, RecordMetric::kHttpReqReceiving,
        RecordMetric::kHttpReqDuration, RecordMetric::kHttpReqDataSent,
        RecordMetric::kHttpReqDataReceived, RecordMetric::kHttpReqConnectionReused}) {
    emit_dist(m);
  }

  // Aggregates.
  s.metrics.push_back(scalar("request_count", static_cast<double>(s.request_count)));
  if (errors_n > 0) {
    s.metrics.push_back(scalar("error_request_count", static_cast<double>(errors_n)));
  }
  if (s.goodput_enabled) {
    s.metrics.push_back(scalar("good_request_count", static_cast<double>(good)));
  }
  if (!cols[static_cast<size_t>(RecordMetric::kUsagePromptDiffPct)].empty() ||
      !cols[static_cast<size_t>(RecordMetric::kUsageCompletionDiffPct)].empty()) {
    s.metrics.push_back(
        scalar("usage_discrepancy_count", static_cast<double>(s.usage_discrepancy_count)));
  }
  if (!cols[static_cast<size_t>(RecordMetric::kOslMismatchDiffPct)].empty()) {
    s.metrics.push_back(scalar("osl_mismatch_count", static_cast<double>(s.osl_mismatch_count)));
  }

  // Observation window.
  int64_t window_start = 0, window_end = 0;
  if (s.request_count > 0 && max_end > 0) {
    window_start = min_start;
    window_end = max_end;
  } else if (any_max_end > 0) {
    window_start = any_min_start;
    window_end = any_max_end;
  }
  if (window_end > 0) {
    MetricResult mn = scalar("min_request_timestamp", 0);
    mn.int_value = opt.anchor.to_wall_ns(window_start);
    mn.value = static_cast<double>(mn.int_value);
    MetricResult mx = scalar("max_response_timestamp", 0);
    mx.int_value = opt.anchor.to_wall_ns(window_end);
    mx.value = static_cast<double>(mx.int_value);
    s.metrics.push_back(mn);
    s.metrics.push_back(mx);
  }
  const int64_t duration_ns = opt.window_ns > 0 ? opt.window_ns : window_end - window_start;
  if (duration_ns > 0 && (window_end > 0 || opt.window_ns > 0)) {
    const double secs = static_cast<double>(duration_ns) / 1e9;
    s.metrics.push_back(scalar("benchmark_duration", static_cast<double>(duration_ns)));
    s.metrics.push_back(scalar("request_throughput", static_cast<double>(s.request_count) / secs));
    if (!cols[static_cast<size_t>(RecordMetric::kOsl)].empty()) {
      s.metrics.push_back(scalar("output_token_throughput", total_osl / secs));
    }
    if (!cols[static_cast<size_t>(RecordMetric::kIsl)].empty()) {
      s.metrics.push_back(scalar("input_token_throughput", total_isl / secs));
      s.metrics.push_back(scalar("total_token_throughput", (total_isl + total_osl) / secs));
    }
    if (s.goodput_enabled) s.metrics.push_back(scalar("goodput", static_cast<double>(good) / secs));
  }
  if (s.goodput_enabled) {
    const int64_t attempted = s.request_count + errors_n;
    s.metrics.push_back(scalar("good_request_fraction",
                               attempted > 0 ? static_cast<double>(good) / attempted : 0.0));
  }
  if (s.request_count + errors_n > 0) {
    s.metrics.push_back(scalar("request_error_rate", 100.0 * static_cast<double>(errors_n) /
                                                         (s.request_count + errors_n)));
  }
  if (!cols[static_cast<size_t>(RecordMetric::kIsl)].empty()) {
    s.metrics.push_back(scalar("total_isl", total_isl));
  }
  if (!cols[static_cast<size_t>(RecordMetric::kOsl)].empty()) {
    s.metrics.push_back(scalar("total_osl", total_osl));
  }
  if (!cols[static_cast<size_t>(RecordMetric::kOutputTokenCount)].empty()) {
    s.metrics.push_back(scalar("total_output_tokens", total_out));
  }
  if (!cols[static_cast<size_t>(RecordMetric::kReasoningTokenCount)].empty()) {
    s.metrics.push_back(scalar("total_reasoning_tokens", total_reason));
  }
  if (!cols[static_cast<size_t>(RecordMetric::kErrorIsl)].empty()) {
    s.metrics.push_back(scalar("total_error_isl", total_err_isl));
  }
  if (any_u_prompt) s.metrics.push_back(scalar("total_usage_prompt_tokens", total_u_prompt));
  if (any_u_compl) s.metrics.push_back(scalar("total_usage_completion_tokens", total_u_compl));
  if (any_u_total) s.metrics.push_back(scalar("total_usage_total_tokens", total_u_total));
  if (any_u_reason) s.metrics.push_back(scalar("total_usage_reasoning_tokens", total_u_reason));

  // Error summary, most frequent first (ties by type, code, message for stable output).
  for (auto& [key, count] : errors) {
    s.error_summary.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), count});
  }
  std::stable_sort(s.error_summary.begin(), s.error_summary.end(),
                   [](const ErrorGroup& a, const ErrorGroup& b) { return a.count > b.count; });
  // Messages that embed per-request details would make one group per failure: keep the most
  // frequent kMaxErrorGroups and fold the rest into one group per (code, type).
  if (s.error_summary.size() > kMaxErrorGroups) {
    std::map<std::pair<int32_t, std::string>, int64_t> rest;
    for (size_t i = kMaxErrorGroups; i < s.error_summary.size(); ++i) {
      rest[{s.error_summary[i].code, s.error_summary[i].type}] += s.error_summary[i].count;
    }
    s.error_summary.resize(kMaxErrorGroups);
    for (const auto& [key, count] : rest) {
      s.error_summary.push_back({key.first, key.second, "(other messages)", count});
    }
  }

  // Extras.
  Extras& x = s.extras;
  x.errors_by_kind.assign(errors_by_kind.begin(), errors_by_kind.end());
  auto add_extra = [&](std::vector<double>* values, bool* has, Stats* out) {
    if (values->empty()) return;
    *has = true;
    pending.push_back({values, PercentileMethod::kLinear, 0, out});
  };
  add_extra(&ttft_int, &x.has_ttft_from_intended, &x.ttft_from_intended);
  add_extra(&lat_int, &x.has_latency_from_intended, &x.latency_from_intended);
  add_extra(&per_token_itl, &x.has_per_token_itl, &x.per_token_itl);
  add_extra(&lag, &x.has_schedule_lag, &x.schedule_lag);
  // s.metrics is complete: resolve the targets and compute every distribution.
  for (PendingStats& p : pending) {
    if (p.out == nullptr) p.out = &s.metrics[p.index].stats;
  }
  compute_all(pending, opt.max_threads);
  if (!per_token_separate && !icl.empty()) {
    // Every chunk carried one token: per-token ITL is the inter-chunk distribution.
    x.has_per_token_itl = true;
    x.per_token_itl = s.find("inter_chunk_latency")->stats;
  }

  if (!lag.empty()) {
    x.sends_with_intended = static_cast<int64_t>(lag.size());
    for (double v : lag) {
      if (v > static_cast<double>(kLateSendThresholdNs)) ++x.late_sends;
    }
    x.late_send_fraction = static_cast<double>(x.late_sends) / static_cast<double>(lag.size());
    const double p99 = x.schedule_lag.p[8];
    if (x.late_send_fraction > kClientLimitedLateFraction) {
      x.client_limited = true;
      x.client_limited_reason = fmt::format(
          "{:.1f}% of requests were sent more than 1 ms after their intended time (limit {:.0f}%)",
          x.late_send_fraction * 100, kClientLimitedLateFraction * 100);
    } else if (p99 > static_cast<double>(kClientLimitedLagP99Ns)) {
      x.client_limited = true;
      x.client_limited_reason =
          fmt::format("schedule lag p99 is {:.3f} ms (limit {} ms)", p99 / 1e6,
                      kClientLimitedLagP99Ns / 1'000'000);
    }
  }
  concurrency(records, &x);
  return s;
}

Summary summarize_phase(const std::vector<RequestRecord>& records, record::Phase phase,
                        const SummaryOptions& options) {
  std::vector<const RequestRecord*> ptrs;
  ptrs.reserve(records.size());
  for (const RequestRecord& r : records) {
    if (r.phase == phase) ptrs.push_back(&r);
  }
  return summarize(ptrs, options);
}

}  // namespace servebench::metrics
