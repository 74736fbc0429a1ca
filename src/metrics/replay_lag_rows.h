// AIPerf 0.13's replay send-lag rows of a fixed-schedule run (its replay_sched_lag_analyzer):
// replay_sched_lag_p50/p90/p99 = the percentiles, in ms, of each request's send offset
// (request_start_ns − intended_ns) minus the run's smallest offset, so the least-late request
// is the anchor and a constant clock offset cancels; replay_sched_degraded = 1 when that p99 is
// over kReplayDegradedMs (the tail of the schedule went out half a second or more late), else 0.
// Run-scoped scalars ({unit, avg} in the JSON, never per time slice, not in the console).
//
// They are read off servebench's exact schedule_lag distribution (linear-interpolation
// percentiles are shift-equivariant: p(x − min) = p(x) − min), which every profiling request
// with a planned send time feeds.
//
// Thread safety: pure.
#pragma once

#include <vector>

#include "metrics/summary.h"

namespace servebench::metrics {

inline constexpr double kReplayDegradedMs = 500.0;

// Appends the four rows when `metrics` holds a schedule_lag distribution with samples; nothing
// otherwise.
void append_replay_lag_rows(std::vector<MetricResult>* metrics);

}  // namespace servebench::metrics
