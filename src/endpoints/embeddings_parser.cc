#include "endpoints/embeddings_parser.h"

#include <simdjson.h>

#include <cstring>

#include "endpoints/parse_errors.h"

namespace servebench::endpoints {

namespace {

using simdjson::ondemand::json_type;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

// What one body carried; views point into the parser's buffers.
struct Extract {
  int64_t items = -1;  // -1: no data array
  record::Usage usage;
  bool is_error = false;
  std::string_view error_message;
};

simdjson::error_code opt_int(value v, int64_t* out) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::number) return simdjson::SUCCESS;
  double d;
  if (auto e = v.get_double().get(d)) return e;
  *out = static_cast<int64_t>(d);
  return simdjson::SUCCESS;
}

simdjson::error_code count_items(value v, Extract* ex) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::array) return simdjson::SUCCESS;
  simdjson::ondemand::array arr;
  if (auto e = v.get_array().get(arr)) return e;
  int64_t n = 0;
  for (auto item : arr) {
    if (auto e = item.error()) return e;
    ++n;  // the vector itself is skipped, never decoded
  }
  ex->items = n;
  return simdjson::SUCCESS;
}

simdjson::error_code read_usage(value v, Extract* ex) {
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
    if (key == "prompt_tokens") {
      e = opt_int(fv, &ex->usage.prompt_tokens);
    } else if (key == "total_tokens") {
      e = opt_int(fv, &ex->usage.total_tokens);
    }
    if (e) return e;
  }
  return simdjson::SUCCESS;
}

simdjson::error_code read_error(value v, Extract* ex) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t == json_type::null) return simdjson::SUCCESS;
  ex->is_error = true;
  if (t == json_type::string) return v.get_string().get(ex->error_message);
  if (t != json_type::object) return simdjson::SUCCESS;
  object obj;
  if (auto e = v.get_object().get(obj)) return e;
  for (auto field : obj) {
    simdjson::ondemand::raw_json_string key;
    if (auto e = field.key().get(key)) return e;
    if (!(key == "message")) continue;
    value mv;
    if (auto e = field.value().get(mv)) return e;
    json_type mt;
    if (auto e = mv.type().get(mt)) return e;
    if (mt == json_type::string) {
      if (auto e = mv.get_string().get(ex->error_message)) return e;
    }
  }
  return simdjson::SUCCESS;
}

class EmbeddingsParser final : public EventParser {
 public:
  using EventParser::parse_event;
  ParseStatus parse_event(const SseEventView& event, int64_t recv_ns,
                          record::RequestRecord* rec) override {
    if (event.event == "error")
      return set_server_error("", event.data, rec, "server error event: ");
    std::string_view t = trim_json_space(event.data);
    if (t == "[DONE]") return ParseStatus::kDone;
    if (t.empty()) return ParseStatus::kOk;
    return parse(t, recv_ns, rec);
  }

  ParseStatus parse_body(std::string_view body, int64_t recv_ns,
                         record::RequestRecord* rec) override {
    std::string_view t = trim_json_space(body);
    if (t.empty()) return set_malformed(body, rec, "empty response body");
    return parse(t, recv_ns, rec);
  }

 private:
  simdjson::error_code walk(std::string_view json, Extract* ex) {
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
      if (key == "data") {
        e = count_items(fv, ex);
      } else if (key == "usage") {
        e = read_usage(fv, ex);
      } else if (key == "error") {
        e = read_error(fv, ex);
      } else if (key == "object") {
        std::string_view o;
        json_type ot;
        if ((e = fv.type().get(ot))) return e;
        if (ot == json_type::string && !(e = fv.get_string().get(o)) && o == "error")
          ex->is_error = true;
      } else if (key == "message" && ex->error_message.empty()) {
        json_type mt;
        if ((e = fv.type().get(mt))) return e;
        if (mt == json_type::string) e = fv.get_string().get(ex->error_message);
      }
      if (e) return e;
    }
    const char* loc = nullptr;
    if (doc.current_location().get(loc) == simdjson::SUCCESS) return simdjson::TRAILING_CONTENT;
    return simdjson::SUCCESS;
  }

  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    Extract ex;
    if (simdjson::error_code e = walk(json, &ex)) {
      return set_malformed(json, rec, simdjson::error_message(e));
    }
    if (ex.is_error) return set_server_error(ex.error_message, json, rec);
    if (ex.items < 0) return set_malformed(json, rec, "embeddings response without a data array");
    rec->output_items = (rec->output_items > 0 ? rec->output_items : 0) + ex.items;
    if (ex.usage.present()) rec->usage = ex.usage;
    record::Chunk chunk;
    chunk.recv_ns = recv_ns;
    chunk.kind = record::ChunkKind::kEmpty;
    chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
    rec->chunks.push_back(chunk);
    return ParseStatus::kOk;
  }

  simdjson::ondemand::parser parser_;
  std::string scratch_;
};

}  // namespace

std::unique_ptr<EventParser> make_embeddings_parser() {
  return std::make_unique<EmbeddingsParser>();
}

}  // namespace servebench::endpoints
