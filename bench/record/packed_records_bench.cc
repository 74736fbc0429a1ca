// Packing and unpacking the record of a short streamed chat completion
// (tests/unit/record/short_chat_record.h; the hand-off from a worker to record processing,
// record/packed_records.h): per record, with 4,096 records per batch as in a run's flush.
//   build/bin/bench_packed_records
#include <benchmark/benchmark.h>

#include "record/packed_records.h"
#include "unit/record/short_chat_record.h"

namespace {

using servebench::record::PackedRecords;
using servebench::record::RequestRecord;

constexpr int kBatch = 4096;

RequestRecord chat_record(uint64_t index) { return servebench::testing::short_chat_record(index); }

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
