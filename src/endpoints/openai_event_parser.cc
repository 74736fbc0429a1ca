// EventParser for OpenAI-compatible chat and completions responses, on simdjson's on-demand API.
//
// One pass over each event's fields in whatever order the server wrote them; only
// choices[0] is read (n > 1 is not supported). Per event:
//   choices[0].delta|message.content            → output text       (ChunkKind::kContent)
//   choices[0].delta|message.tool_calls[].function.{name,arguments} → output text (kToolCall)
//   choices[0].delta|message.reasoning_content | .reasoning → reasoning text (kReasoning)
//   choices[0].text                              → output text (completions)
//   choices[0].finish_reason (string)            → RequestRecord::finish_reason
//   usage (non-empty object)                     → RequestRecord::usage (last one wins)
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
#include <simdjson.h>

#include <cstring>

#include "endpoints/openai_text.h"
#include "endpoints/parse_errors.h"

namespace servebench::endpoints {

namespace {

using simdjson::ondemand::json_type;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

// What one event carried; string views point into the simdjson parser's buffers.
struct Extract {
  std::string_view content;
  std::string_view reasoning;
  std::string_view finish_reason;
  bool has_finish = false;
  bool has_choice = false;
  record::Usage usage;
  bool has_usage = false;
  bool is_error = false;
  bool object_is_error = false;
  std::string_view error_message;
  std::string_view top_message;
};

// Reads a string if `v` is one; other types (null, numbers) leave *out unchanged.
simdjson::error_code opt_string(value v, std::string_view* out) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::string) return simdjson::SUCCESS;
  return v.get_string().get(*out);
}

simdjson::error_code opt_int(value v, int64_t* out) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::number) return simdjson::SUCCESS;
  double d;
  if (auto e = v.get_double().get(d)) return e;  // tolerant of "12.0" from odd servers
  *out = static_cast<int64_t>(d);
  return simdjson::SUCCESS;
}

simdjson::error_code read_usage(value v, Extract* ex) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::object) return simdjson::SUCCESS;
  object obj;
  if (auto e = v.get_object().get(obj)) return e;
  record::Usage u;
  for (auto field : obj) {
    simdjson::ondemand::raw_json_string key;
    if (auto e = field.key().get(key)) return e;
    value fv;
    if (auto e = field.value().get(fv)) return e;
    simdjson::error_code e = simdjson::SUCCESS;
    if (key == "prompt_tokens") {
      e = opt_int(fv, &u.prompt_tokens);
    } else if (key == "completion_tokens") {
      e = opt_int(fv, &u.completion_tokens);
    } else if (key == "total_tokens") {
      e = opt_int(fv, &u.total_tokens);
    } else if (key == "completion_tokens_details" || key == "prompt_tokens_details") {
      const bool completion = key == "completion_tokens_details";
      json_type dt;
      if ((e = fv.type().get(dt))) return e;
      if (dt != json_type::object) continue;
      object details;
      if ((e = fv.get_object().get(details))) return e;
      for (auto df : details) {
        simdjson::ondemand::raw_json_string dk;
        if ((e = df.key().get(dk))) return e;
        value dv;
        if ((e = df.value().get(dv))) return e;
        if (completion && dk == "reasoning_tokens") {
          e = opt_int(dv, &u.reasoning_tokens);
        } else if (!completion && dk == "cached_tokens") {
          e = opt_int(dv, &u.prompt_cache_read_tokens);
        }
        if (e) return e;
      }
    }
    if (e) return e;
  }
  if (u.present()) {
    ex->usage = u;
    ex->has_usage = true;
  }
  return simdjson::SUCCESS;
}

}  // namespace

