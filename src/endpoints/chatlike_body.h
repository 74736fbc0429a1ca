// Request-body helpers shared by the chat-like types that are not OpenAI chat completions
// (`responses`, `messages`): a writer of JSON object members that leaves out every standard key
// an extra overrides and appends the extras last (AIPerf's `payload.update(extra)`), and the
// split of a turn's messages into the system text and the conversation.
//
// Thread safety: BodyWriter is a stack object used by one render_body call.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "endpoints/body_extras.h"
#include "endpoints/endpoint.h"
#include "endpoints/json_text.h"

namespace servebench::endpoints {

// Writes `{"key":value,...}` into *out: begin(key) writes the separator and `"key":` and returns
// true, or returns false (write nothing) when --extra-inputs or the turn's extras set `key`.
// finish() appends --extra-inputs, then the turn's extras, then '}'.
class BodyWriter {
 public:
  BodyWriter(const BodyExtras& base, const BodyExtras* later, std::string* out)
      : base_(base), later_(later), out_(out) {
    out_->push_back('{');
  }
  bool begin(std::string_view key) {
    if (either_has(base_, later_, key)) return false;
    if (!first_) out_->push_back(',');
    first_ = false;
    out_->push_back('"');
    out_->append(key);
    out_->append("\":");
    return true;
  }
  void finish() {
    base_.append_members(out_, &first_, later_);
    if (later_ != nullptr) later_->append_members(out_, &first_);
    out_->push_back('}');
  }

 private:
  const BodyExtras& base_;
  const BodyExtras* later_;
  std::string* out_;
  bool first_ = true;
};

// The turn's extras when it has any, else null.
inline const BodyExtras* turn_extras(const TurnPayload& turn) {
  return turn.extras != nullptr && !turn.extras->empty() ? turn.extras : nullptr;
}

// The contents of the turn's "system" messages joined by "\n" (the shared system prompt), and
// whether there was any.
inline bool system_text(const TurnPayload& turn, std::string* out) {
  bool any = false;
  for (const Message& m : turn.messages) {
    if (m.role != "system") continue;
    if (any) out->push_back('\n');
    out->append(m.content);
    any = true;
  }
  return any;
}

// Rough size of the turn's rendered messages, for reserve().
inline size_t turn_bytes(const TurnPayload& turn) {
  size_t n = 256;
  for (const Message& m : turn.messages) n += m.content.size() + m.role.size() + 64;
  return n;
}

// What the chat-like renderers keep from the options: --extra-inputs, the default model and the
// stream flag, all rendered once. render_body of a subclass opens the body with start() and
// writes the model and stream members with model_and_stream().
class ChatlikeEndpoint : public Endpoint {
 public:
  ChatlikeEndpoint(const EndpointOptions& options, BodyExtras extras)
      : extras_(std::move(extras)), stream_json_(options.streaming ? "true" : "false") {
    append_json_string(options.model, &default_model_json_);
  }

 protected:
  BodyWriter start(const TurnPayload& turn, std::string* out) const {
    out->reserve(turn_bytes(turn) + default_model_json_.size());
    return BodyWriter(extras_, turn_extras(turn), out);
  }
  void model_and_stream(BodyWriter& body, const TurnPayload& turn, std::string* out) const {
    if (body.begin("model")) {
      if (turn.model.empty()) {
        out->append(default_model_json_);
      } else {
        append_json_string(turn.model, out);
      }
    }
    if (body.begin("stream")) out->append(stream_json_);
  }

 private:
  BodyExtras extras_;
  std::string default_model_json_;
  const char* stream_json_;
};

// The factory of a ChatlikeEndpoint subclass: parses --extra-inputs once.
template <class T>
Result<std::unique_ptr<Endpoint>> make_chatlike_endpoint(const EndpointOptions& o) {
  auto extras = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
  if (!extras) return tl::unexpected(extras.error());
  return std::unique_ptr<Endpoint>(std::make_unique<T>(o, std::move(*extras)));
}

}  // namespace servebench::endpoints
