// RequestRecord: everything measured about one request, as the load engine hands it to record
// processing, metrics and exports. Plain data; the single contract between `load` (producer),
// `record` (token counting), `metrics` (pure functions of records) and `export`.
//
// Timestamps are steady-clock ns (core::Clock::now_ns) of the run; RunInfo::anchor maps them to
// wall time. A timestamp of 0 means "did not happen" (e.g. no first byte on a connect error).
//
// Thread safety: plain value type. A record is written by one worker thread, handed packed
// (packed_records.h) to a record processor, unpacked and counted there, then read-only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/clock.h"

namespace servebench::record {

// Why a request failed. kNone for success. Names (error_kind_name) appear in exports.
enum class ErrorKind : uint8_t {
  kNone,
  kConnect,           // could not connect (refused, DNS, unreachable)
  kTls,               // TLS handshake or certificate failure
  kTimeout,           // --request-timeout-seconds elapsed
  kHttpStatus,        // non-2xx status; http_status and error_message carry the details
  kStreamReset,       // connection closed or reset before the response completed
  kMalformedSse,      // an event that is not valid JSON / not a valid SSE frame
  kServerErrorEvent,  // the server sent an error object inside the stream or body
  kCancelled,         // cancelled on purpose (--request-cancellation-rate, grace expiry, Ctrl-C)
  kOther,
};
const char* error_kind_name(ErrorKind kind);

enum class Phase : uint8_t { kWarmup, kProfiling };

// Why a request was cancelled (ErrorKind::kCancelled). AIPerf counts --request-cancellation-rate
// cancellations as errors (code 499); requests cut off when the grace period expires or by
// Ctrl-C count neither as requests nor as errors (they are only reported as a count).
enum class CancelReason : uint8_t { kNone, kRate, kGrace, kInterrupt };
const char* phase_name(Phase phase);

// What a streamed event (or a whole non-streamed body) carried.
enum class ChunkKind : uint8_t {
  kContent,    // non-empty output text (delta.content / choices[0].text)
  kReasoning,  // non-empty reasoning text (reasoning_content / reasoning)
  kToolCall,   // tool-call argument/name text
  kEmpty,      // a data event with nothing countable (role-only first chunk, finish_reason-only)
  kUsage,      // usage-only event (excluded from latency endpoints)
};

// True for chunk kinds that carry text: the endpoints of every latency (TTFT, request latency,
// inter-chunk gaps). Role-only, finish-only and usage-only events are excluded, as in AIPerf.
// The one definition: the load engine, record processing and metrics all use it.
inline bool is_content_chunk(ChunkKind k) {
  return k == ChunkKind::kContent || k == ChunkKind::kReasoning || k == ChunkKind::kToolCall;
}

// One response event. `recv_ns` is the time its last byte was read from the socket (all events
// completed by the same read share it). Text lives in RequestRecord::output_text or
// reasoning_text at [text_offset, text_offset + text_bytes).
struct Chunk {
  int64_t recv_ns = 0;
  uint32_t text_offset = 0;
  uint32_t text_bytes = 0;
  ChunkKind kind = ChunkKind::kEmpty;
  // Tokens in this chunk, filled by record processing (-1 until then).
  int32_t tokens = -1;
  bool operator==(const Chunk&) const = default;
};

// Server-reported usage from the last non-empty `usage` object; -1 = absent.
struct Usage {
  // Speculative decoding (vLLM / SGLang): draft tokens proposed, accepted, verification steps.
  int64_t spec_draft_tokens = -1;
  int64_t spec_accepted_tokens = -1;
  int64_t spec_steps = -1;
  int64_t prompt_tokens = -1;
  int64_t completion_tokens = -1;
  int64_t total_tokens = -1;
  int64_t reasoning_tokens = -1;
  int64_t prompt_cache_read_tokens = -1;   // OpenAI cached_tokens, Anthropic cache_read_input_tokens,
                                           // DeepSeek prompt_cache_hit_tokens
  int64_t prompt_cache_write_tokens = -1;  // Anthropic cache_creation_input_tokens
  int64_t prompt_cache_miss_tokens = -1;   // DeepSeek prompt_cache_miss_tokens
  int64_t prompt_audio_tokens = -1;        // prompt_tokens_details.audio_tokens
  int64_t completion_audio_tokens = -1;    // completion_tokens_details.audio_tokens
  int64_t accepted_prediction_tokens = -1;
  int64_t rejected_prediction_tokens = -1;
  int64_t tool_use_prompt_tokens = -1;     // Gemini toolUsePromptTokenCount
  double prompt_audio_seconds = -1;        // Mistral prompt_audio_seconds (a duration)
  // --per-chunk-usage (stream_options.continuous_usage_stats): completion_tokens reported on the
  // first content event that carried usage, i.e. the tokens delivered through the chunk that set
  // TTFT (AIPerf's first_content_chunk_tokens). Set by the parser; record processing clears it
  // unless the run asked for per-chunk usage, so a server that volunteers it changes nothing.
  int64_t first_content_chunk_tokens = -1;
  bool present() const { return prompt_tokens >= 0 || completion_tokens >= 0 || total_tokens >= 0; }
  bool operator==(const Usage&) const = default;
};

struct RequestRecord {
  // Identity.
  uint64_t request_index = 0;     // global issue order within the run (0-based)
  std::string x_request_id;       // X-Request-ID sent
  std::string x_correlation_id;   // session id (X-Correlation-ID)
  std::string conversation_id;    // dataset conversation id
  int32_t session_num = 0;        // index of the session / conversation instance
  int32_t turn_index = 0;
  int32_t worker_id = 0;
  int32_t url_index = 0;          // which --url served it
  Phase phase = Phase::kProfiling;
  uint8_t phase_index = 0;        // position of its phase in the run (warm-up first, when any)
  uint8_t processor_slot = 0;     // the record-processing thread that counted its tokens
  std::string model;

