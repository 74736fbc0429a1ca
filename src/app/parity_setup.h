// The AIPerf parity options (config/parity_options.h) that shape the load: the warm-up's own
// load shape, the request-rate series, the prefill ramp and the model-selection table. Called
// from make_load_spec and the worker settings, so the load module never reads the config.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>

#include "config/benchmark_config.h"
#include "load/load_spec.h"
#include "load/worker.h"

namespace servebench::app {

// Adds the warm-up load, rate series and prefill ramp to a spec built from `config`.
void apply_parity_load(const config::BenchmarkConfig& config, load::LoadSpec* spec);

// The per-request model table of --model-selection-strategy random/weighted.
void apply_parity_worker(const config::BenchmarkConfig& config, uint64_t seed,
                         load::WorkerSettings* settings);

}  // namespace servebench::app
