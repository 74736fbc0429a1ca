// What every JSON response parser in src/endpoints/ does the same way, on simdjson's on-demand
// API: the padded copy a document is parsed from, one pass over an object's fields, optional
// field readers, the `usage` object, the error object, and the steps an SSE event or a whole
// body goes through before its JSON is walked (JsonEventParser). Internal to src/endpoints/
// (it names simdjson types, which stay inside the module).
//
// The readers run once per field on the per-event path, so they live here and the small ones
// are forced inline: called out of line from another file they cost the chat parser 25-45% per
// event (bench_sse_events). They never allocate: strings they return are views into the
// JsonWalker's buffers and live until its next walk. A reader that meets a value of another
// type than the one it reads leaves its output unchanged and succeeds; only invalid JSON is an
// error.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "endpoints/endpoint.h"
#include "endpoints/parse_errors.h"
#include "record/request_record.h"

namespace servebench::endpoints::json {

using simdjson::error_code;
using simdjson::ondemand::json_type;
using simdjson::ondemand::object;
using simdjson::ondemand::raw_json_string;
using simdjson::ondemand::value;

// Calls on_field(raw_json_string key, value v) -> error_code for each field of `obj`, in the
// order the server wrote them, and stops at the first error. A field the callback does not
// read is skipped without being decoded.
template <class Fn>
[[gnu::always_inline]] inline error_code for_each_field(object obj, Fn&& on_field) {
  for (auto field : obj) {
    raw_json_string key;
    if (auto e = field.key().get(key)) return e;
    value v;
    if (auto e = field.value().get(v)) return e;
    if (auto e = on_field(key, v)) return e;
  }
  return simdjson::SUCCESS;
}

// for_each_field over `v` when it is an object; any other type is skipped.
template <class Fn>
[[gnu::always_inline]] inline error_code for_each_field_if_object(value v, Fn&& on_field) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::object) return simdjson::SUCCESS;
  object obj;
  if (auto e = v.get_object().get(obj)) return e;
  return for_each_field(obj, on_field);
}

// Reads a string if `v` is one.
[[gnu::always_inline]] inline error_code opt_string(value v, std::string_view* out) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::string) return simdjson::SUCCESS;
  return v.get_string().get(*out);
}
// Reads a number if `v` is one (a double is truncated: some servers write "12.0"); a number
// beyond int64's range leaves *out unchanged.
[[gnu::always_inline]] inline error_code opt_int(value v, int64_t* out) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::number) return simdjson::SUCCESS;
  double d;
  if (auto e = v.get_double().get(d)) return e;
  // Out of int64's range (or NaN) the cast would be undefined: such a value counts as absent.
  if (d > -9.2e18 && d < 9.2e18) *out = static_cast<int64_t>(d);
  return simdjson::SUCCESS;
}

// The number of entries of `v` into *items when it is an array (each entry skipped, never
// decoded); anything else leaves *items as it was.
inline error_code count_array(value v, int64_t* items) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::array) return simdjson::SUCCESS;
  simdjson::ondemand::array arr;
  if (auto e = v.get_array().get(arr)) return e;
  int64_t n = 0;
  for (auto item : arr) {
    if (auto e = item.error()) return e;
    ++n;
  }
  *items = n;
  return simdjson::SUCCESS;
}

// Reads a vendor usage object (OpenAI `usage`, Gemini `usageMetadata`, Anthropic, DeepSeek,
// Bedrock, Cohere shapes) into *out, normalised by the rules in usage_fields.h. Only the counts
// found are written. Out of line (usage_fields.cc): usage objects are rare on the event path.
error_code read_usage_object(value v, record::Usage* out);

// read_usage_object when `v` is an object; anything else (vLLM writes "usage":null on every
// chunk) writes nothing and is checked here, inline, at the cost of one type test.
[[gnu::always_inline]] inline error_code read_usage(value v, record::Usage* out) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::object) return simdjson::SUCCESS;
  return read_usage_object(v, out);
}

// What marks a payload as a server error, gathered from its top-level fields.
struct ErrorFields {
  bool is_error = false;            // a non-null "error", or "object":"error"
  std::string_view error_message;   // error.message, or "error" itself when it is a string
  std::string_view top_message;     // a top-level "message" (vLLM's {"object":"error",...})

