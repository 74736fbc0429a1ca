#include "endpoints/detect_parser.h"

#include <simdjson.h>

#include "endpoints/jmespath_eval.h"
#include "endpoints/parse_errors.h"

namespace servebench::endpoints {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// What a payload yielded.
struct Found {
  bool any = false;
  std::string text;
  int64_t items = 0;
};

bool is_number(element e) { return e.is_int64() || e.is_uint64() || e.is_double(); }

// AIPerf's convert_to_response_data for one value.
bool convert(element v, Found* f) {
  std::string_view s;
  if (v.get_string().get(s) == simdjson::SUCCESS) {
    f->any = !s.empty();
    f->text.assign(s);
    return f->any;
  }
  array arr;
  if (v.get_array().get(arr) != simdjson::SUCCESS || arr.size() == 0) return false;
  element first = arr.at(0).value_unsafe();
  array inner;
  if (first.get_array().get(inner) == simdjson::SUCCESS && inner.size() > 0 &&
      is_number(inner.at(0).value_unsafe())) {
    f->items = static_cast<int64_t>(arr.size());
  } else if (is_number(first)) {
    f->items = 1;
  } else if (first.is_object()) {
    f->items = static_cast<int64_t>(arr.size());
  } else {
    return false;
  }
  f->any = true;
  return true;
}

// A projection's list: strings are joined, anything else is converted element-wise by kind.
bool convert(const JmesValue& v, Found* f) {
  if (v.kind == JmesValue::Kind::kElement) return convert(v.element, f);
  if (v.kind != JmesValue::Kind::kList || v.items.empty()) return false;
  const JmesValue& first = v.items.front();
  if (first.kind == JmesValue::Kind::kElement && first.element.is_string()) {
    for (const JmesValue& item : v.items) {
      std::string_view s;
      if (item.kind == JmesValue::Kind::kElement &&
          item.element.get_string().get(s) == simdjson::SUCCESS)
        f->text.append(s);
    }
    f->any = !f->text.empty();
    return f->any;
  }
  if (first.kind == JmesValue::Kind::kList ||
      (first.kind == JmesValue::Kind::kElement &&
       (first.element.is_array() || first.element.is_object()))) {
    f->items = static_cast<int64_t>(v.items.size());
    f->any = true;
    return true;
  }
  if (first.kind == JmesValue::Kind::kElement && is_number(first.element)) {
    f->items = 1;
    f->any = true;
    return true;
  }
  return false;
}

bool detect_embeddings(object obj, Found* f) {
  array data;
  if (obj["data"].get(data) == simdjson::SUCCESS && data.size() > 0) {
    object first;
    std::string_view kind;
    if (data.at(0).get(first) == simdjson::SUCCESS &&
        first["object"].get(kind) == simdjson::SUCCESS && kind == "embedding") {
      int64_t n = 0;
      for (element item : data) {
        object o;
        element emb;
        if (item.get(o) == simdjson::SUCCESS && o["embedding"].get(emb) == simdjson::SUCCESS) ++n;
      }
      if (n > 0) {
        f->items = n;
        f->any = true;
        return true;
      }
    }
  }
  for (const char* key : {"embeddings", "embedding"}) {
    array v;
    if (obj[key].get(v) != simdjson::SUCCESS || v.size() == 0) continue;
    element first = v.at(0).value_unsafe();
    if (is_number(first)) {
      f->items = 1;
    } else if (first.is_array()) {
      f->items = static_cast<int64_t>(v.size());
    } else {
      continue;
    }
    f->any = true;
    return true;
  }
  return false;
}

bool detect_rankings(object obj, Found* f) {
  for (const char* key : {"rankings", "results"}) {
    array v;
    if (obj[key].get(v) != simdjson::SUCCESS) continue;
    f->items = static_cast<int64_t>(v.size());
    f->any = true;
    return true;
  }
  return false;
}

bool detect_text(object obj, Found* f) {
  for (const char* key : {"text", "content", "response", "output", "result"}) {
    element v;
    if (obj[key].get(v) != simdjson::SUCCESS) continue;
    std::string_view s;
    if (v.get_string().get(s) == simdjson::SUCCESS) {
      f->text.assign(s);
      f->any = !s.empty();
      return true;
    }
    array parts;
    if (v.get_array().get(parts) == simdjson::SUCCESS && parts.size() > 0) {
      bool all_strings = true;
      for (element p : parts) all_strings &= p.is_string();
      if (!all_strings) continue;
      for (element p : parts) f->text.append(p.get_string().value_unsafe());
      f->any = !f->text.empty();
      return true;
    }
  }
  array choices;
  if (obj["choices"].get(choices) != simdjson::SUCCESS || choices.size() == 0) return false;
  object choice;
  if (choices.at(0).get(choice) != simdjson::SUCCESS) return false;
  std::string_view s;
  if (choice["text"].get(s) == simdjson::SUCCESS && !s.empty()) {
    f->text.assign(s);
    return f->any = true;
  }
  for (const char* key : {"message", "delta"}) {
    object m;
    if (choice[key].get(m) == simdjson::SUCCESS && m["content"].get(s) == simdjson::SUCCESS &&
        !s.empty()) {
      f->text.assign(s);
      return f->any = true;
    }
  }
  return false;
}

void auto_detect(element root, Found* f) {
  object obj;
  if (root.get_object().get(obj) != simdjson::SUCCESS) {
    convert(root, f);
    return;
  }
  if (detect_embeddings(obj, f)) return;
  if (detect_rankings(obj, f)) return;
  detect_text(obj, f);
}

int64_t read_count(object obj, const char* key) {
  element v;
  if (obj[key].get(v) != simdjson::SUCCESS) return -1;
  if (v.is_int64()) return v.get_int64().value_unsafe();
  if (v.is_double()) return static_cast<int64_t>(v.get_double().value_unsafe());
  return -1;
}

// Sets *message and returns true when the object is an error answer.
bool read_error(object obj, std::string_view* message) {
  element err;
  if (obj["error"].get(err) == simdjson::SUCCESS && !err.is_null()) {
    std::string_view s;
    object eo;
    if (err.get_string().get(s) == simdjson::SUCCESS) {
      *message = s;
    } else if (err.get_object().get(eo) == simdjson::SUCCESS &&
               eo["message"].get(s) == simdjson::SUCCESS) {
      *message = s;
    }
    return true;
  }
  std::string_view kind;
  if (obj["object"].get(kind) == simdjson::SUCCESS && kind == "error") {
    std::string_view m;
    if (obj["message"].get(m) == simdjson::SUCCESS) *message = m;
    return true;
  }
  return false;
}

class DetectParser final : public EventParser {
 public:
  DetectParser(std::shared_ptr<const JmesPath> field, FieldMiss miss)
      : field_(std::move(field)), miss_(miss) {}