namespace {

class OpenAiEventParser final : public EventParser {
 public:
  using EventParser::parse_event;
  ParseStatus parse_event(const SseEventView& event, int64_t recv_ns,
                          record::RequestRecord* rec) override {
    if (event.event == "error") {
      return set_server_error(event.data.substr(0, kExcerptBytes), event.data, rec,
                              "server error event: ");
    }
    std::string_view t = trim_json_space(event.data);
    if (t == "[DONE]") return ParseStatus::kDone;
    if (t.empty()) return ParseStatus::kOk;  // keep-alive payload: nothing to record
    return parse(t, recv_ns, rec);
  }

  ParseStatus parse_body(std::string_view body, int64_t recv_ns,
                         record::RequestRecord* rec) override {
    std::string_view t = trim_json_space(body);
    if (t.empty()) return set_malformed(body, rec, "empty response body");
    return parse(t, recv_ns, rec);
  }

 private:
  simdjson::error_code read_message(value v) {
    json_type t;
    if (auto e = v.type().get(t)) return e;
    if (t != json_type::object) return simdjson::SUCCESS;
    object obj;
    if (auto e = v.get_object().get(obj)) return e;
    for (auto field : obj) {
      simdjson::ondemand::raw_json_string key;
      if (auto e = field.key().get(key)) return e;
      value fv;
      if (auto e = field.value().get(fv)) return e;
      simdjson::error_code e = simdjson::SUCCESS;
      if (key == "content") {
        e = opt_string(fv, &ex_.content);
      } else if (key == "reasoning_content" || key == "reasoning") {
        std::string_view r;
        e = opt_string(fv, &r);
        if (!r.empty()) ex_.reasoning = r;
      } else if (key == "tool_calls") {
        e = read_tool_calls(fv);
      }
      if (e) return e;
    }
    return simdjson::SUCCESS;
  }

