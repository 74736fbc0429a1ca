#include "responses_api_route.h"

#include "media_shapes.h"

namespace servebench::mock {
namespace {

using chatlike::bad;
using simdjson::dom::element;

// The pieces of a response object every event and the body share.
struct ResponseWriter {
  const ResponseHead& head;

  // {"id":..,"object":"response","created_at":..,"status":..,["incomplete_details":..,]
  //  "model":..,"output":[<output>],"usage":<usage or null>}
  void response(std::string_view status, bool incomplete, std::string_view output,
                const ChatlikeUsage* usage, std::string* out) const {
    out->append("{\"id\":");
    append_json_string(head.id, out);
    out->append(",\"object\":\"response\",\"created_at\":");
    append_json_int(head.created_s, out);
    out->append(",\"status\":\"");
    out->append(status);
    out->append(incomplete ? "\",\"incomplete_details\":{\"reason\":\"max_output_tokens\"}"
                           : "\",\"incomplete_details\":null");
    out->append(",\"model\":");
    out->append(head.model_json);
    out->append(",\"output\":[");
    out->append(output);
    out->append("],\"usage\":");
    if (usage == nullptr) {
      out->append("null}");
      return;
    }
    out->append("{\"input_tokens\":");
    append_json_int(usage->prompt_tokens, out);
    out->append(",\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":");
    append_json_int(usage->completion_tokens, out);
    out->append(",\"output_tokens_details\":{\"reasoning_tokens\":");
    append_json_int(usage->reasoning_tokens, out);
    out->append("},\"total_tokens\":");
    append_json_int(usage->prompt_tokens + usage->completion_tokens, out);
    out->append("}}");
  }

  std::string item_id(bool reasoning) const {
    return (reasoning ? "rs_" : "msg_") + head.id.substr(head.id.find('_') + 1);
  }

  // A finished output item with its whole text.
  void item(bool reasoning, std::string_view text, std::string* out) const {
    out->append("{\"id\":");
    append_json_string(item_id(reasoning), out);
    if (reasoning) {
      out->append(",\"type\":\"reasoning\",\"summary\":[],\"content\":[");
      part(true, text, out);
      out->append("]}");
      return;
    }
    out->append(
        ",\"type\":\"message\",\"status\":\"completed\",\"role\":\"assistant\",\"content\":[");
    part(false, text, out);
    out->append("]}");
  }

  static void part(bool reasoning, std::string_view text, std::string* out) {
    out->append(reasoning ? "{\"type\":\"reasoning_text\",\"text\":"
                          : "{\"type\":\"output_text\",\"annotations\":[],\"text\":");
    append_json_string(text, out);
    out->push_back('}');
  }

  // Both items of an answer, reasoning first (when there is any).
  void output(std::string_view content, std::string_view reasoning, std::string* out) const {
    if (!reasoning.empty()) {
      item(true, reasoning, out);
      out->push_back(',');
    }
    item(false, content, out);
  }
};

class ResponsesStream final : public ChatlikeStream {
 public:
  explicit ResponsesStream(const ResponseHead& head) : head_(head), w_{head_} {}

  void open(int64_t /*prompt_tokens*/, std::string* out) override {
    std::string r;
    w_.response("in_progress", false, "", nullptr, &r);
    event("response.created", ",\"response\":" + r, out);
    event("response.in_progress", ",\"response\":" + r, out);
  }

  void token(std::string_view text, bool reasoning, std::string* out) override {
    if (!open_item_ || *open_item_ != reasoning) {
      if (open_item_) close_item(out);
      open_new_item(reasoning, out);
    }
    (reasoning ? reasoning_ : content_).append(text);
    std::string d = ids();
    d.append(",\"delta\":");
    append_json_string(text, &d);
    event(reasoning ? "response.reasoning_text.delta" : "response.output_text.delta", d, out);
  }

  void close(const char* finish_reason, const ChatlikeUsage& usage, std::string* out) override {
    if (open_item_ && *open_item_) close_item(out);  // the answer item always exists
    if (!open_item_ || *open_item_) open_new_item(false, out);
    close_item(out);
    const bool incomplete = std::string_view(finish_reason) == "length";
    std::string output, r;
    w_.output(content_, reasoning_, &output);
    w_.response(incomplete ? "incomplete" : "completed", incomplete, output, &usage, &r);
    event(incomplete ? "response.incomplete" : "response.completed", ",\"response\":" + r, out);
  }

  void error(std::string_view message, std::string* out) override {
    std::string d = ",\"code\":\"server_error\",\"message\":";
    append_json_string(message, &d);
    d.append(",\"param\":null");
    event("error", d, out);
  }

  std::string body(std::string_view content, std::string_view reasoning, const char* finish_reason,
                   const ChatlikeUsage& usage) const override {
    const bool incomplete = std::string_view(finish_reason) == "length";
    std::string output, out;
    w_.output(content, reasoning, &output);
    w_.response(incomplete ? "incomplete" : "completed", incomplete, output, &usage, &out);
    return out;
  }

