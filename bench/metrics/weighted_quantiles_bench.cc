// The sweep rows' duration-weighted quantiles on 600,000 segments (a 300,000-request run's
// curve): the bucketed selection against the recursive reference, for a concurrency-like curve
// (whole values, 90 % of segments at the top one) and a rate-like one (continuous, skewed).
//   build/bin/bench_weighted_quantiles
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "metrics/weighted_quantiles.h"

namespace {

using servebench::metrics::WeightedSegment;

std::vector<WeightedSegment> curve(bool rates, double* total) {
  std::mt19937_64 rng(1);
  std::lognormal_distribution<double> rate(-9, 1.5);
  std::vector<WeightedSegment> seg;
  *total = 0;
  for (size_t i = 0; i < 600'000; ++i) {
    const double v = rates ? rate(rng) : (rng() % 10 == 0 ? double(rng() % 64) : 64.0);
    const double d = double(1 + rng() % 20'000);
    seg.emplace_back(v, d);
    *total += d;
  }
  return seg;
}

template <bool kRates, bool kReference>
void BM_WeightedQuantiles(benchmark::State& state) {
  double total = 0;
  const std::vector<WeightedSegment> base = curve(kRates, &total);
  const double q[] = {0.50, 0.90, 0.95, 0.99};
  double out[4];
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<WeightedSegment> seg = base;
    state.ResumeTiming();
    if (kReference) {
      servebench::metrics::reference_weighted_quantiles(&seg, total, q, out, 4);
    } else {
      servebench::metrics::weighted_quantiles(&seg, total, q, out, 4);
    }
    benchmark::DoNotOptimize(out);
  }
}

BENCHMARK(BM_WeightedQuantiles<false, false>)->Name("concurrency/bucketed")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeightedQuantiles<false, true>)->Name("concurrency/reference")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeightedQuantiles<true, false>)->Name("rates/bucketed")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WeightedQuantiles<true, true>)->Name("rates/reference")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
