// Trace loading speed: parse a 1M-line mooncake trace (in memory) and report lines/s.
// Target (issue 6): >= 500k lines/s.
#include <benchmark/benchmark.h>

#include <string>

#include "core/rng.h"
#include "dataset/loaders/dataset_file.h"

namespace {

std::string make_mooncake(int lines) {
  servebench::core::Rng rng(7);
  std::string s;
  s.reserve(static_cast<size_t>(lines) * 90);
  int64_t ts = 0;
  for (int i = 0; i < lines; ++i) {
    ts += static_cast<int64_t>(rng.exponential(20));
    const int64_t il = 100 + static_cast<int64_t>(rng.next_below(4000));
    s += "{\"timestamp\": " + std::to_string(ts) + ", \"input_length\": " + std::to_string(il) +
         ", \"output_length\": " + std::to_string(1 + rng.next_below(500)) + ", \"hash_ids\": [";
    for (int64_t b = 0; b < (il + 511) / 512; ++b)
      s += (b ? ", " : "") + std::to_string(rng.next_below(100000));
    s += "]}\n";
  }
  return s;
}

void BM_LoadMooncake1M(benchmark::State& state) {
  const int lines = static_cast<int>(state.range(0));
  const std::string text = make_mooncake(lines);
  for (auto _ : state) {
    auto r = servebench::dataset::parse_dataset_text(text, servebench::dataset::FileFormat::kMooncakeTrace,
                                                     "bench.jsonl");
    if (!r) state.SkipWithError(r.error().message.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.counters["lines/s"] =
      benchmark::Counter(static_cast<double>(lines) * state.iterations(), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(text.size()) * state.iterations());
}
BENCHMARK(BM_LoadMooncake1M)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
