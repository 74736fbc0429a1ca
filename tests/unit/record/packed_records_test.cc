#include "record/packed_records.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "unit/record/short_chat_record.h"

namespace servebench::record {
namespace {

// Every field away from its default (a field added to RequestRecord must be set here too: the
// size check in packed_records.cc points to this test).
RequestRecord full_record() {
  RequestRecord r;
  r.request_index = 123456789;
  r.x_request_id = "7f3a-request-id-0000000000001";
  r.x_correlation_id = "session-42";
  r.conversation_id = "conv-9";
  r.session_num = 42;
  r.turn_index = 3;
  r.worker_id = 5;
  r.url_index = 2;
  r.phase = Phase::kWarmup;
  r.phase_index = 1;
  r.processor_slot = 7;
  r.model = "mock-model-with-a-long-name";
  r.request_start_ns = 5'000'000'000'123;
  r.intended_ns = 4'999'999'000'000;  // before the start: a negative difference
  r.credit_issued_ns = 4'999'999'500'000;
  r.request_sent_ns = 5'000'000'010'000;
  r.first_byte_ns = 5'000'001'000'000;
  r.end_ns = 5'000'900'000'000;
  r.response_complete_ns = 5'000'899'000'000;
  r.cancel_ns = 5'000'800'000'000;
  r.conn_start_ns = 5'000'000'000'200;
  r.dns_done_ns = 5'000'000'000'300;
  r.connected_ns = 5'000'000'000'400;
  r.tls_done_ns = 5'000'000'000'500;
  r.response_reads = 17;
  r.request_writes = 2;
  r.cancel_reason = CancelReason::kRate;
  r.http_status = 503;
  r.streaming = true;
  r.chunks = {Chunk{5'000'001'000'000, 0, 4, ChunkKind::kContent, 1},
              Chunk{0, 0, 0, ChunkKind::kEmpty, -1},  // a time of 0 between two others
              Chunk{5'000'000'999'000, 0, 9, ChunkKind::kReasoning, 3},  // earlier than the last
              Chunk{5'000'002'000'000, 4, 7, ChunkKind::kToolCall, 2},
              Chunk{5'000'003'000'000, 11, 0, ChunkKind::kUsage, 0}};
  r.output_text = "the whale swims";
  r.reasoning_text = "I think so";
  Usage& u = r.usage;
  u.spec_draft_tokens = 11;
  u.spec_accepted_tokens = 12;
  u.spec_steps = 13;
  u.prompt_tokens = 14;
  u.completion_tokens = 15;
  u.total_tokens = 29;
  u.reasoning_tokens = 16;
  u.prompt_cache_read_tokens = 17;
  u.prompt_cache_write_tokens = 18;
  u.prompt_cache_miss_tokens = 19;
  u.prompt_audio_tokens = 20;
  u.completion_audio_tokens = 21;
  u.accepted_prediction_tokens = 22;
  u.rejected_prediction_tokens = 23;
  u.tool_use_prompt_tokens = 24;
  u.prompt_audio_seconds = 2.5;
  u.first_content_chunk_tokens = 1;
  r.finish_reason = "length";
  r.output_items = 4;
  r.video_inference_s = 12.75;
  r.video_peak_memory_mb = 0.0;
  r.request_bytes = 1'234'567;
  r.response_bytes = 7'654'321;
  r.connection_reused = true;
  r.error = ErrorKind::kHttpStatus;
  r.error_message = "HTTP 503: overloaded";
  r.input_tokens = 0;
  r.requested_output_tokens = 1000;
  r.input_images = 3;
  r.prefix_hit_blocks = 6;
  r.prefix_total_blocks = 8;
  r.payload_index = 0;
  r.input_texts = {"You are helpful.", "", std::string(300, 'x')};
  r.input_roles = {"system", "user", "user"};
  r.request_body = R"({"model":"m","messages":[]})";
  r.output_tokens = 5;
  r.reasoning_tokens = 0;
  return r;
}

std::vector<RequestRecord> unpack(const PackedRecords& packed) {
  std::vector<RequestRecord> out;
  PackedRecords::Reader reader(packed);
  for (RequestRecord r; reader.next(&r);) out.push_back(r);
  return out;
}

TEST(PackedRecords, EveryFieldRoundTrips) {
  const RequestRecord full = full_record();
  ASSERT_FALSE(full == RequestRecord{});
  PackedRecords packed;
  packed.append(full);
  packed.append(RequestRecord{});
  EXPECT_EQ(packed.size(), 2u);
  const auto back = unpack(packed);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(back[0] == full);
  EXPECT_TRUE(back[1] == RequestRecord{});
}

// The containers and the rarely set values, one by one (clearer failures than the whole record).
TEST(PackedRecords, TheFullRecordsContainersComeBackElementByElement) {
  const RequestRecord full = full_record();
  PackedRecords packed;
  packed.append(full);
  RequestRecord back;
  PackedRecords::Reader reader(packed);
  ASSERT_TRUE(reader.next(&back));
  EXPECT_EQ(back.x_correlation_id, "session-42");
  EXPECT_EQ(back.chunks, full.chunks);
  EXPECT_TRUE(back.usage == full.usage);
  EXPECT_EQ(back.video_peak_memory_mb, 0.0);
  EXPECT_EQ(back.input_texts, full.input_texts);
  EXPECT_EQ(back.input_roles, full.input_roles);
  EXPECT_FALSE(reader.next(&back));
}

// A fresh batch reserves exactly the bound append() computes for the record: a bound that
// undercounts any string, text list or chunk list lets the record run past the buffer.
TEST(PackedRecords, TheSizeBoundCoversEveryStringAndList) {
  RequestRecord r = full_record();
  r.x_request_id = std::string(70'000, 'i');
  r.x_correlation_id = std::string(70'000, 'c');
  r.model = std::string(70'000, 'm');
  r.output_text = std::string(70'000, 'o');
  r.reasoning_text = std::string(70'000, 'r');
  r.error_message = std::string(70'000, 'e');
  r.request_body = std::string(70'000, 'b');
  r.input_texts.assign(50, std::string(2'000, 't'));
  r.input_roles.assign(50, std::string(2'000, 'u'));
  r.chunks.assign(20'000, Chunk{-1, UINT32_MAX, UINT32_MAX, ChunkKind::kToolCall, INT32_MIN});
  PackedRecords packed;
  packed.append(r);
  EXPECT_LE(packed.bytes(), packed.capacity_bytes());
  const auto back = unpack(packed);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0] == r);
}

TEST(PackedRecords, ExtremeValuesRoundTrip) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  RequestRecord r;
  r.request_index = std::numeric_limits<uint64_t>::max();
  r.request_start_ns = kMax;
  r.intended_ns = kMin;
  r.end_ns = 1;
  r.first_byte_ns = -1;
  r.chunks = {Chunk{kMin, std::numeric_limits<uint32_t>::max(), 0, ChunkKind::kContent, -1},
              Chunk{kMax, 0, std::numeric_limits<uint32_t>::max(), ChunkKind::kContent,
                    std::numeric_limits<int32_t>::min()}};
  r.input_tokens = kMin;
  r.requested_output_tokens = kMax;
  r.http_status = std::numeric_limits<int32_t>::max();
  r.usage.prompt_audio_seconds = -0.0;
  r.video_inference_s = std::numeric_limits<double>::infinity();
  r.x_correlation_id = "";  // differs from a non-empty request id
  r.x_request_id = "id";
  PackedRecords packed;
  packed.append(r);
  const auto back = unpack(packed);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0] == r);
  EXPECT_TRUE(std::signbit(back[0].usage.prompt_audio_seconds));

  // From a start of 0, a time whose difference is the most negative one; and a time equal to
  // the start (the code a zero time takes).
  RequestRecord z;
  z.intended_ns = kMin;
  z.end_ns = 0;
  z.first_byte_ns = 5;
  z.request_start_ns = 5;
  z.request_sent_ns = 0;
  z.chunks = {Chunk{5, 0, 0, ChunkKind::kEmpty, -1}, Chunk{0, 0, 0, ChunkKind::kEmpty, -1},
              Chunk{kMin, 0, 0, ChunkKind::kEmpty, -1}};
  PackedRecords again;
  again.append(z);
  const auto z_back = unpack(again);
  ASSERT_EQ(z_back.size(), 1u);
  EXPECT_TRUE(z_back[0] == z);
}

// The reader overwrites every field: a small record read into one that held a large one is
// exactly the small record.
TEST(PackedRecords, ReadingIntoAUsedRecordLeavesNothingBehind) {
  PackedRecords packed;
  RequestRecord small;
  small.x_request_id = "a";
  small.x_correlation_id = "a";
  small.chunks = {Chunk{9, 0, 1, ChunkKind::kContent, -1}};
  small.output_text = "x";
  packed.append(small);
  RequestRecord target = full_record();
  PackedRecords::Reader reader(packed);
  ASSERT_TRUE(reader.next(&target));
  EXPECT_TRUE(target == small);
}

TEST(PackedRecords, ResetRecordRestoresDefaultsAndKeepsCapacity) {
  RequestRecord r = full_record();
  r.output_text.assign(1000, 'y');
  r.chunks.resize(100);
  const size_t text_capacity = r.output_text.capacity();
  const size_t chunk_capacity = r.chunks.capacity();
  reset_record(&r);
  EXPECT_TRUE(r == RequestRecord{});
  EXPECT_EQ(r.output_text.capacity(), text_capacity);
  EXPECT_EQ(r.chunks.capacity(), chunk_capacity);
}

// A reused record keeps small buffers and lets go of large ones (one huge response must not stay
// held for the rest of a run).
TEST(PackedRecords, ReleaseLargeBuffersFreesOnlyWhatGrewPastTheLimit) {
  RequestRecord r;
  r.output_text.assign(100, 'a');
  r.reasoning_text.assign(5000, 'b');
  r.chunks.resize(100);
  r.input_texts = {std::string(3000, 'c'), std::string(3000, 'd')};
  r.request_body.assign(10, 'e');
  const size_t kept_text = r.output_text.capacity();
  release_large_buffers(&r, 4096);
  EXPECT_EQ(r.output_text.capacity(), kept_text);  // 100 bytes: kept
  EXPECT_EQ(r.reasoning_text.capacity(), std::string().capacity());  // 5,000: freed
  EXPECT_GE(r.chunks.capacity(), 100u);  // 2,400 bytes: kept
  EXPECT_EQ(r.input_texts.capacity(), 0u);  // 6,000 together: freed
  EXPECT_EQ(r.request_body.size(), 10u);  // contents below the limit stay as they are
  r.chunks.resize(200);
  release_large_buffers(&r, 4096);
  EXPECT_EQ(r.chunks.capacity(), 0u);  // 4,800 bytes: freed
}

// The point of packing: a short streamed chat record is a fraction of the 760-byte struct it
// replaces in the queue.
TEST(PackedRecords, AShortChatRecordPacksSmall) {
  const RequestRecord r = testing::short_chat_record(250'000);
  PackedRecords packed;
  packed.append(r);
  const size_t bytes = packed.bytes();
  EXPECT_LE(bytes, 150u);  // 134 when written
  packed.clear();
  EXPECT_TRUE(packed.empty());
  EXPECT_EQ(packed.bytes(), 0u);
  EXPECT_GE(packed.capacity_bytes(), bytes);  // kept for the next batch
}

}  // namespace
}  // namespace servebench::record
