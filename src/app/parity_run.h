// The run library's AIPerf parity steps (config/parity_options.h), kept out of run.cc: waiting
// for the model before anything is sent, the server profiler's options, and the failed-request
// threshold that stops a run early.
//
// Thread safety: as the run library (one run at a time).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/server_profiler.h"
#include "config/benchmark_config.h"
#include "core/result.h"
#include "endpoints/endpoint.h"
#include "load/failure_threshold.h"
#include "load/load_spec.h"

namespace servebench::app {

// --wait-for-model-*: blocks until every URL is ready (app/readiness.h). `endpoint_urls` are the
// benchmark URLs (the inference probe's targets). Errors: kTimeout (exit 3), kInterrupted.
Status wait_until_ready(const config::BenchmarkConfig& config, const endpoints::Endpoint& endpoint,
                        const std::vector<std::string>& endpoint_urls);

ServerProfilerOptions server_profiler_options(const config::BenchmarkConfig& config);

// --failed-request-threshold, armed after max(profiling concurrency, 10) records.
std::optional<load::FailureThreshold> make_failure_threshold(const config::BenchmarkConfig& config,
                                                             const load::LoadSpec& spec);

// Logs, once, the AIPerf-internal flags that were given and are not needed here.
void note_internal_flags(const config::BenchmarkConfig& config);

}  // namespace servebench::app
