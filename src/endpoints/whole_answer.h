// The arrival of a whole (non-streamed) answer: one empty chunk at its receive time, so latency
// and the chunk timeline exist for answers that carry no generated text (embeddings, rankings,
// images, video jobs).
#pragma once

#include <cstdint>

#include "record/request_record.h"

namespace servebench::endpoints {

inline void mark_answer_arrival(record::RequestRecord* rec, int64_t recv_ns) {
  record::Chunk chunk;
  chunk.recv_ns = recv_ns;
  chunk.kind = record::ChunkKind::kEmpty;
  chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
  rec->chunks.push_back(chunk);
}

}  // namespace servebench::endpoints
