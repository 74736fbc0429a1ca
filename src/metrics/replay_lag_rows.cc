#include "metrics/replay_lag_rows.h"

namespace servebench::metrics {
namespace {

constexpr double kNsPerMs = 1e6;

MetricInfo lag_row(std::string_view tag, std::string_view header) {
  return MetricInfo{tag, header, "ms", kNsPerMs, MetricKind::kDerived, kNoConsole, 0};
}

const MetricInfo kP50 = lag_row("replay_sched_lag_p50", "Replay Schedule Lag p50");
const MetricInfo kP90 = lag_row("replay_sched_lag_p90", "Replay Schedule Lag p90");
const MetricInfo kP99 = lag_row("replay_sched_lag_p99", "Replay Schedule Lag p99");
const MetricInfo kDegraded{"replay_sched_degraded", "Replay Schedule Degraded", "count", 1,
                           MetricKind::kDerived, kNoConsole | kIntegerValued, 0};

void push(const MetricInfo& info, double value, std::vector<MetricResult>* out) {
  MetricResult m;
  m.info = &info;
  m.value = value;
  out->push_back(m);
}

}  // namespace

void append_replay_lag_rows(std::vector<MetricResult>* metrics) {
  const MetricResult* lag = nullptr;
  for (const MetricResult& m : *metrics) {
    if (m.tag() == "schedule_lag" && m.distribution) lag = &m;
  }
  if (lag == nullptr || lag->stats.count <= 0) return;
  const Stats st = lag->stats;  // copied: push_back below may move the vector
  double p50 = 0, p90 = 0, p99 = 0;
  st.get("p50", &p50);
  st.get("p90", &p90);
  st.get("p99", &p99);
  p50 -= st.min;
  p90 -= st.min;
  p99 -= st.min;
  push(kP50, p50, metrics);
  push(kP90, p90, metrics);
  push(kP99, p99, metrics);
  push(kDegraded, p99 / kNsPerMs > kReplayDegradedMs ? 1.0 : 0.0, metrics);
}

}  // namespace servebench::metrics
