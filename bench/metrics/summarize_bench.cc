// Summary speed: summarize() over N records with 16 content chunks each (target: 1M records in
// < 2 s without inter-chunk latency), with inter-chunk latency included, and the JSONL writer.
// Summary memory: SummaryAccumulator::memory_bytes() after 100k streamed records of 1,000
// content chunks each (counters bytes_per_request, total_MiB).
//   build/bin/bench_metrics --benchmark_filter=Summarize
//   build/bin/bench_metrics --benchmark_filter=AccumulatorMemory
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "export/records_jsonl.h"
#include "metrics/summary.h"
#include "metrics/summary_accumulator.h"

namespace {

using servebench::record::Chunk;
using servebench::record::ChunkKind;
using servebench::record::RequestRecord;

// 16 content chunks per record carrying 1-2 tokens each (or exactly 1 with one_token).
const std::vector<RequestRecord>& records(size_t n, bool one_token = false) {
  static std::vector<RequestRecord> caches[2];
  std::vector<RequestRecord>& cache = caches[one_token ? 1 : 0];
  if (cache.size() == n) return cache;
  cache.clear();
  cache.reserve(n);
  std::mt19937_64 rng(1);
  int64_t t = 1'000'000'000;
  for (size_t i = 0; i < n; ++i) {
    RequestRecord r;
    r.request_index = i;
    r.streaming = true;
    r.intended_ns = t;
    r.request_start_ns = t + static_cast<int64_t>(rng() % 200'000);
    r.request_sent_ns = r.request_start_ns + 50'000;
    r.first_byte_ns = r.request_start_ns + 1'000'000;
    int64_t c = r.request_start_ns + 20'000'000 + static_cast<int64_t>(rng() % 30'000'000);
    r.chunks.reserve(18);
    r.chunks.push_back({r.first_byte_ns, 0, 0, ChunkKind::kEmpty, 0});
    for (int k = 0; k < 16; ++k) {
      r.chunks.push_back(
          {c, 0, 0, ChunkKind::kContent, one_token ? 1 : 1 + static_cast<int32_t>(rng() % 2)});
      c += 5'000'000 + static_cast<int64_t>(rng() % 10'000'000);
    }
    r.chunks.push_back({c, 0, 0, ChunkKind::kUsage, 0});
    r.end_ns = c + 100'000;
    r.input_tokens = 500 + static_cast<int64_t>(rng() % 500);
    r.output_tokens = 24;
    r.requested_output_tokens = 24;
    r.usage.prompt_tokens = r.input_tokens;
    r.usage.completion_tokens = 24;
    r.usage.total_tokens = r.input_tokens + 24;
    if (i % 100 == 7) r.error = servebench::record::ErrorKind::kHttpStatus;
    cache.push_back(std::move(r));
    t += 100'000;
  }
  return cache;
}

void run_summarize(benchmark::State& state, bool icl, bool one_token = false) {
  const auto& recs = records(static_cast<size_t>(state.range(0)), one_token);
  std::vector<const RequestRecord*> ptrs;
  for (const auto& r : recs) ptrs.push_back(&r);
  servebench::metrics::SummaryOptions o;
  o.inter_chunk_latency = icl;
  o.slos = *servebench::metrics::parse_goodput("time_to_first_token:40");
  for (auto _ : state) {
    auto s = servebench::metrics::summarize(ptrs, o);
    benchmark::DoNotOptimize(s.request_count);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_SummarizeNoIcl(benchmark::State& state) { run_summarize(state, false); }
void BM_SummarizeWithIcl(benchmark::State& state) { run_summarize(state, true); }
void BM_SummarizeWithIclOneTokenChunks(benchmark::State& state) {
  run_summarize(state, true, true);
}

// The profile_export.jsonl writer end to end (1 MiB buffered writes) into /dev/null.
void BM_RecordsJsonl(benchmark::State& state) {
  const auto& recs = records(static_cast<size_t>(state.range(0)));
  servebench::record::RunAnchor anchor{0, 1'700'000'000'000'000'000};
  std::string line;
  servebench::exporter::append_record_line(recs[0], anchor, &line);
  for (auto _ : state) {
    auto st = servebench::exporter::write_jsonl("/dev/null", recs, anchor, false);
    if (!st) state.SkipWithError(st.error().message.c_str());
  }
  state.counters["bytes_per_record"] = static_cast<double>(line.size());
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// One record of `chunks` content chunks (1 token each, 5-15 ms apart) added `n` times with
// shifted timestamps, so the accumulator sees n distinct requests while one record is alive.
void BM_AccumulatorMemory(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const int chunks = static_cast<int>(state.range(1));
  std::mt19937_64 rng(2);
  RequestRecord r;
  r.streaming = true;
  r.request_start_ns = 1'000'000'000;
  r.intended_ns = r.request_start_ns;
  r.request_sent_ns = r.request_start_ns + 50'000;
  r.first_byte_ns = r.request_start_ns + 1'000'000;
  int64_t c = r.request_start_ns + 30'000'000;
  r.chunks.push_back({r.first_byte_ns, 0, 0, ChunkKind::kEmpty, 0});
  for (int k = 0; k < chunks; ++k) {
    r.chunks.push_back({c, 0, 0, ChunkKind::kContent, 1});
    c += 5'000'000 + static_cast<int64_t>(rng() % 10'000'000);
  }
  r.end_ns = c;
  r.input_tokens = 1000;
  r.output_tokens = chunks;
  r.usage.prompt_tokens = 1000;
  r.usage.completion_tokens = chunks;
  r.usage.total_tokens = 1000 + chunks;
  size_t bytes = 0;
  for (auto _ : state) {
    servebench::metrics::SummaryAccumulator acc{servebench::metrics::SummaryOptions{}};
    RequestRecord cur = r;
    for (size_t i = 0; i < n; ++i) {
      const int64_t shift = static_cast<int64_t>(i) * 5'000'000;
      cur.request_start_ns = r.request_start_ns + shift;
      cur.intended_ns = r.intended_ns + shift;
      cur.request_sent_ns = r.request_sent_ns + shift;
      cur.first_byte_ns = r.first_byte_ns + shift;
      cur.end_ns = r.end_ns + shift;
      for (size_t k = 0; k < r.chunks.size(); ++k) cur.chunks[k].recv_ns = r.chunks[k].recv_ns + shift;
      acc.add(cur);
    }
    bytes = acc.memory_bytes();
    auto s = std::move(acc).finish();
    benchmark::DoNotOptimize(s.request_count);
  }
  state.counters["bytes_per_request"] = static_cast<double>(bytes) / static_cast<double>(n);
  state.counters["total_MiB"] = static_cast<double>(bytes) / (1 << 20);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_AccumulatorMemory)->Args({100'000, 1'000})->Unit(benchmark::kMillisecond)->Iterations(1)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_SummarizeNoIcl)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(3)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_SummarizeWithIcl)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(3)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_SummarizeWithIclOneTokenChunks)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(3)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_RecordsJsonl)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(1)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
