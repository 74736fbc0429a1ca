// `huggingface_generate`: Hugging Face Text Generation Inference's native API. Non-streaming
// POST /generate, streaming POST /generate_stream (the path follows --streaming; the body is the
// same, as AIPerf sends it).
//
// Body (keys in this order):
//   {"inputs":"<the turn's texts joined by a space>",
//    "parameters":{"max_new_tokens":N,<--extra-inputs members>},<a row's own extras>}
// As AIPerf does, --extra-inputs go inside `parameters` (TGI's sampling options live there; one
// named max_new_tokens replaces the turn's) and an input row's `extra` goes at the top level.
//
// Parsing:
//   stream event  {"index":..,"token":{"id":..,"text":"..","logprob":..,"special":..},
//                  "generated_text":null|"..","details":null|{"finish_reason","generated_tokens",
//                  "seed","input_length"}}: token.text is the output of the event (the last
//                  event's generated_text repeats the whole answer and is never counted)
//   body          {"generated_text":"..","details":{..}} or [{"generated_text":..}] (the first)
//   details       finish_reason → RequestRecord::finish_reason; generated_tokens and
//                 input_length → usage completion and prompt tokens
//   errors        {"error":"..","error_type":".."} (TGI's error shape), `event: error`
#include <optional>

#include "endpoints/json_text.h"
#include "endpoints/json_walk.h"
#include "endpoints/registry.h"
#include "endpoints/single_turn_checks.h"

namespace servebench::endpoints {
namespace {

using json::error_code;
using json::raw_json_string;
using json::value;

constexpr std::string_view kGeneratePath = "/generate";
constexpr std::string_view kStreamPath = "/generate_stream";

class HfGenerateEndpoint final : public Endpoint {
 public:
  HfGenerateEndpoint(const EndpointOptions& options, BodyExtras parameters)
      : streaming_(options.streaming), parameters_(std::move(parameters)) {
    bool first = true;
    parameters_.append_members(&parameters_json_, &first);
  }

  std::string_view name() const override { return "huggingface_generate"; }
  std::string_view default_path() const override {
    return streaming_ ? kStreamPath : kGeneratePath;
  }

  std::string render_body(const TurnPayload& turn) const override {
    const BodyExtras* later =
        turn.extras != nullptr && !turn.extras->empty() ? turn.extras : nullptr;
    size_t bytes = parameters_json_.size() + 64;
    for (const Message& m : turn.messages) bytes += m.content.size() + 1;
    std::string out;
    out.reserve(bytes);
    out.push_back('{');
    bool first = true;
    auto sep = [&] {
      if (!first) out.push_back(',');
      first = false;
    };
    if (later == nullptr || !later->has("inputs")) {
      sep();
      out.append("\"inputs\":");
      std::string joined;
      for (size_t i = 0; i < turn.messages.size(); ++i) {
        if (i) joined.push_back(' ');
        joined.append(turn.messages[i].content);
      }
      append_json_string(joined, &out);
    }
    if (later == nullptr || !later->has("parameters")) {
      sep();
      out.append("\"parameters\":{");
      bool pfirst = true;
      if (turn.max_output_tokens >= 0 && !parameters_.has("max_new_tokens")) {
        out.append("\"max_new_tokens\":");
        out.append(std::to_string(turn.max_output_tokens));
        pfirst = false;
      }
      if (!parameters_json_.empty()) {
        if (!pfirst) out.push_back(',');
        out.append(parameters_json_);
      }
      out.push_back('}');
    }
    if (later != nullptr) later->append_members(&out, &first);
    out.push_back('}');
    return out;
  }