  std::string_view message() const { return error_message.empty() ? top_message : error_message; }
};

// Reads the top-level field `key` into *out when it is "error", "object" or "message"; any other
// field is left alone. Call it from the walk of the top-level object.
inline error_code read_error_field(raw_json_string key, value v, ErrorFields* out) {
  if (key == "error") {
    json_type t;
    if (auto e = v.type().get(t)) return e;
    if (t == json_type::null) return simdjson::SUCCESS;
    out->is_error = true;
    if (t == json_type::string) return v.get_string().get(out->error_message);
    return for_each_field_if_object(v, [out](raw_json_string k, value mv) -> error_code {
      return k == "message" ? opt_string(mv, &out->error_message) : simdjson::SUCCESS;
    });
  }
  if (key == "object") {
    std::string_view o;
    if (auto e = opt_string(v, &o)) return e;
    if (o == "error") out->is_error = true;
    return simdjson::SUCCESS;
  }
  if (key == "message") return opt_string(v, &out->top_message);
  return simdjson::SUCCESS;
}

// Owns the simdjson parser and the padded copy of the payload; one per EventParser (so one
// per worker thread). Not thread-safe.
class JsonWalker {
 public:
  // Parses `json`, which must be one JSON object, calling on_field(key, value) for each of its
  // top-level fields; bytes after the object are an error (TRAILING_CONTENT). Views taken
  // during the walk stay valid until the next call.
  template <class Fn>
  error_code walk_object(std::string_view json, Fn&& on_field) {
    simdjson::ondemand::document doc;
    if (auto e = iterate(json, &doc)) return e;
    object obj;
    if (auto e = doc.get_object().get(obj)) return e;
    if (auto e = for_each_field(obj, on_field)) return e;
    // Trailing bytes after the top-level object mean the payload was not one JSON value.
    const char* loc = nullptr;
    if (doc.current_location().get(loc) == simdjson::SUCCESS) return simdjson::TRAILING_CONTENT;
    return simdjson::SUCCESS;
  }

  // Parses `json`, which must be one JSON array or object, calling on_root(value) with it (for
  // answers whose top level may be a list, such as TEI's /rerank). Same trailing-bytes rule and
  // view lifetimes as walk_object.
  template <class Fn>
  error_code walk_root(std::string_view json, Fn&& on_root) {
    simdjson::ondemand::document doc;
    if (auto e = iterate(json, &doc)) return e;
    value root;
    if (auto e = doc.get_value().get(root)) return e;
    if (auto e = on_root(root)) return e;
    const char* loc = nullptr;
    if (doc.current_location().get(loc) == simdjson::SUCCESS) return simdjson::TRAILING_CONTENT;
    return simdjson::SUCCESS;
  }

 private:
  error_code iterate(std::string_view json, simdjson::ondemand::document* doc);

  simdjson::ondemand::parser parser_;
  std::string scratch_;  // grows to the largest payload seen, then is reused
};

// The EventParser of a JSON payload: the steps before the JSON is walked, the same for every
// type, then Derived::parse(json, recv_ns, rec) on the trimmed payload (static dispatch: no
// second virtual call per event).
//   event: an `event: error` is a server error quoting its data; "[DONE]" ends the stream; an
//          empty payload (keep-alive) is kOk with nothing recorded.
//   body:  an empty body is malformed.
template <class Derived>
class JsonEventParser : public EventParser {
 public:
  using EventParser::parse_event;
  ParseStatus parse_event(const SseEventView& event, int64_t recv_ns,
                          record::RequestRecord* rec) final {
    if (event.event == "error") {
      return set_server_error("", event.data, rec, "server error event: ");
    }
    const std::string_view payload = trim_json_space(event.data);
    if (payload == "[DONE]") return ParseStatus::kDone;
    if (payload.empty()) return ParseStatus::kOk;
    return static_cast<Derived*>(this)->parse(payload, recv_ns, rec);
  }

  ParseStatus parse_body(std::string_view body, int64_t recv_ns,
                         record::RequestRecord* rec) final {
    const std::string_view payload = trim_json_space(body);
    if (payload.empty()) return set_malformed(body, rec, "empty response body");
    return static_cast<Derived*>(this)->parse(payload, recv_ns, rec);
  }
};

}  // namespace servebench::endpoints::json
