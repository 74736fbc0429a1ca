// Record-writing helpers shared by the `responses` and `messages` parsers: how one event's (or
// one whole body's) text becomes a chunk of a RequestRecord. Internal to src/endpoints/.
//
// Thread safety: free functions on a record owned by the calling worker.
#pragma once

#include <cstdint>
#include <string_view>

#include "record/request_record.h"

namespace servebench::endpoints {

// Appends `text` as one chunk of `kind` (kContent and kToolCall go to output_text, kReasoning to
// reasoning_text). Empty text appends nothing: events without text are not chunks.
inline void append_text_chunk(record::ChunkKind kind, std::string_view text, int64_t recv_ns,
                              record::RequestRecord* rec) {
  if (text.empty()) return;
  std::string& dst = kind == record::ChunkKind::kReasoning ? rec->reasoning_text : rec->output_text;
  record::Chunk chunk;
  chunk.recv_ns = recv_ns;
  chunk.kind = kind;
  chunk.text_offset = static_cast<uint32_t>(dst.size());
  chunk.text_bytes = static_cast<uint32_t>(text.size());
  dst.append(text);
  rec->chunks.push_back(chunk);
}

// A whole (non-streamed) answer as one chunk, as the chat parser does: its kind is that of the
// first non-empty part in the order content, tool call, reasoning; content and tool text go to
// output_text, reasoning to reasoning_text. With no text at all, one kEmpty chunk marks the
// body's arrival.
inline void append_whole_answer(std::string_view content, std::string_view tool,
                                std::string_view reasoning, int64_t recv_ns,
                                record::RequestRecord* rec) {
  record::Chunk chunk;
  chunk.recv_ns = recv_ns;
  chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
  if (!content.empty() || !tool.empty()) {
    chunk.kind = content.empty() ? record::ChunkKind::kToolCall : record::ChunkKind::kContent;
    rec->output_text.append(content);
    rec->output_text.append(tool);
    chunk.text_bytes = static_cast<uint32_t>(content.size() + tool.size());
    rec->reasoning_text.append(reasoning);
  } else if (!reasoning.empty()) {
    chunk.kind = record::ChunkKind::kReasoning;
    chunk.text_offset = static_cast<uint32_t>(rec->reasoning_text.size());
    rec->reasoning_text.append(reasoning);
    chunk.text_bytes = static_cast<uint32_t>(reasoning.size());
  } else {
    chunk.kind = record::ChunkKind::kEmpty;
  }
  rec->chunks.push_back(chunk);
}

}  // namespace servebench::endpoints
