#include "app/load_setup.h"

#include "app/agentic_setup.h"
#include "app/parity_setup.h"
#include "endpoints/registry.h"

namespace servebench::app {

WorkloadShape shape_of(const config::BenchmarkConfig& config, const PreparedWorkload& work) {
  WorkloadShape s;
  s.from_file = !config.input_file.empty();
  s.sessions = work.sessions != nullptr;
  s.entries = work.entries;
  s.fixed_offsets_ns = work.fixed_offsets_ns;
  s.agentic_lanes = work.agentic_lanes;
  s.agentic_warmup_span_ns = work.agentic_warmup_span_ns;
  return s;
}

config::BenchmarkConfig effective_config(const config::BenchmarkConfig& config,
                                         const WorkloadShape& shape) {
  config::BenchmarkConfig c = config;
  if (shape.from_file && !c.request_count && !c.benchmark_duration_ns && !c.num_sessions) {
    // A file runs every conversation once, all turns, unless a count or a duration says otherwise.
    if (shape.sessions)
      c.num_sessions = static_cast<int64_t>(shape.entries);
    else
      c.request_count = static_cast<int64_t>(shape.entries);
  }
  return c;
}

load::LoadSpec make_load_spec(const config::BenchmarkConfig& config, const WorkloadShape& shape) {
  const config::BenchmarkConfig c = effective_config(config, shape);
  load::LoadSpec s;
  s.request_rate = c.request_rate;
  s.arrival_pattern = c.arrival_pattern;
  s.arrival_smoothness = c.arrival_smoothness.value_or(1.0);
  s.concurrency = c.effective_concurrency();
  s.concurrency_ceiling = c.concurrency;
  s.prefill_concurrency = c.prefill_concurrency;
  s.concurrency_ramp_ns = c.concurrency_ramp_ns.value_or(0);
  s.rate_ramp_ns = c.request_rate_ramp_ns.value_or(0);
  s.request_count = c.effective_request_count();
  s.duration_ns = c.benchmark_duration_ns;
  if (c.benchmark_duration_ns) {
    const int64_t g = c.effective_grace_ns();
    s.grace_ns = g == config::kInfiniteNs ? load::kNever : g;
  }
  s.warmup_request_count = c.warmup_request_count;
  s.warmup_duration_ns = c.warmup_duration_ns;
  s.warmup_sessions = c.num_warmup_sessions;
  s.sessions = shape.sessions;
  s.session_count = c.num_sessions;
  s.user_centric = c.user_centric_rate.has_value();
  s.fixed_offsets_ns = shape.fixed_offsets_ns;
  s.workers_max = c.workers_max;
  apply_parity_load(c, &s);  // warm-up shape, rate series, prefill ramp
  apply_agentic_load(c, shape.agentic_lanes, shape.agentic_warmup_span_ns, &s);  // lanes and their warm-up
  return s;
}

std::vector<std::string> user_headers(const config::BenchmarkConfig& config) {
  std::vector<std::string> h = endpoints::credential_headers(config.endpoint_type, config.api_key);
  for (const auto& x : config.headers) h.push_back(x);
  return h;
}

}  // namespace servebench::app
