// Machine-readable forms of a LiveSnapshot for the live API (api_server.h): JSON for
// /api/progress and /api/metrics, Prometheus text exposition (format 0.0.4) for /metrics.
// Pure functions.
#pragma once

#include <string>

#include "live/live_stats.h"

namespace servebench::live {

// {"phase", "progress" (0..1 or null), "eta_s", "issued", "completed", "ok", "failed",
//  "in_flight", "expected_requests", "elapsed_s", "duration_s"}
std::string progress_json(const LiveSnapshot& s);

// The live summary: progress fields plus rates, window/overall p50/p99 of ttft, itl,
// request_latency and schedule_lag (ms), errors by kind, client CPU.
std::string metrics_json(const LiveSnapshot& s);

// servebench_* series: counters (requests issued/completed/failed, errors by kind, output
// tokens), gauges (in flight, rates, progress, CPU) and window quantiles in seconds.
std::string prometheus_text(const LiveSnapshot& s);

}  // namespace servebench::live