  simdjson::error_code read_tool_calls(value v) {
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
        simdjson::ondemand::raw_json_string key;
        if (auto e = field.key().get(key)) return e;
        if (!(key == "function")) continue;
        value fv;
        if (auto e = field.value().get(fv)) return e;
        json_type ft;
        if (auto e = fv.type().get(ft)) return e;
        if (ft != json_type::object) continue;
        object fobj;
        if (auto e = fv.get_object().get(fobj)) return e;
        for (auto ff : fobj) {
          simdjson::ondemand::raw_json_string fk;
          if (auto e = ff.key().get(fk)) return e;
          if (fk == "name" || fk == "arguments") {
            value s;
            if (auto e = ff.value().get(s)) return e;
            std::string_view text;
            if (auto e = opt_string(s, &text)) return e;
            tool_text_.append(text);
          }
        }
      }
    }
    return simdjson::SUCCESS;
  }

  simdjson::error_code read_choices(value v) {
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
      json_type ct;
      if (auto e = choice.type().get(ct)) return e;
      if (ct != json_type::object) continue;
      object cobj;
      if (auto e = choice.get_object().get(cobj)) return e;
      for (auto field : cobj) {
        simdjson::ondemand::raw_json_string key;
        if (auto e = field.key().get(key)) return e;
        value fv;
        if (auto e = field.value().get(fv)) return e;
        simdjson::error_code e = simdjson::SUCCESS;
        if (key == "delta" || key == "message") {
          e = read_message(fv);
        } else if (key == "text") {
          e = opt_string(fv, &ex_.content);
        } else if (key == "finish_reason") {
          std::string_view fr;
          e = opt_string(fv, &fr);
          if (!e && !fr.empty()) {
            ex_.finish_reason = fr;
            ex_.has_finish = true;
          }
        }
        if (e) return e;
      }
    }
    return simdjson::SUCCESS;
  }

  simdjson::error_code read_error(value v) {
    ex_.is_error = true;
    json_type t;
    if (auto e = v.type().get(t)) return e;
    if (t == json_type::string) return v.get_string().get(ex_.error_message);
    if (t == json_type::object) {
      object obj;
      if (auto e = v.get_object().get(obj)) return e;
      for (auto field : obj) {
        simdjson::ondemand::raw_json_string key;
        if (auto e = field.key().get(key)) return e;
        if (key == "message") {
          value mv;
          if (auto e = field.value().get(mv)) return e;
          if (auto e = opt_string(mv, &ex_.error_message)) return e;
        }
      }
    }
    return simdjson::SUCCESS;
  }

  simdjson::error_code walk(std::string_view json) {
    // simdjson reads up to SIMDJSON_PADDING bytes past the end: parse a padded copy.
    const size_t need = json.size() + simdjson::SIMDJSON_PADDING;
    if (scratch_.size() < need) scratch_.resize(need);
    std::memcpy(scratch_.data(), json.data(), json.size());
    std::memset(scratch_.data() + json.size(), 0, simdjson::SIMDJSON_PADDING);
    simdjson::ondemand::document doc;
    if (auto e = parser_.iterate(scratch_.data(), json.size(), scratch_.size()).get(doc)) return e;
    object obj;
    if (auto e = doc.get_object().get(obj)) return e;
    for (auto field : obj) {
      simdjson::ondemand::raw_json_string key;
      if (auto e = field.key().get(key)) return e;
      value fv;
      if (auto e = field.value().get(fv)) return e;
      simdjson::error_code e = simdjson::SUCCESS;
      if (key == "choices") {
        e = read_choices(fv);
      } else if (key == "usage") {
        e = read_usage(fv, &ex_);
      } else if (key == "error") {
        json_type et;
        if ((e = fv.type().get(et))) return e;
        if (et != json_type::null) e = read_error(fv);
      } else if (key == "object") {
        std::string_view o;
        e = opt_string(fv, &o);
        if (o == "error") ex_.object_is_error = true;
      } else if (key == "message") {
        e = opt_string(fv, &ex_.top_message);
      }
      if (e) return e;
    }
    // Trailing bytes after the top-level object mean the payload was not one JSON value.
    const char* loc = nullptr;
    if (doc.current_location().get(loc) == simdjson::SUCCESS) return simdjson::TRAILING_CONTENT;
    return simdjson::SUCCESS;
  }

  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    ex_ = Extract{};
    tool_text_.clear();
    if (simdjson::error_code e = walk(json)) {
      return set_malformed(json, rec, simdjson::error_message(e));
    }
    if (ex_.is_error || ex_.object_is_error) {
      return set_server_error(!ex_.error_message.empty() ? ex_.error_message : ex_.top_message,
                              json, rec);
    }
    if (ex_.has_usage) rec->usage = ex_.usage;
    if (ex_.has_finish) rec->finish_reason.assign(ex_.finish_reason);

    record::Chunk chunk;
    chunk.recv_ns = recv_ns;
    if (!ex_.content.empty() || !tool_text_.empty()) {
      chunk.kind = ex_.content.empty() ? record::ChunkKind::kToolCall : record::ChunkKind::kContent;
      chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
      rec->output_text.append(ex_.content);
      rec->output_text.append(tool_text_);
      chunk.text_bytes = static_cast<uint32_t>(rec->output_text.size() - chunk.text_offset);
      rec->reasoning_text.append(ex_.reasoning);
    } else if (!ex_.reasoning.empty()) {
      chunk.kind = record::ChunkKind::kReasoning;
      chunk.text_offset = static_cast<uint32_t>(rec->reasoning_text.size());
      rec->reasoning_text.append(ex_.reasoning);
      chunk.text_bytes = static_cast<uint32_t>(ex_.reasoning.size());
    } else if (ex_.has_usage) {
      chunk.kind = record::ChunkKind::kUsage;
      chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
    } else {
      chunk.kind = record::ChunkKind::kEmpty;
      chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
    }
    rec->chunks.push_back(chunk);
    return ParseStatus::kOk;
  }

  simdjson::ondemand::parser parser_;
  std::string scratch_;
  std::string tool_text_;
  Extract ex_;
};

}  // namespace

std::unique_ptr<EventParser> make_openai_event_parser() {
  return std::make_unique<OpenAiEventParser>();
}

}  // namespace servebench::endpoints
