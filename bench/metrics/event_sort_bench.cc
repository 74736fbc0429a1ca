// Sorting one sweep curve's events (metrics/event_sort.h) for a 300,000-request run: each
// request adds an increment at its start and a decrement at its end, 64 in flight, ~40 µs each,
// times in ns from the run's start with the ties a shared socket read gives.
//   build/bin/bench_event_sort
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "metrics/event_sort.h"

namespace {

using servebench::metrics::SweepEvent;

std::vector<SweepEvent> run_events() {
  std::mt19937_64 rng(1);
  std::vector<SweepEvent> ev;
  double t = 0;
  for (int i = 0; i < 300'000; ++i) {
    t += double(rng() % 16'000);
    const double end = t + 30'000 + double(rng() % 20'000);
    ev.push_back({t, 1});
    ev.push_back({i % 8 == 0 ? end : end - double(rng() % 3), -1});  // reads end requests together
  }
  return ev;
}

void BM_SortSweepEvents(benchmark::State& state) {
  const std::vector<SweepEvent> base = run_events();
  std::vector<SweepEvent> ev;
  std::vector<SweepEvent> scratch;
  for (auto _ : state) {
    state.PauseTiming();
    ev = base;
    state.ResumeTiming();
    servebench::metrics::sort_sweep_events(&ev, &scratch);
    benchmark::DoNotOptimize(ev.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(base.size()));
}
BENCHMARK(BM_SortSweepEvents)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
