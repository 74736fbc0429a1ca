// Endpoint: one per API type (chat, completions, embeddings, ...). Renders request bodies and
// classifies response events into a RequestRecord. The static part of every body is rendered
// once before t0; render_body only splices the turn's content in.
//
// Each type is described by an EndpointSpec registered in its own file (registry.h); the free
// functions at the bottom are shorthands over that registry. Unknown names are a usage error
// listing the known ones.
//
// Thread safety: an Endpoint is const after construction and shared by all workers; an
// EventParser holds one parse scratch (simdjson parser) and is owned by one worker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/media_part.h"
#include "core/result.h"
#include "endpoints/body_extras.h"
#include "record/request_record.h"

namespace servebench::endpoints {

// One input of a turn. Chat takes it as a role-tagged message; types without
// core::kCapChatMessages use only `content`, as one input text.
struct Message {
  std::string role;  // "system", "user", "assistant" ("" = user)
  std::string content;
};

// Everything that varies per request.
struct TurnPayload {
  // The turn's inputs in order. Chat: the whole history as messages. Completions: the contents
  // joined into one prompt. Embeddings: each content is one element of `input` (the batch of
  // --batch-size texts).
  std::vector<Message> messages;
  int64_t max_output_tokens = -1;  // -1: let the server decide (ignored without token output)
  std::string model;               // "" = EndpointOptions::model
  // The turn's own body members (an input file's per-row `extra`), parsed once before t0 and
  // applied after --extra-inputs (later wins, as AIPerf's payload.update). Not owned; may be null.
  const BodyExtras* extras = nullptr;
  // Images, audio and video of the turn, sent with its last message (endpoints with kCapMedia;
  // media_parts.h renders them in each API's shape).
  std::vector<core::MediaPart> media;
};

struct EndpointOptions {
  std::string model;
  bool streaming = false;
  bool use_legacy_max_tokens = false;  // send max_tokens instead of max_completion_tokens
  bool include_usage = true;           // stream_options.include_usage when streaming
  bool continuous_usage = false;       // --per-chunk-usage: and continuous_usage_stats (chat)
  std::string extra_inputs_json;       // JSON object merged into every body ("" = none)
  bool download_video_content = false; // polling types: fetch the finished video (in latency)
};

// Result of parsing one SSE event or a whole non-streamed body.
enum class ParseStatus { kOk, kDone, kMalformed, kServerError };

class EventParser;

// Types whose answer takes several HTTP requests (kCapPolls: submit a job, poll it, download the
// result). The parser says what the next request of the same logical request is; the load
// engine sends it on the same record, without blocking its worker, until the parser says done.
struct StepContext {
  int32_t step = 0;             // requests of this logical request already answered, minus one
  int32_t kind = 0;             // the FollowUp::kind of the step just answered (0: the first)
  std::string_view base_url;    // the URL the logical request was sent to
  std::string_view step_url;    // the URL just answered
};
struct FollowUp {
  std::string url;              // "" = done; else an absolute URL, fetched with GET
  int64_t delay_ns = 0;         // wait this long after the answer before sending
  int32_t kind = 0;             // the parser's own tag, handed back in StepContext::kind
};

class Endpoint {
 public:
  virtual ~Endpoint() = default;
  virtual std::string_view name() const = 0;          // "chat"
  virtual std::string_view default_path() const = 0;  // "/v1/chat/completions"
  // Full JSON request body for one turn.
  virtual std::string render_body(const TurnPayload& turn) const = 0;
  // A response parser configured by this endpoint's options (e.g. a response field selector),
  // one per worker; nullptr: the spec's make_parser serves.
  virtual std::unique_ptr<EventParser> make_parser() const { return nullptr; }
};

// One whole SSE event as framed by the transport: its `event:` name ("" when none was given)
// and its joined data lines. Views are valid only during the parse call.
struct SseEventView {
  std::string_view event;
  std::string_view data;
};

// Per-worker response parser. Appends chunks/text/usage/output_items to `rec`; on an error sets
// rec->error and a one-line rec->error_message (when the record has none yet).
class EventParser {
 public:
  virtual ~EventParser() = default;
  // One streamed event. A data payload of "[DONE]" → kDone.
  virtual ParseStatus parse_event(const SseEventView& event, int64_t recv_ns,
                                  record::RequestRecord* rec) = 0;
  // A whole non-streamed response body.
  virtual ParseStatus parse_body(std::string_view body, int64_t recv_ns,
                                 record::RequestRecord* rec) = 0;
  // A whole non-streamed body of a multi-step type (kCapPolls); fills *next when another
  // request must follow (next->url non-empty). The default: parse_body, no follow-up.
  virtual ParseStatus parse_step(std::string_view body, int64_t recv_ns, const StepContext& ctx,
                                 record::RequestRecord* rec, FollowUp* next) {
    (void)ctx;
    next->url.clear();
    return parse_body(body, recv_ns, rec);
  }
  // An event without an `event:` name.
  ParseStatus parse_event(std::string_view data, int64_t recv_ns, record::RequestRecord* rec) {
    return parse_event(SseEventView{{}, data}, recv_ns, rec);
  }
};

// Merges a JSON object's keys into a JSON object body, keeping the body's key order (a key
// already present keeps its place and takes the new value; new keys are appended). Returns
// `body` unchanged when either is not an object. For set-up only: it parses both texts.
std::string merge_body_extras(std::string_view body, std::string_view extra_json);

// Registry shorthands (registry.h has the specs).
Result<std::unique_ptr<Endpoint>> make_endpoint(std::string_view type,
                                                const EndpointOptions& options);
// nullptr for an unknown type.
std::unique_ptr<EventParser> make_event_parser(std::string_view type);
// Registered type names, sorted.
std::vector<std::string> endpoint_types();

}  // namespace servebench::endpoints
