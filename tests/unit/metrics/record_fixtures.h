// Builders for RequestRecords with exact, hand-chosen timestamps. Shared by the metrics and
// export unit tests (golden files depend on these exact values: change them only together
// with SERVEBENCH_UPDATE_GOLDEN=1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "record/request_record.h"

namespace servebench::testing {

struct StreamSpec {
  int64_t intended_ns = 0;      // 0 = no schedule
  int64_t start_ns = 1'000'000'000;
  int64_t ttft_ns = 50'000'000;
  std::vector<int64_t> gaps_ns;  // gaps after the first content chunk
  std::vector<int32_t> chunk_tokens;  // tokens per content chunk (size = gaps + 1); empty = 1
  int64_t input_tokens = 100;
  int64_t reasoning_chunks = 0;  // the first N content chunks are reasoning
  int64_t requested_output_tokens = -1;
  bool streaming = true;
};

// A successful streamed chat record: an empty role chunk, content chunks at start + ttft and
// then after each gap, and a usage chunk. output_tokens = sum of non-reasoning chunk tokens,
// reasoning_tokens = sum of reasoning chunk tokens (or -1 when none).
inline record::RequestRecord make_stream_record(uint64_t index, const StreamSpec& s) {
  record::RequestRecord r;
  r.request_index = index;
  r.x_request_id = "req-" + std::to_string(index);
  r.x_correlation_id = "sess-" + std::to_string(index);
  r.conversation_id = "conv-" + std::to_string(index);
  r.session_num = static_cast<int32_t>(index);
  r.worker_id = static_cast<int32_t>(index % 2);
  r.model = "test-model";
  r.streaming = s.streaming;
  r.intended_ns = s.intended_ns;
  r.credit_issued_ns = s.intended_ns ? s.intended_ns : s.start_ns;
  r.request_start_ns = s.start_ns;
  r.request_sent_ns = s.start_ns + 100'000;
  r.first_byte_ns = s.start_ns + 1'000'000;
  r.http_status = 200;
  r.input_tokens = s.input_tokens;
  r.requested_output_tokens = s.requested_output_tokens;
  r.request_bytes = 1000 + static_cast<int64_t>(index);
  r.connection_reused = index % 2 == 1;
  if (s.streaming) r.chunks.push_back({r.first_byte_ns, 0, 0, record::ChunkKind::kEmpty, 0});
  int64_t t = s.start_ns + s.ttft_ns;
  int64_t out_tokens = 0, reasoning_tokens = 0;
  const size_t n = s.gaps_ns.size() + 1;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) t += s.gaps_ns[i - 1];
    const int32_t tok = s.chunk_tokens.empty() ? 1 : s.chunk_tokens[i];
    const bool reasoning = static_cast<int64_t>(i) < s.reasoning_chunks;
    std::string& text = reasoning ? r.reasoning_text : r.output_text;
    const std::string piece = (reasoning ? "think" : "word") + std::to_string(i) + " ";
    record::Chunk c;
    c.recv_ns = t;
    c.text_offset = static_cast<uint32_t>(text.size());
    c.text_bytes = static_cast<uint32_t>(piece.size());
    c.kind = reasoning ? record::ChunkKind::kReasoning : record::ChunkKind::kContent;
    c.tokens = tok;
    text += piece;
    r.chunks.push_back(c);
    (reasoning ? reasoning_tokens : out_tokens) += tok;
  }
  if (s.streaming) r.chunks.push_back({t + 200'000, 0, 0, record::ChunkKind::kUsage, 0});
  r.end_ns = t + 300'000;
  r.output_tokens = out_tokens;
  r.reasoning_tokens = s.reasoning_chunks > 0 ? reasoning_tokens : -1;
  r.usage.prompt_tokens = s.input_tokens;
  r.usage.completion_tokens = out_tokens + reasoning_tokens;
  r.usage.total_tokens = s.input_tokens + out_tokens + reasoning_tokens;
  r.response_bytes = 500 + static_cast<int64_t>(n) * 40;
  r.finish_reason = "length";
  return r;
}

inline record::RequestRecord make_error_record(uint64_t index, int64_t start_ns,
                                               record::ErrorKind kind, int32_t status,
                                               const std::string& message) {
  record::RequestRecord r;
  r.request_index = index;
  r.x_request_id = "req-" + std::to_string(index);
  r.session_num = static_cast<int32_t>(index);
  r.streaming = true;
  r.request_start_ns = start_ns;
  r.intended_ns = start_ns;
  r.end_ns = start_ns + 5'000'000;
  r.error = kind;
  r.http_status = status;
  r.error_message = message;
  r.input_tokens = 120;
  if (kind == record::ErrorKind::kCancelled) r.cancel_ns = r.end_ns;
  return r;
}

// The fixed set used by the golden tests: 6 successful streamed records with varied TTFT and
// ITL (one with reasoning, one with multi-token chunks, one scheduled late), one HTTP 500, one
// timeout, one cancelled, and one warm-up record.
// Two overlapping streamed requests for the sweep and time-slice tests:
// A: start 1000 ms, chunks at 1050 and 1150 ms, end 1150.3 ms.
// B: start 1100 ms, chunks at 1150 and 1180 ms, end 1180.3 ms.
inline std::vector<record::RequestRecord> overlapping_pair() {
  constexpr int64_t kMs = 1'000'000;
  StreamSpec a;
  a.start_ns = 1000 * kMs;
  a.gaps_ns = {100 * kMs};
  StreamSpec b;
  b.start_ns = 1100 * kMs;
  b.gaps_ns = {30 * kMs};
  return {make_stream_record(0, a), make_stream_record(1, b)};
}

inline std::vector<record::RequestRecord> golden_records() {
  std::vector<record::RequestRecord> out;
  const int64_t base = 10'000'000'000;
  const int64_t ms = 1'000'000;
  auto add = [&](StreamSpec s) { out.push_back(make_stream_record(out.size(), s)); };
  add({base, base + 200'000, 40 * ms, {10 * ms, 12 * ms, 11 * ms}, {}, 100, 0, 4});
  add({base + 100 * ms, base + 100 * ms + 300'000, 55 * ms, {9 * ms, 9 * ms, 14 * ms, 8 * ms},
       {}, 200, 0, 5});
  add({base + 200 * ms, base + 200 * ms + 150'000, 35 * ms, {20 * ms, 20 * ms},
       {1, 4, 4}, 150, 0, 9});
  add({base + 300 * ms, base + 300 * ms + 250'000, 80 * ms, {15 * ms, 15 * ms, 15 * ms},
       {}, 120, 2, 4});
  add({base + 400 * ms, base + 403 * ms, 45 * ms, {10 * ms}, {}, 90, 0, 50});
  out.back().usage.prompt_tokens = 130;  // server counts 44 % more prompt tokens
  add({base + 500 * ms, base + 500 * ms + 100'000, 62 * ms, {11 * ms, 11 * ms, 11 * ms, 11 * ms},
       {}, 110, 0, 5});
  out.push_back(make_error_record(out.size(), base + 550 * ms, record::ErrorKind::kHttpStatus,
                                  500, "HTTP 500: internal error (Authorization: Bearer sk-abcdefghijklmnopqrstuv)"));
  out.push_back(make_error_record(out.size(), base + 560 * ms, record::ErrorKind::kTimeout, 0,
                                  "request timed out after 30 s"));
  out.push_back(make_error_record(out.size(), base + 570 * ms, record::ErrorKind::kCancelled, 0,
                                  "cancelled at grace-period expiry"));
  record::RequestRecord warm = make_stream_record(out.size(), {0, base - 500 * ms, 90 * ms,
                                                               {30 * ms}, {}, 100});
  warm.phase = record::Phase::kWarmup;
  out.push_back(warm);
  return out;
}

}  // namespace servebench::testing
