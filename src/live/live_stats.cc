#include "live/live_stats.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "metrics/record_metrics.h"

namespace servebench::live {
namespace {

LiveQuantiles quantiles_of(std::vector<double>* v) {
  LiveQuantiles q;
  q.count = static_cast<int64_t>(v->size());
  if (v->empty()) return q;
  auto at = [&](double p) {
    const auto k = static_cast<size_t>(std::llround(p * static_cast<double>(v->size() - 1)));
    std::nth_element(v->begin(), v->begin() + static_cast<std::ptrdiff_t>(k), v->end());
    return (*v)[k];
  };
  q.p50_ns = at(0.50);
  q.p99_ns = at(0.99);
  return q;
}

LiveQuantiles quantiles_of(const metrics::LogHistogram& h) {
  LiveQuantiles q;
  q.count = static_cast<int64_t>(h.count());
  if (q.count == 0) return q;
  auto rank = [&](double p) {
    return static_cast<uint64_t>(std::llround(p * static_cast<double>(h.count() - 1)));
  };
  q.p50_ns = h.value_at_rank(rank(0.50));
  q.p99_ns = h.value_at_rank(rank(0.99));
  return q;
}

}  // namespace

const char* live_phase_name(LivePhase p) {
  switch (p) {
    case LivePhase::kSetup:
      return "setup";
    case LivePhase::kWarmup:
      return "warmup";
    case LivePhase::kProfiling:
      return "profiling";
    case LivePhase::kDraining:
      return "draining";
    case LivePhase::kDone:
      return "done";
  }
  return "unknown";
}

int64_t process_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

double LiveSnapshot::progress() const {
  if (phase == LivePhase::kSetup || phase == LivePhase::kWarmup) return 0.0;
  // By requests also after the load (an interrupted run stays below 100%).
  if (expected_requests > 0)
    return std::min(1.0, static_cast<double>(completed) / static_cast<double>(expected_requests));
  if (phase != LivePhase::kProfiling) return 1.0;
  if (duration_ns > 0 && profiling_start_ns > 0)
    return std::clamp(
        static_cast<double>(published_ns - profiling_start_ns) / static_cast<double>(duration_ns),
        0.0, 1.0);
  return -1.0;
}

double LiveSnapshot::eta_s() const {
  if (phase == LivePhase::kDraining || phase == LivePhase::kDone) return 0.0;
  const double p = progress();
  if (p <= 0 || profiling_start_ns == 0) return -1.0;
  if (p >= 1.0) return 0.0;
  const double elapsed_s = static_cast<double>(published_ns - profiling_start_ns) / 1e9;
  return elapsed_s * (1.0 - p) / p;
}

LiveStats::LiveStats(LiveOptions options, const core::Clock& clock)
    : options_(options), clock_(clock) {
  state_.expected_requests = options_.expected_requests;
  state_.duration_ns = options_.duration_ns;
  last_wall_ns_ = clock_.now_ns();
  last_cpu_ns_ = start_cpu_ns_ = process_cpu_ns();
  cell_.store(state_);
}

void LiveStats::add(const std::vector<record::RequestRecord>& batch) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& r : batch) add_one(r);
}

void LiveStats::add_one(const record::RequestRecord& r) {
  if (r.dropped()) return;
  if (r.phase == record::Phase::kWarmup) {
    ++state_.warmup_completed;
    return;
  }
  ++state_.completed;
  using M = metrics::RecordMetric;
  static constexpr M kShown[] = {M::kTtft, M::kItl, M::kRequestLatency, M::kScheduleLag};
  metrics::RecordValues v;
  metrics::compute_record_metrics(r, &v, kShown, std::size(kShown));
  Sample s{
      r.end_ns, v.get(M::kTtft), v.get(M::kItl), v.get(M::kRequestLatency), v.get(M::kScheduleLag),
      0};
  if (r.ok()) {
    ++state_.ok;
    s.output_tokens =
        std::max<int64_t>(0, r.output_tokens) + std::max<int64_t>(0, r.reasoning_tokens);
    state_.output_tokens += s.output_tokens;
    state_.input_tokens += std::max<int64_t>(0, r.input_tokens);
  } else {
    ++state_.failed;
    ++state_.errors[static_cast<size_t>(r.error)];
  }
  if (!std::isnan(s.ttft)) ttft_.add(s.ttft);
  if (!std::isnan(s.itl)) itl_.add(s.itl);
  if (!std::isnan(s.latency)) latency_.add(s.latency);
  if (!std::isnan(s.lag)) lag_.add(std::max(0.0, s.lag));
  window_.push_back(s);
  if (window_.size() > kMaxWindowSamples) window_.pop_front();
}

