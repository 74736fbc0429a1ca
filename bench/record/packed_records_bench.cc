// Packing and unpacking the record of a short streamed chat completion (the hand-off from a
// worker to record processing, record/packed_records.h): per record, with 4,096 records per
// batch as in a run's flush.
//   build/bin/bench_packed_records
#include <benchmark/benchmark.h>

#include "record/packed_records.h"

namespace {

using servebench::record::Chunk;
using servebench::record::ChunkKind;
using servebench::record::PackedRecords;
using servebench::record::RequestRecord;

constexpr int kBatch = 4096;

RequestRecord chat_record(uint64_t index) {
  RequestRecord r;
  r.request_index = index;
  r.x_request_id = "0123456789abcdef-" + std::to_string(100'000'000'000 + index).substr(0, 12);
  r.x_correlation_id = r.x_request_id;
  r.model = "mock-model";
  r.request_start_ns = 7'000'000'000'000 + static_cast<int64_t>(index) * 9'000;
  r.intended_ns = r.credit_issued_ns = r.request_start_ns - 2'000;
  r.request_sent_ns = r.request_start_ns + 9'000;
  r.first_byte_ns = r.request_start_ns + 40'000;
  r.end_ns = r.response_complete_ns = r.request_start_ns + 41'000;
  r.response_reads = 1;
  r.request_writes = 1;
  r.http_status = 200;
  r.streaming = true;
  r.connection_reused = true;
  for (int k = 0; k < 5; ++k) {
    const bool text = k == 1 || k == 2;
    r.chunks.push_back(Chunk{r.first_byte_ns + k * 100, text && k == 2 ? 5u : 0u, text ? 5u : 0u,
                             text ? ChunkKind::kContent : ChunkKind::kEmpty, -1});
  }
  r.output_text = "helloworld";
  r.usage.prompt_tokens = 1;
  r.usage.completion_tokens = 2;
  r.usage.total_tokens = 3;
  r.finish_reason = "stop";
  r.request_bytes = 180;
  r.response_bytes = 700;
  r.input_tokens = 1;
  r.requested_output_tokens = 2;
  r.payload_index = 0;
  return r;
}

void BM_Pack(benchmark::State& state) {
  std::vector<RequestRecord> recs;
  for (int i = 0; i < kBatch; ++i) recs.push_back(chat_record(static_cast<uint64_t>(i)));
  PackedRecords packed;
  for (auto _ : state) {
    packed.clear();
    for (const auto& r : recs) packed.append(r);
    benchmark::DoNotOptimize(packed.bytes());
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.counters["bytes_per_record"] = static_cast<double>(packed.bytes()) / kBatch;
}
BENCHMARK(BM_Pack);

void BM_Unpack(benchmark::State& state) {
  PackedRecords packed;
  for (int i = 0; i < kBatch; ++i) packed.append(chat_record(static_cast<uint64_t>(i)));
  std::vector<RequestRecord> out(512);
  for (auto _ : state) {
    PackedRecords::Reader reader(packed);
    for (int i = 0; i < kBatch; ++i) reader.next(&out[static_cast<size_t>(i) % out.size()]);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_Unpack);

void BM_Reset(benchmark::State& state) {
  RequestRecord r = chat_record(1);
  for (auto _ : state) {
    servebench::record::reset_record(&r);
    benchmark::DoNotOptimize(&r);
  }
}
BENCHMARK(BM_Reset);

}  // namespace

BENCHMARK_MAIN();
