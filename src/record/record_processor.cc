#include "record/record_processor.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

#include "record/packed_records.h"
#include "record/pause_point.h"
#include "record/short_text_counts.h"

namespace servebench::record {

namespace {

// The tokenizer's count, through the thread's cache of short texts when there is one.
struct Counter {
  const tokenizer::Tokenizer& tok;
  ShortTextCounts* cache;
  size_t operator()(std::string_view text) const {
    return cache != nullptr ? cache->count(text) : tok.count(text);
  }
};

int64_t count_input_texts(const RequestRecord& rec, const Counter& count,
                          const CountOptions& options) {
  if (options.input_counter) {
    const int64_t n = options.input_counter(rec);
    if (n >= 0) return n;
  }
  int64_t n = 0;
  for (const auto& t : rec.input_texts) n += static_cast<int64_t>(count(t));
  return n;
}

}  // namespace

void count_tokens(RequestRecord* rec, const tokenizer::Tokenizer& tok, const CountOptions& options,
                  ShortTextCounts* cache) {
  const Counter count{tok, cache};
  const bool use_server_token_count = options.use_server_token_count;
  if (!options.per_chunk_usage) rec->usage.first_content_chunk_tokens = -1;
  for (auto& ch : rec->chunks) {
    if (ch.kind == ChunkKind::kEmpty || ch.kind == ChunkKind::kUsage || ch.text_bytes == 0) {
      ch.tokens = 0;
      continue;
    }
    const std::string& src = ch.kind == ChunkKind::kReasoning ? rec->reasoning_text : rec->output_text;
    if (static_cast<size_t>(ch.text_offset) + ch.text_bytes > src.size()) {
      ch.tokens = 0;  // defensive: a parser bug must not crash record processing
      continue;
    }
    ch.tokens = static_cast<int32_t>(count(std::string_view(src).substr(ch.text_offset, ch.text_bytes)));
  }
  if (rec->input_tokens < 0 && !rec->input_texts.empty()) {
    rec->input_tokens = count_input_texts(*rec, count, options);
    std::vector<std::string>().swap(rec->input_texts);  // the prompt text is not kept past counting
    std::vector<std::string>().swap(rec->input_roles);
  }
  rec->output_tokens = static_cast<int64_t>(count(rec->output_text));
  rec->reasoning_tokens = static_cast<int64_t>(count(rec->reasoning_text));
  if (use_server_token_count && rec->usage.present()) {
    if (rec->usage.prompt_tokens >= 0) rec->input_tokens = rec->usage.prompt_tokens;
    const int64_t reasoning = std::max<int64_t>(0, rec->usage.reasoning_tokens);
    rec->reasoning_tokens = reasoning;
    if (rec->usage.completion_tokens >= 0)
      rec->output_tokens = std::max<int64_t>(0, rec->usage.completion_tokens - reasoning);
  }
}

RecordProcessor::RecordProcessor(std::shared_ptr<const tokenizer::Tokenizer> tok, CountOptions options,
                                 int threads, BatchConsumer consumer)
    : tok_(std::move(tok)), options_(std::move(options)), consumer_(std::move(consumer)) {
  threads = std::max(1, threads);
  done_.resize(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this, i] { run(static_cast<size_t>(i)); });
}

RecordProcessor::~RecordProcessor() {
  if (!threads_.empty()) finish();
}

void RecordProcessor::submit(PackedRecords&& batch) {
  if (batch.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(batch));
  }
  cv_.notify_one();
}

void RecordProcessor::submit(const std::vector<RequestRecord>& batch) {
  PackedRecords packed;
  for (const auto& r : batch) packed.append(r);
  submit(std::move(packed));
}

PackedRecords RecordProcessor::spare_batch() {
  std::lock_guard<std::mutex> lock(mu_);
  if (spares_.empty()) return {};
  PackedRecords v = std::move(spares_.back());
  spares_.pop_back();
  return v;
}

void RecordProcessor::keep_spare(PackedRecords&& batch) {
  // A few spares cover the workers' alternation; one from a burst (a huge catch-up batch) is not
  // worth pinning for the rest of the run.
  constexpr size_t kMaxSpares = 4;
  constexpr size_t kMaxSpareBytes = size_t{16} << 20;
  batch.clear();
  if (batch.capacity_bytes() > kMaxSpareBytes) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (spares_.size() < kMaxSpares) spares_.push_back(std::move(batch));
}

void RecordProcessor::count(RequestRecord* rec, size_t slot, ShortTextCounts* cache) const {
  pause_point();
  count_tokens(rec, *tok_, options_, cache);
  rec->processor_slot = static_cast<uint8_t>(slot);
}

void RecordProcessor::run(size_t slot) {
  // Lower this thread's priority: token counting must not delay a worker's timestamps. Under a
  // real-time policy (servebench started with chrt) a nice value means nothing and a FIFO thread
  // is never preempted by its equals, so first leave the real-time class.
  if (sched_getscheduler(0) == SCHED_FIFO || sched_getscheduler(0) == SCHED_RR) {
    sched_param normal{};
    normal.sched_priority = 0;
    pthread_setschedparam(pthread_self(), SCHED_OTHER, &normal);
  }
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
  ShortTextCounts cache(*tok_);
  // The consumer's per-record work (record_stream.cc) ticks the same pacer.
  PausePacer pacer(kPauseIntervalNs, pause_clock_ns, pause_yield);
  ScopedPausePacer paced(&pacer);
  // Unpacked a few hundred at a time into the same records, whose strings and chunk lists keep
  // their capacity, and which stay in cache from unpacking through the consumer.
  constexpr size_t kUnpackRecords = 512;
  std::vector<RequestRecord> records;
  for (;;) {
    PackedRecords batch;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return closing_ || !queue_.empty(); });
      if (queue_.empty()) return;
      batch = std::move(queue_.front());
      queue_.pop_front();
    }
    PackedRecords::Reader reader(batch);
    if (!consumer_) {
      auto& out = done_[slot];
      while (reader.next(&out.emplace_back())) count(&out.back(), slot, &cache);
      out.pop_back();
      continue;
    }
    for (size_t left = batch.size(); left > 0;) {
      records.resize(std::min(left, kUnpackRecords));
      for (auto& rec : records) {
        reader.next(&rec);
        count(&rec, slot, &cache);
      }
      left -= records.size();
      consumer_(records, slot);
      for (auto& rec : records) release_large_buffers(&rec);  // the next piece reuses them
    }
    keep_spare(std::move(batch));
  }
}

std::vector<RequestRecord> RecordProcessor::finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closing_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
  std::vector<RequestRecord> all;
  size_t n = 0;
  for (const auto& d : done_) n += d.size();
  all.reserve(n);
  for (auto& d : done_) {
    all.insert(all.end(), std::make_move_iterator(d.begin()), std::make_move_iterator(d.end()));
    d.clear();
  }
  std::sort(all.begin(), all.end(), [](const RequestRecord& a, const RequestRecord& b) {
    if (a.phase != b.phase) return a.phase < b.phase;
    return a.request_index < b.request_index;
  });
  return all;
}

}  // namespace servebench::record