 private:
  // "event: <type>\ndata: {"type":<type>,"sequence_number":n<rest>}\n\n"
  void event(std::string_view type, std::string_view rest, std::string* out) {
    std::string d = "{\"type\":\"";
    d.append(type);
    d.append("\",\"sequence_number\":");
    append_json_int(seq_++, &d);
    d.append(rest);
    d.push_back('}');
    append_named_event(type, d, out);
  }

  // ,"item_id":..,"output_index":n,"content_index":0
  std::string ids() const {
    std::string s = ",\"item_id\":";
    append_json_string(w_.item_id(*open_item_), &s);
    s.append(",\"output_index\":");
    append_json_int(output_index_, &s);
    s.append(",\"content_index\":0");
    return s;
  }

  void open_new_item(bool reasoning, std::string* out) {
    if (open_item_) ++output_index_;
    open_item_ = reasoning;
    std::string d = ",\"output_index\":";
    append_json_int(output_index_, &d);
    d.append(",\"item\":{\"id\":");
    append_json_string(w_.item_id(reasoning), &d);
    d.append(reasoning ? ",\"type\":\"reasoning\",\"summary\":[],\"content\":[]}"
                       : ",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\","
                         "\"content\":[]}");
    event("response.output_item.added", d, out);
    std::string p = ids();
    p.append(",\"part\":");
    ResponseWriter::part(reasoning, "", &p);
    event("response.content_part.added", p, out);
  }

  void close_item(std::string* out) {
    const bool reasoning = *open_item_;
    const std::string& text = reasoning ? reasoning_ : content_;
    std::string d = ids();
    d.append(",\"text\":");
    append_json_string(text, &d);
    event(reasoning ? "response.reasoning_text.done" : "response.output_text.done", d, out);
    std::string p = ids();
    p.append(",\"part\":");
    ResponseWriter::part(reasoning, text, &p);
    event("response.content_part.done", p, out);
    std::string i = ",\"output_index\":";
    append_json_int(output_index_, &i);
    i.append(",\"item\":");
    w_.item(reasoning, text, &i);
    event("response.output_item.done", i, out);
  }

  ResponseHead head_;
  ResponseWriter w_;
  std::optional<bool> open_item_;  // the item being streamed: true = reasoning
  int64_t output_index_ = 0;
  int64_t seq_ = 0;
  std::string content_, reasoning_;
};

Status add_item(element item, const TokenCounter& counter, ParsedRequest* r) {
  if (!item.is_object()) return tl::unexpected(bad("'input' items must be objects"));
  std::string_view type = "message";
  if (item["type"].get(type) != simdjson::SUCCESS) type = "message";  // EasyInputMessage
  if (type != "message") return core::ok_status();  // tool outputs, references: no text counted
  std::string_view role;
  if (item["role"].get(role) != simdjson::SUCCESS)
    return tl::unexpected(bad("each 'input' message needs a string 'role'"));
  element content;
  if (item["content"].get(content) != simdjson::SUCCESS)
    return tl::unexpected(bad("each 'input' message needs 'content'"));
  auto text = chatlike::content_text(content);
  if (!text) return tl::unexpected(text.error());
  if (auto st = collect_content_media(MediaApi::kResponses, content, &r->media); !st) return st;
  chatlike::add_message(role, *text, counter, r);
  return core::ok_status();
}

}  // namespace

Result<ParsedRequest> parse_responses_request(std::string_view body, const TokenCounter& counter) {
  thread_local simdjson::dom::parser parser;
  element doc;
  if (parser.parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS)
    return tl::unexpected(bad("invalid JSON in request body"));
  simdjson::dom::object obj;
  if (doc.get_object().get(obj) != simdjson::SUCCESS)
    return tl::unexpected(bad("request body must be a JSON object"));
  ParsedRequest r;
  r.include_usage = true;  // response.completed always carries usage
  std::string_view model;
  if (obj["model"].get(model) == simdjson::SUCCESS) r.model = std::string(model);
  if (auto s = chatlike::read_bool(obj, "stream", &r.stream); !s) return tl::unexpected(s.error());
  std::optional<int64_t> max_output;
  if (auto s = chatlike::read_int(obj, "max_output_tokens", &max_output); !s)
    return tl::unexpected(s.error());
  if (auto s = chatlike::finish_length(obj, max_output, &r); !s) return tl::unexpected(s.error());
  std::string_view instructions;
  if (obj["instructions"].get(instructions) == simdjson::SUCCESS)
    chatlike::add_message("system", instructions, counter, &r);
  element input;
  if (obj["input"].get(input) != simdjson::SUCCESS)
    return tl::unexpected(bad("'input' is required"));
  if (input.is_string()) {
    chatlike::add_message("user", input.get_string().value_unsafe(), counter, &r);
  } else if (input.is_array()) {
    const simdjson::dom::array items = input.get_array().value_unsafe();
    if (items.size() == 0) return tl::unexpected(bad("'input' must not be empty"));
    for (element item : items) {
      if (auto s = add_item(item, counter, &r); !s) return tl::unexpected(s.error());
    }
  } else {
    return tl::unexpected(bad("'input' must be a string or a list of items"));
  }
  return r;
}

std::unique_ptr<ChatlikeStream> make_responses_stream(const ResponseHead& head) {
  return std::make_unique<ResponsesStream>(head);
}

}  // namespace servebench::mock
