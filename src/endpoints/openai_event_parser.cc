// EventParser for OpenAI-compatible chat and completions responses, on simdjson's on-demand API.
//
// One pass over each event's fields in whatever order the server wrote them; only
// choices[0] is read (n > 1 is not supported). Per event:
//   choices[0].delta|message.content            → output text       (ChunkKind::kContent)
//   choices[0].delta|message.tool_calls[].function.{name,arguments} → output text (kToolCall)
//   choices[0].delta|message.function_call.{name,arguments} (legacy)  → output text (kToolCall)
//   choices[0].delta|message.reasoning_content | .reasoning → reasoning text (kReasoning)
//   choices[0].text                              → output text (completions)
//   choices[0].finish_reason (string)            → RequestRecord::finish_reason
//   usage | usageMetadata (Gemini)               → RequestRecord::usage, normalised across
//                                                  vendors (usage_fields.h); each count's last
//                                                  reported value wins; the completion count
//                                                  of the first content event with usage (vLLM's
//                                                  continuous_usage_stats) → first_content_chunk_tokens
//   {"error": ...} or {"object":"error",...}     → kServerError
//   an `event: error` SSE event (any data)       → kServerError (AIPerf: code 502)
// Unknown fields (llama.cpp's `timings`, logprobs, ids) are skipped without being decoded.
// An event with text gets the kind of its first non-empty part in the order content, tool call,
// reasoning (content and reasoning in one event: the chunk is kContent and the reasoning text is
// still appended to reasoning_text). An event without text is kUsage when it carried usage,
// else kEmpty (role-only first chunk, finish-only last chunk).
//
// Errors: invalid JSON → kMalformed; both kinds also set rec->error (kMalformedSse,
// kServerErrorEvent) and a one-line error_message when the record has no error yet.
// Nothing is appended to the record unless the whole event parsed.
//
// Each payload first goes to the fast path (openai_fast_event.h), a hand-written scanner for the
// common shapes that gives the same result at a fraction of the cost; whatever it does not
// handle is walked here.
#include "endpoints/json_walk.h"
#include "endpoints/openai_fast_event.h"
#include "endpoints/openai_text.h"
#include "endpoints/usage_fields.h"

namespace servebench::endpoints {

namespace {

using json::error_code;
using json::json_type;
using json::object;
using json::opt_string;
using json::raw_json_string;
using json::value;

// What one event carried; string views point into the walker's buffers.
struct Extract {
  std::string_view content;
  std::string_view reasoning;
  std::string_view finish_reason;  // the last non-empty one
  bool has_choice = false;
  bool has_usage = false;  // the event's usage is in OpenAiEventParser::usage_
  json::ErrorFields error;
};

// What either path hands to the record: the event's texts and usage.
struct EventParts {
  std::string_view content;
  std::string_view tool_text;
  std::string_view reasoning;
  std::string_view finish_reason;        // "" = none
  const record::Usage* usage = nullptr;  // the event's usage; nullptr = none
};

class OpenAiEventParser final : public json::JsonEventParser<OpenAiEventParser> {
 public:
  explicit OpenAiEventParser(bool fast_path) : fast_path_(fast_path) {}

  // The trimmed payload of one event or body (JsonEventParser settled the rest).
  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    if (fast_path_ && fast_.scan(json, &fast_event_)) {
      ++fast_events_;
      const FastEvent& f = fast_event_;
      return record_event({f.content, {}, f.reasoning, f.finish_reason,
                           f.has_usage ? &f.usage : nullptr},
                          recv_ns, rec);
    }
    ex_ = Extract{};
    tool_text_.clear();
    if (error_code e = walker_.walk_object(
            json, [this](raw_json_string key, value v) { return on_top_field(key, v); })) {
      return set_malformed(json, rec, simdjson::error_message(e));
    }
    if (ex_.error.is_error) return set_server_error(ex_.error.message(), json, rec);
    return record_event({ex_.content, tool_text_, ex_.reasoning, ex_.finish_reason,
                         ex_.has_usage ? &usage_ : nullptr},
                        recv_ns, rec);
  }

  int64_t fast_path_events() const { return fast_events_; }

 private:
  // Appends one parsed event to the record.
  static ParseStatus record_event(const EventParts& ev, int64_t recv_ns,
                                  record::RequestRecord* rec) {
    if (ev.usage) merge_usage(*ev.usage, &rec->usage);
    if (!ev.finish_reason.empty()) rec->finish_reason.assign(ev.finish_reason);

    record::Chunk chunk;
    chunk.recv_ns = recv_ns;
    if (!ev.content.empty() || !ev.tool_text.empty()) {
      chunk.kind = ev.content.empty() ? record::ChunkKind::kToolCall : record::ChunkKind::kContent;
      chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
      rec->output_text.append(ev.content);
      if (!ev.tool_text.empty()) rec->output_text.append(ev.tool_text);
      chunk.text_bytes = static_cast<uint32_t>(rec->output_text.size() - chunk.text_offset);
      if (!ev.reasoning.empty()) rec->reasoning_text.append(ev.reasoning);
    } else if (!ev.reasoning.empty()) {
      chunk.kind = record::ChunkKind::kReasoning;
      chunk.text_offset = static_cast<uint32_t>(rec->reasoning_text.size());
      rec->reasoning_text.append(ev.reasoning);
      chunk.text_bytes = static_cast<uint32_t>(ev.reasoning.size());
    } else {
      chunk.kind = ev.usage ? record::ChunkKind::kUsage : record::ChunkKind::kEmpty;
      chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
    }
    // Per-chunk usage (continuous_usage_stats): the first content event with a completion count.
    if (ev.usage && ev.usage->completion_tokens >= 0 && record::is_content_chunk(chunk.kind) &&
        rec->usage.first_content_chunk_tokens < 0) {
      rec->usage.first_content_chunk_tokens = ev.usage->completion_tokens;
    }
    rec->chunks.push_back(chunk);
    return ParseStatus::kOk;
  }

