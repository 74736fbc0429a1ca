#include "messages_route.h"

#include "media_shapes.h"

namespace servebench::mock {
namespace {

using chatlike::bad;
using simdjson::dom::element;

// A fixed stand-in for the signature Anthropic sends at the end of a thinking block.
constexpr std::string_view kSignature = "bW9jay1zaWduYXR1cmU=";

const char* stop_reason(const char* finish_reason) {
  return std::string_view(finish_reason) == "length" ? "max_tokens" : "end_turn";
}

void append_usage(int64_t input, int64_t output, std::string* out) {
  out->append("{\"input_tokens\":");
  append_json_int(input, out);
  out->append(
      ",\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":");
  append_json_int(output, out);
  out->push_back('}');
}

// {"id":..,"type":"message","role":"assistant","model":..,"content":[<content>],
//  "stop_reason":..,"stop_sequence":null,"usage":..}
void append_message(const ResponseHead& head, std::string_view content, const char* stop,
                    int64_t input, int64_t output, std::string* out) {
  out->append("{\"id\":");
  append_json_string(head.id, out);
  out->append(",\"type\":\"message\",\"role\":\"assistant\",\"model\":");
  out->append(head.model_json);
  out->append(",\"content\":[");
  out->append(content);
  out->append("],\"stop_reason\":");
  if (stop == nullptr) {
    out->append("null");
  } else {
    append_json_string(stop, out);
  }
  out->append(",\"stop_sequence\":null,\"usage\":");
  append_usage(input, output, out);
  out->push_back('}');
}

void event(std::string_view type, std::string_view rest, std::string* out) {
  std::string d = "{\"type\":\"";
  d.append(type);
  d.push_back('"');
  d.append(rest);
  d.push_back('}');
  append_named_event(type, d, out);
}

class MessagesStream final : public ChatlikeStream {
 public:
  explicit MessagesStream(const ResponseHead& head) : head_(head) {}

  void open(int64_t prompt_tokens, std::string* out) override {
    std::string m;
    append_message(head_, "", nullptr, prompt_tokens, 1, &m);
    event("message_start", ",\"message\":" + m, out);
    event("ping", "", out);
  }

  void token(std::string_view text, bool reasoning, std::string* out) override {
    if (!block_ || *block_ != reasoning) {
      if (block_) stop_block(out);
      start_block(reasoning, out);
    }
    std::string d = index_json();
    d.append(reasoning ? ",\"delta\":{\"type\":\"thinking_delta\",\"thinking\":"
                       : ",\"delta\":{\"type\":\"text_delta\",\"text\":");
    append_json_string(text, &d);
    d.push_back('}');
    event("content_block_delta", d, out);
  }

  void close(const char* finish_reason, const ChatlikeUsage& usage, std::string* out) override {
    if (!block_) start_block(false, out);  // no token events: an empty text block
    stop_block(out);
    std::string d = ",\"delta\":{\"stop_reason\":";
    append_json_string(stop_reason(finish_reason), &d);
    d.append(",\"stop_sequence\":null},\"usage\":{\"output_tokens\":");
    append_json_int(usage.completion_tokens, &d);
    d.push_back('}');
    event("message_delta", d, out);
    event("message_stop", "", out);
  }

  void error(std::string_view message, std::string* out) override {
    std::string d = ",\"error\":{\"type\":\"api_error\",\"message\":";
    append_json_string(message, &d);
    d.push_back('}');
    event("error", d, out);
  }

  std::string body(std::string_view content, std::string_view reasoning, const char* finish_reason,
                   const ChatlikeUsage& usage) const override {
    std::string blocks;
    if (!reasoning.empty()) {
      blocks.append("{\"type\":\"thinking\",\"thinking\":");
      append_json_string(reasoning, &blocks);
      blocks.append(",\"signature\":");
      append_json_string(kSignature, &blocks);
      blocks.append("},");
    }
    blocks.append("{\"type\":\"text\",\"text\":");
    append_json_string(content, &blocks);
    blocks.push_back('}');
    std::string out;
    append_message(head_, blocks, stop_reason(finish_reason), usage.prompt_tokens,
                   usage.completion_tokens, &out);
    return out;
  }

 private:
  std::string index_json() const {
    std::string s = ",\"index\":";
    append_json_int(index_, &s);
    return s;
  }

  void start_block(bool reasoning, std::string* out) {
    if (block_) ++index_;
    block_ = reasoning;
    std::string d = index_json();
    d.append(reasoning ? ",\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\","
                         "\"signature\":\"\"}"
                       : ",\"content_block\":{\"type\":\"text\",\"text\":\"\"}");
    event("content_block_start", d, out);
  }

  void stop_block(std::string* out) {
    if (*block_) {
      std::string s = index_json();
      s.append(",\"delta\":{\"type\":\"signature_delta\",\"signature\":");
      append_json_string(kSignature, &s);
      s.push_back('}');
      event("content_block_delta", s, out);
    }
    event("content_block_stop", index_json(), out);
  }

  ResponseHead head_;
  std::optional<bool> block_;  // the block being streamed: true = thinking
  int64_t index_ = 0;
};

Status add_message_item(element m, const TokenCounter& counter, ParsedRequest* r) {
  if (!m.is_object()) return tl::unexpected(bad("each message must be an object"));
  std::string_view role;
  if (m["role"].get(role) != simdjson::SUCCESS)
    return tl::unexpected(bad("each message needs a string 'role'"));
  element content;
  if (m["content"].get(content) != simdjson::SUCCESS)
    return tl::unexpected(bad("each message needs 'content'"));
  auto text = chatlike::content_text(content);
  if (!text) return tl::unexpected(text.error());
  if (auto st = collect_content_media(MediaApi::kAnthropic, content, &r->media); !st) return st;
  chatlike::add_message(role, *text, counter, r);
  return core::ok_status();
}

}  // namespace

Result<ParsedRequest> parse_messages_request(std::string_view body, const TokenCounter& counter) {
  thread_local simdjson::dom::parser parser;
  element doc;
  if (parser.parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS)
    return tl::unexpected(bad("invalid JSON in request body"));
  simdjson::dom::object obj;
  if (doc.get_object().get(obj) != simdjson::SUCCESS)
    return tl::unexpected(bad("request body must be a JSON object"));
  ParsedRequest r;
  r.include_usage = true;  // message_start and message_delta always carry usage
  std::string_view model;
  if (obj["model"].get(model) == simdjson::SUCCESS) r.model = std::string(model);
  if (auto s = chatlike::read_bool(obj, "stream", &r.stream); !s) return tl::unexpected(s.error());
  std::optional<int64_t> max_tokens;
  if (auto s = chatlike::read_int(obj, "max_tokens", &max_tokens); !s)
    return tl::unexpected(s.error());
  if (!max_tokens) return tl::unexpected(bad("max_tokens: Field required"));
  if (auto s = chatlike::finish_length(obj, max_tokens, &r); !s) return tl::unexpected(s.error());
  element system;
  if (obj["system"].get(system) == simdjson::SUCCESS && !system.is_null()) {
    auto text = chatlike::content_text(system);
    if (!text) return tl::unexpected(bad("'system' must be a string or a list of text blocks"));
    chatlike::add_message("system", *text, counter, &r);
  }
  simdjson::dom::array msgs;
  if (obj["messages"].get(msgs) != simdjson::SUCCESS || msgs.size() == 0)
    return tl::unexpected(bad("'messages' must be a non-empty list"));
  for (element m : msgs) {
    if (auto s = add_message_item(m, counter, &r); !s) return tl::unexpected(s.error());
  }
  return r;
}

std::unique_ptr<ChatlikeStream> make_messages_stream(const ResponseHead& head) {
  return std::make_unique<MessagesStream>(head);
}

}  // namespace servebench::mock