  // Timestamps (steady ns; 0 = did not happen).
  int64_t intended_ns = 0;        // when the plan wanted it sent
  int64_t credit_issued_ns = 0;   // when the worker took it up (slot freed / timer fired)
  int64_t request_start_ns = 0;   // handed to the transport (AIPerf's start_perf_ns)
  int64_t request_sent_ns = 0;    // request body fully written
  int64_t first_byte_ns = 0;      // response headers received
  int64_t end_ns = 0;             // response complete, failed or cancelled
  // The whole response was received and parsed without error (0 otherwise). Latency and
  // throughput of endpoints without token output (embeddings, rankings, ...) end here.
  int64_t response_complete_ns = 0;
  int64_t cancel_ns = 0;          // when cancellation was triggered (0 if not)
  // HTTP timing of a request that opened a new connection (transport/http_client.h
  // ConnectTiming; all 0 on a reused connection): set-up began (after any wait for a free
  // connection), name resolved, TCP connected, TLS handshake done (https only).
  int64_t conn_start_ns = 0;
  int64_t dns_done_ns = 0;
  int64_t connected_ns = 0;
  int64_t tls_done_ns = 0;
  int32_t response_reads = 0;     // socket reads that carried response body bytes
  int32_t request_writes = 0;     // socket writes that carried the request (0 = not known)
  CancelReason cancel_reason = CancelReason::kNone;

  // Response.
  int32_t http_status = 0;
  bool streaming = false;
  std::vector<Chunk> chunks;      // in arrival order; non-streamed bodies give one chunk
  std::string output_text;        // concatenation of content and tool-call text
  std::string reasoning_text;     // concatenation of reasoning text
  Usage usage;
  std::string finish_reason;
  // Non-token outputs counted by the endpoint's parser (embedding vectors, ranked documents,
  // images); -1 = the endpoint produces none.
  int64_t output_items = -1;
  // A generated video's server-reported facts (video_generation: inference_time_s and
  // peak_memory_mb of the finished job); -1 = not reported.
  double video_inference_s = -1;
  double video_peak_memory_mb = -1;
  int64_t request_bytes = 0;
  int64_t response_bytes = 0;
  bool connection_reused = false;

  // Error (kind kNone = success).
  ErrorKind error = ErrorKind::kNone;
  std::string error_message;      // one line; for HTTP errors includes a body excerpt

  // Input, known before t0.
  int64_t input_tokens = -1;      // client-side ISL (tokenizer), -1 if not yet counted
  int64_t requested_output_tokens = -1;  // max_tokens asked for, -1 if none
  int32_t input_images = -1;      // images sent with the request (media types), -1 if unknown
  // weka_trace: leading hash blocks of this turn an earlier request of its trace produced, and
  // the turn's blocks (theoretical_prefix_cache_hit); -1 = not a trace turn.
  int64_t prefix_hit_blocks = -1;
  int64_t prefix_total_blocks = -1;
  int64_t payload_index = -1;     // which pre-rendered body was sent (RunContext::inputs index)
  // Prompts whose ISL is only known at send time (multi-turn history, cache-bust markers): the
  // text of each message, counted (each on its own, as the server's chat template sees them) and
  // then cleared by record processing when input_tokens is -1. And, for raw exports only, the
  // body as sent when it is not a pre-rendered one (payload_index is then -1).
  std::vector<std::string> input_texts;
  // The role of each of input_texts (same length when set): --apply-chat-template counts such
  // prompts through the model's chat template, which needs the roles. Cleared with input_texts.
  std::vector<std::string> input_roles;
  std::string request_body;

  // Filled by record processing (client tokenizer unless --use-server-token-count).
  int64_t output_tokens = -1;     // tokens of output_text (content + tool calls)
  int64_t reasoning_tokens = -1;  // tokens of reasoning_text

  bool ok() const { return error == ErrorKind::kNone; }
  bool cancelled() const { return error == ErrorKind::kCancelled; }
  // Cancelled by the run itself (grace expiry, Ctrl-C): excluded from requests and errors.
  bool dropped() const { return cancelled() && cancel_reason != CancelReason::kRate; }
  bool operator==(const RequestRecord&) const = default;
};

// The run's steady → wall mapping (one type for the whole tree: core::WallAnchor).
using RunAnchor = core::WallAnchor;

}  // namespace servebench::record
