// The run library's GPU telemetry and network RTT collectors: built from the configuration,
// attached to the phase hooks beside the caller's own hooks, and asked for their export
// sections when the summary files are written (gpu_telemetry/telemetry_session.h).
//
// Thread safety: as RunHooks (run.h).
#pragma once

#include <memory>

#include "app/run.h"
#include "export/artifacts.h"
#include "gpu_telemetry/telemetry_session.h"

namespace servebench::app {

// The options for `config`. Tests may override the library paths afterwards.
gpu_telemetry::TelemetryOptions telemetry_options(const config::BenchmarkConfig& config);

// nullptr when nothing is collected (--no-gpu-telemetry without RTT probes). Errors: a bad
// custom metrics file (usage error).
Result<std::unique_ptr<gpu_telemetry::TelemetrySession>> make_telemetry(
    const config::BenchmarkConfig& config);

// `hooks` with the session's phase calls added after each of the caller's.
RunHooks with_telemetry(const RunHooks& hooks, gpu_telemetry::TelemetrySession* session);

// The export section function for RunContext::extra_sections.
exporter::ExtraSectionsFn telemetry_sections(const gpu_telemetry::TelemetrySession* session);

}  // namespace servebench::app
