// Record processing: token counting for finished requests, off the workers' threads.
//
// Workers hand over batches of finished records, packed (record/packed_records.h; one hand-off
// per batch, every ~100 ms, never per request); processor threads (lowered priority so they do
// not disturb the workers' timestamps, and a yield of their core every 50 µs of work:
// record/pause_point.h) fill output_tokens, reasoning_tokens and Chunk::tokens with the run's
// tokenizer, or take them from the server's `usage` under --use-server-token-count.
//
// Two modes. With a BatchConsumer (a run: record_stream.h writes the JSONL lines and feeds the
// summary accumulators), each batch is unpacked a few hundred records at a time into records the
// thread reuses, counted, and handed to the consumer on that thread: the next piece overwrites
// them (a reused record keeps only buffers under 64 KiB, record::release_large_buffers), and
// finish() returns nothing. Without one (tests, tools), finish() joins the threads and returns
// every record in (phase, request_index) order.
//
// Token rule (AIPerf): output text (content + tool-call text) concatenated and encoded once,
// without special tokens; reasoning text counted separately. Chunk::tokens counts each chunk's
// own text (used for per-token inter-chunk figures). With --use-server-token-count:
// input = usage.prompt_tokens, reasoning = usage.reasoning_tokens (0 when absent),
// output = usage.completion_tokens − reasoning; records without usage keep the client counts.
//
// Batch buffers are recycled: with a consumer, a processed batch is emptied and kept, up to a
// few, for spare_batch(), so a worker's next batch reuses memory that is already mapped (a fresh
// buffer costs a page fault per 4 KiB of it, docs/performance.md).
//
// Thread safety: submit() and spare_batch() from any thread; finish() once, from the owning
// thread. The consumer
// runs on the processor threads, up to `threads` calls at once, each with its own slot.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "record/packed_records.h"
#include "record/request_record.h"
#include "tokenizer/tokenizer.h"

namespace servebench::record {

// How a run counts: server usage or the client tokenizer, per-chunk usage, and the count of
// prompts known only at send time (RequestRecord::input_texts/input_roles).
struct CountOptions {
  bool use_server_token_count = false;
  // --per-chunk-usage: keep Usage::first_content_chunk_tokens (cleared otherwise).
  bool per_chunk_usage = false;
  // Tokens of a record's send-time prompt (e.g. through the model's chat template); -1 falls back
  // to the sum of each text's count. Null = that sum. Called on the processor threads: must be
  // thread-safe.
  std::function<int64_t(const RequestRecord&)> input_counter;
};

class ShortTextCounts;

// Counts tokens of one record (pure; used by the processor threads and by tests). With `cache`
// (for `tok`, owned by the calling thread) short texts are counted through it: same counts.
void count_tokens(RequestRecord* rec, const tokenizer::Tokenizer& tok, const CountOptions& options,
                  ShortTextCounts* cache = nullptr);
inline void count_tokens(RequestRecord* rec, const tokenizer::Tokenizer& tok,
                         bool use_server_token_count) {
  CountOptions o;
  o.use_server_token_count = use_server_token_count;
  count_tokens(rec, tok, o);
}

// Receives each token-counted batch; `slot` (< threads) is the calling processor thread's index.
using BatchConsumer = std::function<void(const std::vector<RequestRecord>& batch, size_t slot)>;

class RecordProcessor {
 public:
  RecordProcessor(std::shared_ptr<const tokenizer::Tokenizer> tok, CountOptions options,
                  int threads, BatchConsumer consumer = nullptr);
  ~RecordProcessor();
  RecordProcessor(const RecordProcessor&) = delete;
  RecordProcessor& operator=(const RecordProcessor&) = delete;

  void submit(PackedRecords&& batch);
  // Packs and submits (tests, tools).
  void submit(const std::vector<RequestRecord>& batch);
  // An empty batch with the buffer of an earlier one when one is kept, else an empty one
  // without a buffer.
  PackedRecords spare_batch();
  // Drains the queue, joins the threads, returns all records sorted by (phase, request_index)
  // (empty with a consumer: it has had them).
  std::vector<RequestRecord> finish();

 private:
  void run(size_t slot);
  void count(RequestRecord* rec, size_t slot, ShortTextCounts* cache) const;
  void keep_spare(PackedRecords&& batch);

  std::shared_ptr<const tokenizer::Tokenizer> tok_;
  const CountOptions options_;
  const BatchConsumer consumer_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<PackedRecords> queue_;
  bool closing_ = false;
  std::vector<std::vector<RequestRecord>> done_;  // one output vector per thread
  std::vector<PackedRecords> spares_;  // emptied batches, under mu_
  std::vector<std::thread> threads_;
};

}  // namespace servebench::record
