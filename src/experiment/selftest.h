// Client self-test analysis: from the records of a run against servebench-mock and the mock's
// ground-truth file (--ground-truth), the client's own limits on this machine: schedule lag
// (send − intended) percentiles, first-token timing error (when the client saw the first token
// − when the mock wrote it, both as wall time), CPU per request and per SSE event, the headroom
// and a one-line verdict. selftest_cmd.cc starts the mock and runs the load.
//
// Headroom: the request rate the run reached (completed requests over first send to last end)
// times the client's CPU per request is the cores the client kept busy; `cores` (the CPUs the
// process may run on) over that is how far the load could rise before the client's CPU is
// saturated. It is an upper bound: the CPU includes set-up and export (so it errs low), but
// timing error grows before saturation, so rerun selftest at the projected load to confirm.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace servebench::experiment {

struct Percentiles {
  int64_t n = 0;
  double p50 = 0, p99 = 0, p999 = 0, max = 0;  // ms
};

Percentiles percentiles_ms(std::vector<double> values_ms);

struct SelftestReport {
  Percentiles schedule_lag;       // request_start − intended
  Percentiles ttft_error;         // client first token − mock first-token write
  int64_t matched = 0;            // records matched to ground truth by X-Request-ID
  int64_t requests = 0;
  int64_t sse_events = 0;         // events the mock wrote
  double cpu_us_per_request = 0;
  double cpu_us_per_event = 0;
  double request_rate = 0;   // req/s over first send .. last end
  double client_cores = 0;   // cores the client kept busy: request_rate × CPU per request
  int cores = 1;             // CPUs the client may use
  double headroom = 0;       // cores / client_cores (0: unknown)
  std::string verdict;
};

// `records_jsonl`: profile_export.jsonl text; `truth_jsonl`: the mock's ground-truth text;
// `cpu_ns`: user + system CPU of the client during the run.
SelftestReport analyze_selftest(const std::string& records_jsonl, const std::string& truth_jsonl,
                                int64_t cpu_ns, double lag_limit_ms, double error_limit_ms,
                                int cores = 1);

std::string selftest_text(const SelftestReport& r);
std::string selftest_json(const SelftestReport& r);

}  // namespace servebench::experiment
