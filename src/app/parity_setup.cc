#include "app/parity_setup.h"

#include <memory>

#include "load/model_order.h"

namespace servebench::app {

void apply_parity_load(const config::BenchmarkConfig& c, load::LoadSpec* s) {
  const config::WarmupShape& w = c.parity.warmup;
  s->warmup_load.request_rate = w.request_rate;
  s->warmup_load.arrival_pattern = w.arrival_pattern;
  s->warmup_load.concurrency = w.concurrency;
  s->warmup_load.prefill_concurrency = w.prefill_concurrency;
  s->warmup_load.grace_ns = w.grace_ns;
  s->warmup_load.concurrency_ramp_ns = w.concurrency_ramp_ns;
  s->warmup_load.prefill_ramp_ns = w.prefill_ramp_ns;
  s->warmup_load.rate_ramp_ns = w.rate_ramp_ns;
  s->prefill_ramp_ns = c.parity.prefill_concurrency_ramp_ns.value_or(0);
  const auto& points = c.parity.request_rate_series;
  if (points.empty()) return;
  std::vector<load::RateSeriesPoint> series;
  for (const auto& p : points) series.push_back({p.time_ns, p.qps});
  s->rate_series = std::make_shared<const load::RateSeries>(std::move(series));
  // Open loop at the series' rates: only a --concurrency the user gave is a ceiling.
  s->request_rate = s->rate_series->initial_qps();
  s->concurrency = c.concurrency;
}

void apply_parity_worker(const config::BenchmarkConfig& c, uint64_t seed,
                         load::WorkerSettings* settings) {
  load::ModelChoice choice = load::ModelChoice::kRoundRobin;
  if (c.parity.model_selection == config::ModelSelection::kRandom) choice = load::ModelChoice::kRandom;
  if (c.parity.model_selection == config::ModelSelection::kWeighted) choice = load::ModelChoice::kWeighted;
  settings->model_order =
      load::build_model_order(choice, c.models.size(), c.parity.model_weights, seed);
}

}  // namespace servebench::app
