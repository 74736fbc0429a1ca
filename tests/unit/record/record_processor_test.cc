#include "record/record_processor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>

namespace servebench::record {
namespace {

std::shared_ptr<const tokenizer::Tokenizer> simple() { return *tokenizer::load_tokenizer("simple"); }

void add_chunk(RequestRecord* r, ChunkKind kind, const std::string& text) {
  std::string& dst = kind == ChunkKind::kReasoning ? r->reasoning_text : r->output_text;
  Chunk c;
  c.kind = kind;
  c.text_offset = static_cast<uint32_t>(dst.size());
  c.text_bytes = static_cast<uint32_t>(text.size());
  dst += text;
  r->chunks.push_back(c);
}

RequestRecord sample() {
  RequestRecord r;
  add_chunk(&r, ChunkKind::kEmpty, "");
  add_chunk(&r, ChunkKind::kReasoning, "let me think ");
  add_chunk(&r, ChunkKind::kContent, "the whale ");
  add_chunk(&r, ChunkKind::kContent, "swims far away");
  add_chunk(&r, ChunkKind::kUsage, "");
  r.input_tokens = 7;
  return r;
}

TEST(CountTokens, ClientTokenizerCountsOutputReasoningAndChunks) {
  auto r = sample();
  count_tokens(&r, *simple(), false);
  EXPECT_EQ(r.output_tokens, 5);
  EXPECT_EQ(r.reasoning_tokens, 3);
  ASSERT_EQ(r.chunks.size(), 5u);
  EXPECT_EQ(r.chunks[0].tokens, 0);
  EXPECT_EQ(r.chunks[1].tokens, 3);
  EXPECT_EQ(r.chunks[2].tokens, 2);
  EXPECT_EQ(r.chunks[3].tokens, 3);
  EXPECT_EQ(r.chunks[4].tokens, 0);
  EXPECT_EQ(r.input_tokens, 7);  // known before t0, untouched
}

TEST(CountTokens, ServerCountsReplaceClientCountsWhenPresent) {
  auto r = sample();
  r.usage.prompt_tokens = 40;
  r.usage.completion_tokens = 30;
  r.usage.reasoning_tokens = 12;
  count_tokens(&r, *simple(), true);
  EXPECT_EQ(r.input_tokens, 40);
  EXPECT_EQ(r.output_tokens, 18);
  EXPECT_EQ(r.reasoning_tokens, 12);
  // Without usage the client counts stay.
  auto q = sample();
  count_tokens(&q, *simple(), true);
  EXPECT_EQ(q.output_tokens, 5);
  EXPECT_EQ(q.input_tokens, 7);
}

TEST(CountTokens, FirstChunkUsageKeptOnlyWhenAskedFor) {
  auto r = sample();
  r.usage.first_content_chunk_tokens = 2;
  auto q = r;
  CountOptions o;
  o.use_server_token_count = true;
  count_tokens(&r, *simple(), o);
  EXPECT_EQ(r.usage.first_content_chunk_tokens, -1);
  o.per_chunk_usage = true;
  count_tokens(&q, *simple(), o);
  EXPECT_EQ(q.usage.first_content_chunk_tokens, 2);
}

// Send-time prompts go to the input counter with their roles; -1 from it falls back to the sum.
TEST(CountTokens, InputCounterSeesRolesAndTextsAndMayDecline) {
  RequestRecord r;
  r.input_texts = {"be brief", "hello there world"};
  r.input_roles = {"system", "user"};
  CountOptions o;
  std::vector<std::string> seen;
  o.input_counter = [&](const RequestRecord& rec) -> int64_t {
    seen = rec.input_roles;
    return rec.input_texts.size() == 2 ? 42 : -1;
  };
  auto q = r;
  count_tokens(&r, *simple(), o);
  EXPECT_EQ(r.input_tokens, 42);
  EXPECT_EQ(seen, (std::vector<std::string>{"system", "user"}));
  EXPECT_TRUE(r.input_texts.empty());
  EXPECT_TRUE(r.input_roles.empty());
  q.input_texts.push_back("x");
  count_tokens(&q, *simple(), o);
  EXPECT_EQ(q.input_tokens, 6);  // the counter declined: 2 + 3 + 1 words
}

TEST(CountTokens, BadChunkOffsetsDoNotCrash) {
  RequestRecord r;
  Chunk c;
  c.kind = ChunkKind::kContent;
  c.text_offset = 100;
  c.text_bytes = 5;
  r.chunks.push_back(c);
  count_tokens(&r, *simple(), false);
  EXPECT_EQ(r.chunks[0].tokens, 0);
}

TEST(RecordProcessor, BatchesFromManyThreadsComeBackCountedAndOrdered) {
  RecordProcessor proc(simple(), CountOptions{}, 3);
  std::vector<std::thread> producers;
  for (int w = 0; w < 4; ++w) {
    producers.emplace_back([&proc, w] {
      for (int b = 0; b < 10; ++b) {
        std::vector<RequestRecord> batch;
        for (int k = 0; k < 25; ++k) {
          auto r = sample();
          r.request_index = static_cast<uint64_t>(((b * 25 + k) * 4) + w);
          r.phase = (r.request_index % 7 == 0) ? Phase::kWarmup : Phase::kProfiling;
          batch.push_back(std::move(r));
        }
        proc.submit(std::move(batch));
      }
    });
  }
  for (auto& t : producers) t.join();
  auto all = proc.finish();
  ASSERT_EQ(all.size(), 1000u);
  for (size_t i = 1; i < all.size(); ++i) {
    const bool ordered = all[i - 1].phase < all[i].phase ||
                         (all[i - 1].phase == all[i].phase && all[i - 1].request_index < all[i].request_index);
    ASSERT_TRUE(ordered) << i;
  }
  for (const auto& r : all) ASSERT_EQ(r.output_tokens, 5);
  EXPECT_EQ(all.front().phase, Phase::kWarmup);
}

TEST(RecordProcessor, ConsumerSeesEveryCountedBatchOnItsSlotAndNothingIsKept) {
  std::mutex mu;
  std::set<uint64_t> seen;
  std::set<size_t> slots;
  bool all_counted = true;
  RecordProcessor proc(simple(), CountOptions{}, 2, [&](const std::vector<RequestRecord>& batch, size_t slot) {
    std::lock_guard<std::mutex> lock(mu);
    slots.insert(slot);
    for (const auto& r : batch) {
      seen.insert(r.request_index);
      all_counted &= r.output_tokens == 5 && r.reasoning_tokens == 3 && r.chunks[2].tokens == 2;
    }
  });
  for (int b = 0; b < 20; ++b) {
    std::vector<RequestRecord> batch;
    for (int k = 0; k < 10; ++k) {
      auto r = sample();
      r.request_index = static_cast<uint64_t>(b * 10 + k);
      batch.push_back(std::move(r));
    }
    proc.submit(std::move(batch));
  }
  EXPECT_TRUE(proc.finish().empty());  // the consumer had them; none is held
  EXPECT_EQ(seen.size(), 200u);
  EXPECT_TRUE(all_counted);
  for (size_t s : slots) EXPECT_LT(s, 2u);
}

// Processed batches come back empty with their buffer (a worker's next batch reuses mapped
// memory), a few at most; without a consumer nothing is recycled.
TEST(RecordProcessor, ProcessedBatchesAreRecycledEmptyWithTheirBuffer) {
  RecordProcessor proc(simple(), CountOptions{}, 1, [](const std::vector<RequestRecord>&, size_t) {});
  EXPECT_EQ(proc.spare_batch().capacity_bytes(), 0u);  // none yet
  PackedRecords one_batch;
  for (int k = 0; k < 300; ++k) one_batch.append(sample());
  for (int b = 0; b < 8; ++b) {
    PackedRecords batch = one_batch;
    proc.submit(std::move(batch));
  }
  EXPECT_TRUE(proc.finish().empty());  // joins: every batch has been processed
  size_t spares = 0;
  for (PackedRecords v = proc.spare_batch(); v.capacity_bytes() > 0; v = proc.spare_batch()) {
    EXPECT_TRUE(v.empty());
    EXPECT_EQ(v.bytes(), 0u);
    EXPECT_GE(v.capacity_bytes(), one_batch.bytes());
    ++spares;
  }
  EXPECT_GE(spares, 1u);
  EXPECT_LE(spares, 4u);

  RecordProcessor keeps_all(simple(), CountOptions{}, 1);
  keeps_all.submit(std::vector<RequestRecord>(5, sample()));
  EXPECT_EQ(keeps_all.finish().size(), 5u);
  EXPECT_EQ(keeps_all.spare_batch().capacity_bytes(), 0u);
}

// A large batch reaches the consumer in pieces of at most a few hundred records, unpacked into
// reused records: each one it sees is exactly the record submitted, counted, whatever the record
// before it in the same slot held.
TEST(RecordProcessor, ConsumerSeesEachRecordOfALargeBatchExactlyAsSubmittedAndCounted) {
  std::vector<RequestRecord> submitted;
  for (int k = 0; k < 1300; ++k) {
    RequestRecord r = sample();
    r.request_index = static_cast<uint64_t>(k);
    if (k % 3 == 0) {
      r.error = ErrorKind::kHttpStatus;
      r.error_message = "HTTP 500: " + std::string(static_cast<size_t>(k % 50), 'e');
      r.chunks.clear();
      r.output_text.clear();
      r.reasoning_text.clear();
    }
    if (k % 5 == 0) r.input_texts = {"a prompt of six words here", "and two"};
    if (k % 5 == 0) r.input_tokens = -1;
    submitted.push_back(r);
  }
  std::vector<RequestRecord> seen;
  size_t largest_piece = 0;
  RecordProcessor proc(simple(), CountOptions{}, 1, [&](const std::vector<RequestRecord>& batch, size_t) {
    largest_piece = std::max(largest_piece, batch.size());
    seen.insert(seen.end(), batch.begin(), batch.end());
  });
  proc.submit(submitted);
  proc.finish();
  ASSERT_EQ(seen.size(), submitted.size());
  EXPECT_LE(largest_piece, 512u);
  EXPECT_GT(largest_piece, 1u);
  for (size_t i = 0; i < seen.size(); ++i) {
    RequestRecord expected = submitted[i];
    count_tokens(&expected, *simple(), false);
    expected.processor_slot = 0;
    ASSERT_TRUE(seen[i] == expected) << "record " << i;
  }
  EXPECT_EQ(seen[5].input_tokens, 8);  // counted from its prompt texts, which are then dropped
  EXPECT_TRUE(seen[5].input_texts.empty());
}

}  // namespace
}  // namespace servebench::record