 private:
  bool streaming_;
  BodyExtras parameters_;
  std::string parameters_json_;  // "k":v,... of --extra-inputs, rendered once
};

// What one payload carried; views point into the walker's buffers.
struct Extract {
  bool has_token = false;
  std::string_view token_text;
  bool has_generated = false;
  std::string_view generated_text;
  std::string_view finish_reason;
  int64_t generated_tokens = -1;
  int64_t input_length = -1;
  json::ErrorFields error;
};

error_code read_details(value v, Extract* ex) {
  return json::for_each_field_if_object(v, [ex](raw_json_string k, value dv) -> error_code {
    if (k == "finish_reason") return json::opt_string(dv, &ex->finish_reason);
    if (k == "generated_tokens") return json::opt_int(dv, &ex->generated_tokens);
    if (k == "input_length") return json::opt_int(dv, &ex->input_length);
    return simdjson::SUCCESS;
  });
}

error_code read_field(raw_json_string key, value v, Extract* ex) {
  if (key == "token") {
    return json::for_each_field_if_object(v, [ex](raw_json_string k, value tv) -> error_code {
      if (!(k == "text")) return simdjson::SUCCESS;
      ex->has_token = true;
      return json::opt_string(tv, &ex->token_text);
    });
  }
  if (key == "generated_text") {
    json::json_type t;
    if (auto e = v.type().get(t)) return e;
    if (t != json::json_type::string) return simdjson::SUCCESS;
    ex->has_generated = true;
    return v.get_string().get(ex->generated_text);
  }
  if (key == "details") return read_details(v, ex);
  return json::read_error_field(key, v, &ex->error);
}

class HfGenerateParser final : public json::JsonEventParser<HfGenerateParser> {
 public:
  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    Extract ex;
    std::string_view doc = json;
    if (!doc.empty() && doc.front() == '[') {
      // TGI's compatibility route answers a one-element list: read its first object.
      auto first = first_object(doc);
      if (!first) return set_malformed(json, rec, "a list answer without a generated_text object");
      doc = *first;
    }
    const error_code e = walker_.walk_object(
        doc, [&ex](raw_json_string key, value v) { return read_field(key, v, &ex); });
    if (e) return set_malformed(json, rec, simdjson::error_message(e));
    if (ex.error.is_error) return set_server_error(ex.error.message(), json, rec);
    if (!ex.finish_reason.empty()) rec->finish_reason.assign(ex.finish_reason);
    if (ex.generated_tokens >= 0 || ex.input_length >= 0) {
      record::Usage u;
      u.completion_tokens = ex.generated_tokens;
      u.prompt_tokens = ex.input_length;
      if (u.prompt_tokens >= 0 && u.completion_tokens >= 0)
        u.total_tokens = u.prompt_tokens + u.completion_tokens;
      rec->usage = u;
    }
    // A stream's token.text, never its final generated_text (the whole answer again).
    const std::string_view text = ex.has_token ? ex.token_text : ex.generated_text;
    record::Chunk chunk;
    chunk.recv_ns = recv_ns;
    chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
    chunk.kind = text.empty() ? record::ChunkKind::kEmpty : record::ChunkKind::kContent;
    rec->output_text.append(text);
    chunk.text_bytes = static_cast<uint32_t>(text.size());
    rec->chunks.push_back(chunk);
    return ParseStatus::kOk;
  }

 private:
  // The text of the first element of a JSON list when it is an object (set-up of the rare
  // list-shaped body; the element's bounds are found by a bracket scan outside strings).
  static std::optional<std::string_view> first_object(std::string_view list) {
    size_t i = 1;
    while (i < list.size() &&
           (list[i] == ' ' || list[i] == '\n' || list[i] == '\r' || list[i] == '\t'))
      ++i;
    if (i >= list.size() || list[i] != '{') return std::nullopt;
    int depth = 0;
    bool in_string = false;
    for (size_t j = i; j < list.size(); ++j) {
      const char c = list[j];
      if (in_string) {
        if (c == '\\')
          ++j;
        else if (c == '"')
          in_string = false;
        continue;
      }
      if (c == '"')
        in_string = true;
      else if (c == '{' || c == '[')
        ++depth;
      else if ((c == '}' || c == ']') && --depth == 0)
        return list.substr(i, j + 1 - i);
    }
    return std::nullopt;
  }

  json::JsonWalker walker_;
};

Status check_hf_options(const OptionFacts& facts) {
  return check_single_text_turn("huggingface_generate", facts);
}

const EndpointSpec kHfGenerateSpec{
    .name = "huggingface_generate",
    .default_path = kGeneratePath,
    .capabilities = core::kCapStreams | core::kCapProducesTokens | core::kCapTokenizesInput,
    .metrics_title = "LLM Metrics",
    .artifact_name = "huggingface_generate",
    .batches_texts = false,
    .make_endpoint = [](const EndpointOptions& o) -> Result<std::unique_ptr<Endpoint>> {
      auto params = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
      if (!params) return tl::unexpected(params.error());
      return std::unique_ptr<Endpoint>(std::make_unique<HfGenerateEndpoint>(o, std::move(*params)));
    },
    .make_parser = []() -> std::unique_ptr<EventParser> {
      return std::make_unique<HfGenerateParser>();
    },
    .check = &check_hf_options,
};

const EndpointRegistrar kRegistrar{kHfGenerateSpec};

}  // namespace
}  // namespace servebench::endpoints