void LiveStats::set_phase(LivePhase phase, int64_t start_ns) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    state_.phase = phase;
    if (phase == LivePhase::kProfiling && start_ns > 0) {
      state_.profiling_start_ns = start_ns;
      start_cpu_ns_ = process_cpu_ns();
    }
  }
  publish();
}

void LiveStats::publish() {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t now = clock_.now_ns();
  state_.published_ns = now;
  // A completed request was issued, whatever the last sample of the runner's counter said.
  state_.issued =
      std::max(issued_.load(std::memory_order_relaxed), state_.completed + state_.warmup_completed);
  // Window: completions in the last window_ns (by completion time, which is never after now).
  while (!window_.empty() && window_.front().end_ns < now - options_.window_ns) window_.pop_front();
  std::vector<double> ttft, itl, lat, lag;
  int64_t tokens = 0;
  for (const auto& s : window_) {
    if (!std::isnan(s.ttft)) ttft.push_back(s.ttft);
    if (!std::isnan(s.itl)) itl.push_back(s.itl);
    if (!std::isnan(s.latency)) lat.push_back(s.latency);
    if (!std::isnan(s.lag)) lag.push_back(std::max(0.0, s.lag));
    tokens += s.output_tokens;
  }
  state_.ttft = {quantiles_of(&ttft), quantiles_of(ttft_)};
  state_.itl = {quantiles_of(&itl), quantiles_of(itl_)};
  state_.latency = {quantiles_of(&lat), quantiles_of(latency_)};
  state_.schedule_lag = {quantiles_of(&lag), quantiles_of(lag_)};
  const int64_t t0 = state_.profiling_start_ns;
  const double elapsed_s = t0 > 0 && now > t0 ? static_cast<double>(now - t0) / 1e9 : 0.0;
  double span_s = std::min(elapsed_s, static_cast<double>(options_.window_ns) / 1e9);
  if (window_.size() == kMaxWindowSamples)  // a capped window covers less than window_ns
    span_s = std::min(span_s, static_cast<double>(now - window_.front().end_ns) / 1e9);
  state_.window_request_rate = span_s > 0 ? static_cast<double>(window_.size()) / span_s : 0;
  state_.window_token_rate = span_s > 0 ? static_cast<double>(tokens) / span_s : 0;
  state_.overall_request_rate =
      elapsed_s > 0 ? static_cast<double>(state_.completed) / elapsed_s : 0;
  state_.overall_token_rate =
      elapsed_s > 0 ? static_cast<double>(state_.output_tokens) / elapsed_s : 0;
  const int64_t cpu = process_cpu_ns();
  if (now > last_wall_ns_)
    state_.cpu_percent =
        100.0 * static_cast<double>(cpu - last_cpu_ns_) / static_cast<double>(now - last_wall_ns_);
  last_cpu_ns_ = cpu;
  last_wall_ns_ = now;
  state_.cpu_per_request_us =
      state_.completed > 0 && t0 > 0
          ? static_cast<double>(cpu - start_cpu_ns_) / 1e3 / static_cast<double>(state_.completed)
          : 0;
  cell_.store(state_);
}

LiveSnapshot LiveStats::snapshot() const { return cell_.load(); }

}  // namespace servebench::live
