// From the validated configuration and the prepared workload to what the load module takes:
// the load spec (load/load_spec.h) and the worker settings (load/worker.h). The configuration
// is never changed: values a workload implies (an input file plays each entry once) are
// resolved here.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/workload_setup.h"
#include "config/benchmark_config.h"
#include "load/load_spec.h"
#include "load/worker.h"

namespace servebench::app {

// What the load spec needs from the workload.
struct WorkloadShape {
  bool from_file = false;  // --input-file given
  bool sessions = false;   // multi-turn sessions
  size_t entries = 0;      // single-turn entries, or conversations
  std::shared_ptr<const std::vector<int64_t>> fixed_offsets_ns;  // null: no fixed schedule
  int64_t agentic_lanes = 0;           // agentic replay (app/agentic_setup.h)
  int64_t agentic_warmup_span_ns = 0;
};
WorkloadShape shape_of(const config::BenchmarkConfig& config, const PreparedWorkload& work);

// The configuration as it ran: with an input file and neither a count, a duration nor a
// session count, every entry runs once (request_count, or num_sessions for sessions). Used for
// the load spec and for the artifacts' input_config; the original stays as given.
config::BenchmarkConfig effective_config(const config::BenchmarkConfig& config,
                                         const WorkloadShape& shape);

load::LoadSpec make_load_spec(const config::BenchmarkConfig& config, const WorkloadShape& shape);

// The credential and -H headers: they go with every request, control requests (KV-cache
// reset) included.
std::vector<std::string> user_headers(const config::BenchmarkConfig& config);

}  // namespace servebench::app
