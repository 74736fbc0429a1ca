#include "generic_routes.h"

#include <simdjson.h>

#include "responses.h"

namespace servebench::mock {

namespace {

using simdjson::dom::element;

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

Result<simdjson::dom::object> parse_object(std::string_view body) {
  thread_local simdjson::dom::parser parser;
  element doc;
  if (parser.parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS)
    return tl::unexpected(bad("invalid JSON in request body"));
  simdjson::dom::object obj;
  if (doc.get_object().get(obj) != simdjson::SUCCESS)
    return tl::unexpected(bad("request body must be a JSON object"));
  return obj;
}

const char* tgi_finish(const char* openai_reason) {
  return std::string_view(openai_reason) == "stop" ? "eos_token" : "length";
}

}  // namespace

Result<ParsedRequest> parse_any_request(ApiKind kind, std::string_view body,
                                        const TokenCounter& counter) {
  switch (kind) {
    case ApiKind::kTgi:
      return parse_tgi_request(body, false, counter);
    case ApiKind::kTgiStream:
      return parse_tgi_request(body, true, counter);
    case ApiKind::kSolidoRag:
      return parse_solido_request(body, counter);
    case ApiKind::kChat:
    case ApiKind::kCompletions:
    case ApiKind::kResponses:
    case ApiKind::kMessages:
      break;
  }
  return parse_request(kind, body, counter);
}

Result<ParsedRequest> parse_tgi_request(std::string_view body, bool stream,
                                        const TokenCounter& counter) {
  auto obj = parse_object(body);
  if (!obj) return tl::unexpected(obj.error());
  ParsedRequest r;
  r.stream = stream;
  std::string_view inputs;
  if ((*obj)["inputs"].get(inputs) != simdjson::SUCCESS)
    return tl::unexpected(bad("'inputs' must be a string"));
  r.prompt_tokens = counter.count(inputs);
  r.message_prompt_tokens.push_back(r.prompt_tokens);
  element params;
  if ((*obj)["parameters"].get(params) == simdjson::SUCCESS && !params.is_null()) {
    simdjson::dom::object p;
    if (params.get_object().get(p) != simdjson::SUCCESS)
      return tl::unexpected(bad("'parameters' must be an object"));
    element max;
    if (p["max_new_tokens"].get(max) == simdjson::SUCCESS && !max.is_null()) {
      if (!max.is_int64() || max.get_int64().value_unsafe() < 1)
        return tl::unexpected(bad("'max_new_tokens' must be a positive integer"));
      r.requested_max_tokens = max.get_int64().value_unsafe();
    }
    bool details = false;
    if (p["details"].get(details) == simdjson::SUCCESS) r.include_usage = details;
  }
  r.length.max_tokens = r.requested_max_tokens;
  if (auto s = validate_length_request(r.length); !s) return tl::unexpected(s.error());
  return r;
}

Result<ParsedRequest> parse_solido_request(std::string_view body, const TokenCounter& counter) {
  auto obj = parse_object(body);
  if (!obj) return tl::unexpected(obj.error());
  ParsedRequest r;
  simdjson::dom::array query;
  if ((*obj)["query"].get(query) != simdjson::SUCCESS)
    return tl::unexpected(bad("'query' must be a list of strings"));
  for (element q : query) {
    std::string_view text;
    if (q.get_string().get(text) != simdjson::SUCCESS)
      return tl::unexpected(bad("'query' must be a list of strings"));
    r.message_prompt_tokens.push_back(counter.count(text));
    r.prompt_tokens += r.message_prompt_tokens.back();
  }
  std::string_view model;
  if ((*obj)["inference_model"].get(model) == simdjson::SUCCESS) r.model = std::string(model);
  return r;
}

void append_generic_token_event(ApiKind kind, int64_t index, std::string_view text,
                                const GenerationEnd* end, std::string* out) {
  if (kind == ApiKind::kSolidoRag) {
    out->append("data: {\"content\":");
    append_json_string(text, out);
    out->append("}\n\n");
    return;
  }
  out->append("data:{\"index\":");
  append_json_int(index + 1, out);
  out->append(",\"token\":{\"id\":");
  append_json_int(index + 1, out);
  out->append(",\"text\":");
  append_json_string(text, out);
  out->append(",\"logprob\":-0.5,\"special\":false},\"generated_text\":");
  if (end == nullptr) {
    out->append("null,\"details\":null}\n\n");
    return;
  }
  append_json_string(end->full_text, out);
  out->append(",\"details\":{\"finish_reason\":\"");
  out->append(tgi_finish(end->finish_reason));
  out->append("\",\"generated_tokens\":");
  append_json_int(end->generated_tokens, out);
  out->append(",\"seed\":null,\"input_length\":");
  append_json_int(end->prompt_tokens, out);
  out->append("}}\n\n");
}

void append_generic_error_event(ApiKind kind, std::string_view message, std::string* out) {
  out->append(kind == ApiKind::kSolidoRag ? "data: {\"error\":" : "data:{\"error\":");
  append_json_string(message, out);
  out->append(",\"error_type\":\"generation\"}\n\n");
}

std::string generic_body(ApiKind kind, const GenerationEnd& end, bool details) {
  std::string out;
  out.reserve(end.full_text.size() + 160);
  if (kind == ApiKind::kSolidoRag) {
    out.append("{\"content\":");
    append_json_string(end.full_text, &out);
    out.append(",\"sources\":[{\"title\":\"mock-source\",\"score\":1.0}]}");
    return out;
  }
  out.append("{\"generated_text\":");
  append_json_string(end.full_text, &out);
  if (details) {
    out.append(",\"details\":{\"finish_reason\":\"");
    out.append(tgi_finish(end.finish_reason));
    out.append("\",\"generated_tokens\":");
    append_json_int(end.generated_tokens, &out);
    out.append(",\"seed\":null,\"prefill\":[],\"tokens\":[]}");
  }
  out.push_back('}');
  return out;
}

}  // namespace servebench::mock
