// The record of a short streamed chat completion as a worker finishes it against
// bench/cpu_per_request.sh's server (two 29-character ids, the role event, two one-token content
// events, usage and [DONE]); `index` sets its request index and start time. For the packing test
// and bench/record/packed_records_bench.cc.
#pragma once

#include <cstdint>
#include <string>

#include "record/request_record.h"

namespace servebench::testing {

inline record::RequestRecord short_chat_record(uint64_t index) {
  using record::Chunk;
  using record::ChunkKind;
  record::RequestRecord r;
  r.request_index = index;
  r.x_request_id = "0123456789abcdef-" + std::to_string(1'000'000'000'000 + index).substr(1);
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
    r.chunks.push_back(Chunk{r.first_byte_ns + k * 100, k == 2 ? 5u : 0u, text ? 5u : 0u,
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

}  // namespace servebench::testing