  error_code read_message(value v) {
    return json::for_each_field_if_object(v, [this](raw_json_string key, value fv) -> error_code {
      if (key == "content") return opt_string(fv, &ex_.content);
      if (key == "reasoning_content" || key == "reasoning") {
        std::string_view r;
        if (auto e = opt_string(fv, &r)) return e;
        if (!r.empty()) ex_.reasoning = r;
        return simdjson::SUCCESS;
      }
      if (key == "tool_calls") return read_tool_calls(fv);
      if (key == "function_call") return read_function(fv);
      return simdjson::SUCCESS;
    });
  }

  error_code read_tool_calls(value v) {
    json_type t;
    if (auto e = v.type().get(t)) return e;
    if (t != json_type::array) return simdjson::SUCCESS;
    simdjson::ondemand::array arr;
    if (auto e = v.get_array().get(arr)) return e;
    for (auto item : arr) {
      value call;
      if (auto e = item.get(call)) return e;
      json_type ct;
      if (auto e = call.type().get(ct)) return e;
      if (ct != json_type::object) continue;
      object cobj;
      if (auto e = call.get_object().get(cobj)) return e;
      for (auto field : cobj) {
        raw_json_string key;
        if (auto e = field.key().get(key)) return e;
        if (!(key == "function")) continue;
        value fv;
        if (auto e = field.value().get(fv)) return e;
        if (auto e = read_function(fv)) return e;
      }
    }
    return simdjson::SUCCESS;
  }

  // A function object's name and arguments (strings; streamed deltas carry either part), appended
  // in the order the server wrote them.
  error_code read_function(value v) {
    return json::for_each_field_if_object(v, [this](raw_json_string key, value fv) -> error_code {
      if (!(key == "name" || key == "arguments")) return simdjson::SUCCESS;
      std::string_view text;
      if (auto e = opt_string(fv, &text)) return e;
      tool_text_.append(text);
      return simdjson::SUCCESS;
    });
  }

  error_code read_choices(value v) {
    json_type t;
    if (auto e = v.type().get(t)) return e;
    if (t != json_type::array) return simdjson::SUCCESS;
    simdjson::ondemand::array arr;
    if (auto e = v.get_array().get(arr)) return e;
    bool first = true;
    for (auto item : arr) {
      value choice;
      if (auto e = item.get(choice)) return e;
      if (!first) continue;  // skipped, but iteration still validates the structure
      first = false;
      ex_.has_choice = true;
      auto e = json::for_each_field_if_object(choice, [this](raw_json_string key, value fv) {
        if (key == "delta" || key == "message") return read_message(fv);
        if (key == "text") return opt_string(fv, &ex_.content);
        if (key == "finish_reason") {
          std::string_view fr;
          if (auto e = opt_string(fv, &fr)) return e;
          if (!fr.empty()) ex_.finish_reason = fr;
        }
        return error_code{simdjson::SUCCESS};
      });
      if (e) return e;
    }
    return simdjson::SUCCESS;
  }

  // A usage object: out of the per-event path, which sees `"usage":null` far more often.
  [[gnu::noinline]] error_code read_usage_field(value v) {
    // Reset here, not per event: most events carry no usage, and a Usage is 13 counts.
    if (!ex_.has_usage) usage_ = record::Usage{};
    if (auto e = json::read_usage_object(v, &usage_)) return e;
    ex_.has_usage = any_usage(usage_);  // an empty usage object reports nothing
    return simdjson::SUCCESS;
  }

  error_code on_top_field(raw_json_string key, value v) {
    if (key == "choices") return read_choices(v);
    if (key == "usage" || key == "usageMetadata") {
      json_type t;
      if (auto e = v.type().get(t)) return e;
      // vLLM writes "usage":null on every chunk: only an object is read (out of line).
      return t == json_type::object ? read_usage_field(v) : error_code{simdjson::SUCCESS};
    }
    return json::read_error_field(key, v, &ex_.error);
  }

  json::JsonWalker walker_;
  std::string tool_text_;
  record::Usage usage_;  // the current event's usage (valid when ex_.has_usage)
  Extract ex_;
  const bool fast_path_;
  OpenAiFastScanner fast_;
  FastEvent fast_event_;
  int64_t fast_events_ = 0;  // events the fast path handled (for tests)
};

}  // namespace

std::unique_ptr<EventParser> make_openai_event_parser() {
  return std::make_unique<OpenAiEventParser>(true);
}

std::unique_ptr<EventParser> make_openai_event_parser(OpenAiParsePath path) {
  return std::make_unique<OpenAiEventParser>(path == OpenAiParsePath::kFastFirst);
}

int64_t openai_fast_path_events(const EventParser& parser) {
  const auto* p = dynamic_cast<const OpenAiEventParser*>(&parser);
  return p ? p->fast_path_events() : -1;
}

}  // namespace servebench::endpoints
