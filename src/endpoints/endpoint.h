// Endpoint: one per API type (chat, completions, later embeddings, responses, ...). Renders
// request bodies and classifies response events into a RequestRecord. The static part of every
// body is rendered once before t0; render_body only splices the turn's content in.
//
// Registry: make_endpoint("chat") etc.; unknown names are a usage error listing the known ones.
//
// Thread safety: const after construction; one parse scratch (simdjson parser) per thread is
// held by EventParser, which each worker owns.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "record/request_record.h"

namespace servebench::endpoints {

struct Message {
  std::string role;     // "system", "user", "assistant"
  std::string content;
};

// Everything that varies per request.
struct TurnPayload {
  std::vector<Message> messages;      // chat: the whole history; completions: texts joined
  int64_t max_output_tokens = -1;     // -1: let the server decide
  std::string model;
};

struct EndpointOptions {
  std::string model;
  bool streaming = false;
  bool use_legacy_max_tokens = false;  // send max_tokens instead of max_completion_tokens
  bool include_usage = true;           // stream_options.include_usage when streaming
  std::string extra_inputs_json;       // JSON object merged into every body ("" = none)
};

// Result of parsing one SSE data payload or a whole non-streamed body.
enum class ParseStatus { kOk, kDone, kMalformed, kServerError };

class Endpoint {
 public:
  virtual ~Endpoint() = default;
  virtual std::string_view name() const = 0;          // "chat"
  virtual std::string_view default_path() const = 0;  // "/v1/chat/completions"
  virtual bool supports_streaming() const = 0;
  // Full JSON request body for one turn.
  virtual std::string render_body(const TurnPayload& turn) const = 0;
};

// Per-worker response parser (owns the simdjson parser). Appends chunks/text/usage to `rec`.
class EventParser {
 public:
  virtual ~EventParser() = default;
  // One SSE data payload (already de-framed). "[DONE]" → kDone.
  virtual ParseStatus parse_event(std::string_view data, int64_t recv_ns,
                                  record::RequestRecord* rec) = 0;
  // A whole non-streamed response body.
  virtual ParseStatus parse_body(std::string_view body, int64_t recv_ns,
                                 record::RequestRecord* rec) = 0;
};

// Merges a JSON object's keys into a JSON object body (later wins: AIPerf applies a turn's
// `extra` after --extra-inputs). Returns `body` unchanged when either is not an object.
std::string merge_body_extras(std::string_view body, std::string_view extra_json);

Result<std::unique_ptr<Endpoint>> make_endpoint(std::string_view type, const EndpointOptions& options);
std::unique_ptr<EventParser> make_event_parser(std::string_view type);
std::vector<std::string> endpoint_types();

}  // namespace servebench::endpoints