  using EventParser::parse_event;
  ParseStatus parse_event(const SseEventView& event, int64_t recv_ns,
                          record::RequestRecord* rec) override {
    if (event.event == "error")
      return set_server_error("", event.data, rec, "server error event: ");
    const std::string_view payload = trim_json_space(event.data);
    if (payload == "[DONE]") return ParseStatus::kDone;
    if (payload.empty()) return ParseStatus::kOk;
    return parse(payload, recv_ns, /*whole_body=*/false, rec);
  }

  ParseStatus parse_body(std::string_view body, int64_t recv_ns,
                         record::RequestRecord* rec) override {
    const std::string_view payload = trim_json_space(body);
    if (payload.empty()) return set_malformed(body, rec, "empty response body");
    return parse(payload, recv_ns, /*whole_body=*/true, rec);
  }

 private:
  ParseStatus parse(std::string_view payload, int64_t recv_ns, bool whole_body,
                    record::RequestRecord* rec) {
    Found f;
    element root;
    bool has_usage = false;
    if (parser_.parse(payload.data(), payload.size()).get(root) != simdjson::SUCCESS) {
      // A payload that opens like JSON but does not parse is a broken answer (a truncated
      // document), not text; anything else is a plain-text answer.
      if (payload.front() == '{' || payload.front() == '[')
        return set_malformed(payload, rec, "invalid JSON");
      f.text.assign(payload);
      f.any = true;
    } else {
      object obj;
      if (root.get_object().get(obj) == simdjson::SUCCESS) {
        std::string_view message;
        if (read_error(obj, &message)) return set_server_error(message, payload, rec);
        has_usage = read_usage(obj, rec);
      }
      bool matched = false;
      if (field_ != nullptr) matched = convert(jmes_search(*field_, root), &f);
      if (!matched && field_ != nullptr && miss_ == FieldMiss::kError) {
        if (whole_body) {
          return set_malformed(payload, rec,
                               "response_field '" + field_->expression() +
                                   "' matched nothing usable in the response");
        }
      } else if (!matched) {
        f = Found{};
        auto_detect(root, &f);
      }
    }
    record::Chunk chunk;
    chunk.recv_ns = recv_ns;
    chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
    if (!f.text.empty()) {
      chunk.kind = record::ChunkKind::kContent;
      rec->output_text.append(f.text);
      chunk.text_bytes = static_cast<uint32_t>(f.text.size());
    } else {
      chunk.kind = has_usage ? record::ChunkKind::kUsage : record::ChunkKind::kEmpty;
    }
    if (f.items > 0) rec->output_items = (rec->output_items > 0 ? rec->output_items : 0) + f.items;
    rec->chunks.push_back(chunk);
    return ParseStatus::kOk;
  }

  static bool read_usage(object obj, record::RequestRecord* rec) {
    object u;
    if (obj["usage"].get(u) != simdjson::SUCCESS) return false;
    record::Usage usage;
    usage.prompt_tokens = read_count(u, "prompt_tokens");
    usage.completion_tokens = read_count(u, "completion_tokens");
    usage.total_tokens = read_count(u, "total_tokens");
    if (!usage.present()) return false;
    rec->usage = usage;
    return true;
  }

  std::shared_ptr<const JmesPath> field_;
  FieldMiss miss_;
  simdjson::dom::parser parser_;
};

}  // namespace

std::unique_ptr<EventParser> make_detect_parser(std::shared_ptr<const JmesPath> field,
                                                FieldMiss miss) {
  return std::make_unique<DetectParser>(std::move(field), miss);
}

}  // namespace servebench::endpoints
