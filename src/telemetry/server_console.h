// The console's server-metrics panel: the server detected from its metric names (vLLM, SGLang,
// TRT-LLM, Dynamo, llama.cpp) and a compact table of the metrics that matter for it (queue
// depth, batch, KV-cache usage, TTFT/ITL/e2e histograms, token counters), every label set and
// endpoint summed; then the reconciliation rows with their caveats. Everything else is in the
// files.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "telemetry/server_reconcile.h"
#include "telemetry/server_stats.h"

namespace servebench::telemetry {

// "vllm", "sglang", "trtllm", "dynamo", "llamacpp" or "" (unknown).
std::string detect_server(const ServerReport& report);

std::string render_server_console(const ServerReport& report, const std::vector<ReconcileRow>& rows);

}  // namespace servebench::telemetry
