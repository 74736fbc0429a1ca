// What a benchmark run sends, prepared before t0 from the synthetic-prompt flags or an
// --input-file: conversations (a preamble of shared system prompt / user context, then turns),
// and from them either
//   - single-turn request templates, bodies rendered once per model (the fast path: every
//     request is its own session), with warm-up variants and cache-bust placeholders, or
//   - a SessionWorkload when conversations have several turns that carry history (multi_turn
//     files, mooncake/bailian sessions, --session-turns-mean > 1): bodies are rendered at send
//     time with the live history (load/sessions.h).
// Also: the entry order (--dataset-sampling-strategy: shuffle for synthetic prompts, sequential
// for files), the fixed-schedule offsets (first turns) and inputs.json's sessions.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "config/benchmark_config.h"
#include "core/result.h"
#include "dataset/conversations.h"
#include "endpoints/endpoint.h"
#include "load/sessions.h"
#include "load/worker.h"
#include "record/request_record.h"
#include "tokenizer/tokenizer.h"

namespace servebench::app {

struct PreparedWorkload {
  std::vector<load::RequestTemplate> requests;         // single-turn: entry * models + m
  std::vector<load::RequestTemplate> warmup_requests;  // same layout, warm-up marker (or empty)
  // Large bodies in total (media): they live here, not in memory (app/body_spill.h).
  std::shared_ptr<load::BodyStore> body_store;
  std::vector<uint32_t> order;                         // entry (or conversation) per request/session
  std::shared_ptr<load::SessionWorkload> sessions;     // multi-turn (then `requests` is empty)
  std::shared_ptr<const std::vector<int64_t>> fixed_offsets_ns;  // null: not a fixed schedule
  size_t entries = 0;        // single-turn entries, or conversations
  std::vector<std::string> input_session_ids;          // inputs.json: one per conversation/entry
  // inputs.json's bodies per session: views of input_payload_text, or of body_store when the
  // workload has one (sessions with media: their bodies carry the media's files).
  std::vector<std::vector<std::string_view>> input_payloads;
  std::deque<std::string> input_payload_text;  // a deque: moving the workload keeps the views
  // Input files' media payloads held in memory (app/media_store.h input_media_keeper): turns
  // hold views of them; a deque, so moving the workload keeps the views.
  std::deque<std::string> kept_media;
  std::vector<std::string> warnings;
  std::string format;        // input file format name ("" = synthetic)
  int64_t agentic_lanes = 0;           // agentic replay lanes (app/agentic_setup.h; 0 = none)
  int64_t agentic_warmup_span_ns = 0;  // the latest lane's spread warm-up start
  // Counts a send-time prompt (record::CountOptions::input_counter): set by
  // --apply-chat-template; null = the sum of each message's tokens.
  std::function<int64_t(const record::RequestRecord&)> input_counter;
};

// The synthetic composer's options from the prompt flags (seq_dist left unset);
// `overhead_tokens` (a chat template's) comes off the ISL mean.
dataset::ConversationOptions conversation_options(const config::BenchmarkConfig& cfg,
                                                  int64_t overhead_tokens, uint64_t seed);

// Synthetic prompts (no --input-file).
Result<PreparedWorkload> prepare_synthetic_workload(const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                                                    const endpoints::Endpoint& endpoint, std::string_view corpus,
                                                    uint64_t seed);
// --input-file.
Result<PreparedWorkload> prepare_file_workload(const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                                               const endpoints::Endpoint& endpoint, std::string_view corpus,
                                               uint64_t seed);

}  // namespace servebench::app
