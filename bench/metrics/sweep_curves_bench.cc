// Building the seven sweep curves of a 300,000-request run (metrics/sweep_curves.h; each curve's
// events collected and bucket-sorted). Records as a closed loop at concurrency 64 against an
// instant server gives them: starts ~10 µs apart, first token 20-60 µs later, one inter-chunk
// gap, and shared read times. (A merge of the records' start, first-token and end orders in
// place of the sorts measured slower here: 168 against 145 ms.)
//   build/bin/bench_sweep_curves
#include <benchmark/benchmark.h>

#include <random>

#include "metrics/sweep_curves.h"

namespace {

using namespace servebench::metrics;

SweepData run_data() {
  std::mt19937_64 rng(5);
  SweepData d;
  int64_t t = 1'000'000'000;
  for (int i = 0; i < 300'000; ++i) {
    t += 5'000 + static_cast<int64_t>(rng() % 10'000);
    SweepRecord r;
    r.start_ns = t;
    r.first_ns = t + 20'000 + static_cast<int64_t>(rng() % 40'000);
    const double gap = double(100 + rng() % 900);
    r.end_ns = r.first_ns + static_cast<int64_t>(gap);
    if (i % 8 == 0 && !d.records.empty()) r.end_ns = d.records.back().end_ns;  // a shared read
    r.isl = 1;
    r.osl = 2;
    r.gap_begin = d.gaps.size();
    r.gap_count = 1;
    d.gaps.push_back(gap);
    d.records.push_back(r);
  }
  return d;
}

constexpr sweep::Curve kCurves[] = {sweep::Curve::kDecode,  sweep::Curve::kDecodeConc,
                                    sweep::Curve::kPrefill, sweep::Curve::kPrefillConc,
                                    sweep::Curve::kConc,    sweep::Curve::kTotal,
                                    sweep::Curve::kTokens};

void BM_SevenCurves(benchmark::State& state) {
  const SweepData d = run_data();
  for (auto _ : state) {
    sweep::EventScratch scratch;
    for (sweep::Curve c : kCurves) {
      const sweep::Step s = sweep::build_curve(d, 0, c, &scratch);
      benchmark::DoNotOptimize(s.vals.data());
    }
  }
}
BENCHMARK(BM_SevenCurves)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
