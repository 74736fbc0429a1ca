// The agentic replay scenario in the run library (config/scenario.h, load/agentic_lanes.h):
// the trace timing options applied to a parsed input file, the lanes added to the session
// workload, the warm-up barrier and closed-loop lanes in the load spec, and the scenario's
// stamp in the JSON export.
//
// Thread safety: pure functions, called on the set-up thread before t0.
#pragma once

#include <cstdint>
#include <memory>

#include "app/workload_setup.h"
#include "config/benchmark_config.h"
#include "core/result.h"
#include "dataset/loaders/dataset_file.h"
#include "export/artifacts.h"
#include "metrics/summary.h"
#include "load/idle_gap_cap.h"
#include "load/load_spec.h"

namespace servebench::app {

// --ignore-trace-delays, --trace-idle-gap-cap-seconds and (agentic replay) end-to-start delays
// on the parsed file; with --scenario, a file that is not weka_trace is an error (exit 2).
Status prepare_agentic_file(const config::BenchmarkConfig& cfg, dataset::DatasetFile* file);

// Agentic replay: plans and adds the lanes to the prepared session workload, and records the
// lane count and warm-up span for the load spec. A no-op without agentic replay.
Status add_agentic_lanes(const config::BenchmarkConfig& cfg, uint64_t seed, PreparedWorkload* work);

// Agentic replay: a warm-up of one priming session per lane under concurrency = lanes (waiting
// for every reply, or --agentic-warmup-grace-period after the last send), then profiling. With
// --agentic-cache-warmup-duration D the warm-up instead lasts the spread plus D (lanes play on,
// then recycled traces) and drains for --agentic-warmup-grace-period, else
// max(--benchmark-grace-period, min(D, 300 s)).
void apply_agentic_load(const config::BenchmarkConfig& cfg, int64_t lanes, int64_t warmup_span_ns,
                        load::LoadSpec* spec);

// Agentic replay's shared system idle-gap cap for the workers (load/idle_gap_cap.h); null
// without agentic replay or a cap.
std::shared_ptr<load::IdleGapCap> agentic_idle_cap(const config::BenchmarkConfig& cfg);

// Failed requests whose error names a context overflow (case-insensitive: "context length",
// "maximum context", "context_length_exceeded", "prompt is too long"), counted from the summary's
// error groups.
int64_t context_overflow_count(const metrics::Summary& summary);

// The scenario's section of profile_export_aiperf.json: "scenario" (name, applied_locks,
// violations, context_overflow_count), "submission_valid" and "submission_invalid_reasons":
// false with "unsafe_override" when --unsafe-override downgraded a lock, "run_cancelled" when the
// run was interrupted, "context_overflow_rate_exceeded" when more than 1% of the responses were
// context overflows. Null without --scenario.
exporter::ExtraSectionsFn scenario_sections(const config::BenchmarkConfig& cfg, const bool* interrupted);

}  // namespace servebench::app
