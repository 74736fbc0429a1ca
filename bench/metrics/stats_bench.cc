// Exact summary statistics of one metric column (metrics/stats.h compute_stats: sum, min, max,
// std and nine exact percentiles by multi-selection) for a 300,000-request run: a latency-like
// column (lognormal, continuous), a token-count-like one (few distinct whole values), and a
// nearly sorted one (request start times).
//   build/bin/bench_stats
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "metrics/stats.h"

namespace {

std::vector<double> column(int kind) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> latency(3.5, 0.6);
  std::vector<double> v;
  for (int i = 0; i < 300'000; ++i) {
    if (kind == 0) v.push_back(latency(rng));
    if (kind == 1) v.push_back(double(90 + rng() % 21));
    if (kind == 2) v.push_back(double(i) * 7.3 + double(rng() % 50));
  }
  return v;
}

void BM_ComputeStats(benchmark::State& state) {
  const std::vector<double> base = column(static_cast<int>(state.range(0)));
  std::vector<double> v;
  for (auto _ : state) {
    state.PauseTiming();
    v = base;
    state.ResumeTiming();
    using servebench::metrics::PercentileMethod;
    benchmark::DoNotOptimize(servebench::metrics::compute_stats(v, PercentileMethod::kLinear));
  }
}
BENCHMARK(BM_ComputeStats)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
