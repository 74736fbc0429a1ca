#include "embeddings_route.h"

#include <simdjson.h>

#include <cstdio>
#include <cstdlib>

#include "core/rng.h"
#include "json_line.h"
#include "media_shapes.h"
#include "session.h"

namespace servebench::mock {

namespace {

using simdjson::dom::element;

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

constexpr int kMaxDimensions = 4096;

// One input: a string, or a list of token ids.
Status add_input(element v, const TokenCounter& counter, EmbeddingsRequest* out) {
  if (v.is_string()) {
    const std::string_view text = v.get_string().value_unsafe();
    out->input_keys.push_back(core::fnv1a64(text));
    if (text.find("<img src='") == std::string_view::npos) {
      out->prompt_tokens += counter.count(text);
      return core::ok_status();
    }
    // NIM's multimodal input: the text outside the <img> tags is counted, the images decoded.
    if (auto st = collect_img_tags(text, &out->media); !st) return st;
    std::string words(text);
    for (size_t at; (at = words.find("<img src='")) != std::string::npos;)
      words.erase(at, words.find("'/>", at) + 3 - at);
    out->prompt_tokens += counter.count(words);
    return core::ok_status();
  }
  if (v.is_array()) {
    std::string ids;
    const simdjson::dom::array list = v.get_array().value_unsafe();  // range-for needs an lvalue
    for (element id : list) {
      if (!id.is_int64()) return tl::unexpected(bad("'input': token id lists must hold integers"));
      ids += std::to_string(id.get_int64().value_unsafe()) + ",";
      ++out->prompt_tokens;
    }
    out->input_keys.push_back(core::fnv1a64(ids));
    return core::ok_status();
  }
  return tl::unexpected(bad("'input' must be a string, a list of strings or a list of token ids"));
}

void append_component(uint64_t key, int d, std::string* out) {
  uint64_t state = key ^ (0x9E3779B97F4A7C15ull * static_cast<uint64_t>(d + 1));
  const uint64_t r = core::splitmix64(&state);
  const long micro = static_cast<long>(r % 2'000'001) - 1'000'000;  // [-1, 1] in 1e-6 steps
  char buf[32];
  const int n = std::snprintf(buf, sizeof(buf), "%s%ld.%06ld", micro < 0 ? "-" : "",
                              std::labs(micro) / 1'000'000, std::labs(micro) % 1'000'000);
  out->append(buf, static_cast<size_t>(n));
}

// A chat-shaped request (vLLM's chat embeddings): the whole conversation embeds to one vector;
// its prompt tokens are each message text's count (string contents and "text" parts).
Status add_messages(element messages, const TokenCounter& counter, EmbeddingsRequest* out) {
  simdjson::dom::array list;
  if (messages.get_array().get(list) != simdjson::SUCCESS)
    return tl::unexpected(bad("'messages' must be a list of messages"));
  std::string joined;
  for (element m : list) {
    element content;
    if (!m.is_object() || m["content"].get(content) != simdjson::SUCCESS)
      return tl::unexpected(bad("'messages' entries must be objects with a 'content'"));
    if (content.is_string()) {
      const std::string_view text = content.get_string().value_unsafe();
      out->prompt_tokens += counter.count(text);
      joined.append(text).push_back('\n');
      continue;
    }
    simdjson::dom::array parts;
    if (content.get_array().get(parts) != simdjson::SUCCESS)
      return tl::unexpected(bad("a message 'content' must be a string or a list of parts"));
    if (auto st = collect_content_media(MediaApi::kChat, content, &out->media); !st) return st;
    for (element part : parts) {
      element text;
      if (part.is_object() && part["text"].get(text) == simdjson::SUCCESS && text.is_string()) {
        out->prompt_tokens += counter.count(text.get_string().value_unsafe());
        joined.append(text.get_string().value_unsafe()).push_back('\n');
      }
    }
  }
  if (list.size() == 0) return tl::unexpected(bad("'messages' must not be empty"));
  out->input_keys.push_back(core::fnv1a64(joined));
  return core::ok_status();
}

}  // namespace

Result<EmbeddingsRequest> parse_embeddings_request(std::string_view body,
                                                   const TokenCounter& counter) {
  simdjson::dom::parser parser;
  element doc;
  if (parser.parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS)
    return tl::unexpected(bad("request body is not valid JSON"));
  if (!doc.is_object()) return tl::unexpected(bad("request body must be a JSON object"));
  EmbeddingsRequest out;
  element model;
  if (doc["model"].get(model) == simdjson::SUCCESS && model.is_string())
    out.model = std::string(model.get_string().value_unsafe());
  element input_type;
  if (doc["input_type"].get(input_type) == simdjson::SUCCESS && input_type.is_string())
    out.input_type = std::string(input_type.get_string().value_unsafe());
  element dims;
  if (doc["dimensions"].get(dims) == simdjson::SUCCESS && !dims.is_null()) {
    if (!dims.is_int64() || dims.get_int64().value_unsafe() < 1 ||
        dims.get_int64().value_unsafe() > kMaxDimensions)
      return tl::unexpected(bad("'dimensions' must be an integer from 1 to 4096"));
    out.dimensions = static_cast<int>(dims.get_int64().value_unsafe());
  }
  element input;
  if (doc["input"].get(input) != simdjson::SUCCESS) {
    element messages;
    if (doc["messages"].get(messages) != simdjson::SUCCESS)
      return tl::unexpected(bad("'input' (or chat-style 'messages') is required"));
    if (auto st = add_messages(messages, counter, &out); !st) return tl::unexpected(st.error());
    return out;
  }
  simdjson::dom::array list;
  const bool is_list = input.get_array().get(list) == simdjson::SUCCESS;
  element head;
  const bool id_list = is_list && list.at(0).get(head) == simdjson::SUCCESS && head.is_int64();
  if (is_list && !id_list) {
    for (element item : list) {
      if (auto st = add_input(item, counter, &out); !st) return tl::unexpected(st.error());
    }
  } else if (auto st = add_input(input, counter, &out); !st) {
    return tl::unexpected(st.error());
  }
  if (out.input_keys.empty()) return tl::unexpected(bad("'input' must not be empty"));
  return out;
}

std::string embeddings_body(const ResponseHead& head, const EmbeddingsRequest& request) {
  std::string out;
  out.reserve(128 +
              request.input_keys.size() * (48 + 10 * static_cast<size_t>(request.dimensions)));
  out.append("{\"id\":");
  append_json_string(head.id, &out);
  out.append(",\"object\":\"list\",\"created\":");
  append_json_int(head.created_s, &out);
  out.append(",\"model\":");
  out.append(head.model_json);
  out.append(",\"data\":[");
  for (size_t i = 0; i < request.input_keys.size(); ++i) {
    if (i) out.push_back(',');
    out.append("{\"index\":");
    append_json_int(static_cast<int64_t>(i), &out);
    out.append(",\"object\":\"embedding\",\"embedding\":[");
    for (int d = 0; d < request.dimensions; ++d) {
      if (d) out.push_back(',');
      append_component(request.input_keys[i], d, &out);
    }
    out.append("]}");
  }
  out.append("],\"usage\":{\"prompt_tokens\":");
  append_json_int(request.prompt_tokens, &out);
  out.append(",\"total_tokens\":");
  append_json_int(request.prompt_tokens, &out);
  out.append(",\"completion_tokens\":0,\"prompt_tokens_details\":null}}");
  return out;
}

void Session::handle_embeddings() {
  const auto& req = parser_->get();
  Generation g;
  if (!begin_generation(&g)) return;
  auto parsed = parse_embeddings_request(req.body(), *state_.counter);
  if (!parsed) return answer_bad_request(parsed.error().message);
  uint64_t index = 0;
  core::Rng rng = draw_request(&g, &index);
  g.prompt_tokens = parsed->prompt_tokens;
  g.finish_reason = "stop";
  char id[64];
  std::snprintf(id, sizeof(id), "embd-%016llx%08llx",
                static_cast<unsigned long long>(state_.config.seed),
                static_cast<unsigned long long>(index));
  g.head.id = id;
  g.head.created_s = state_.anchor.to_wall_ns(g.received_ns) / 1'000'000'000;
  g.head.model_json = parsed->model.empty() ? state_.model_json : json_quote(parsed->model);
  g.prepared_body = embeddings_body(g.head, *parsed);
  // The latency model's answer for zero output tokens: one event at TTFT.
  const int64_t due =
      g.received_ns + plan_events(g.knobs, g.prompt_tokens, 0, 0, rng).back().offset_ns;
  if (state_.record) {
    JsonLine r;
    record_line_head(g, parsed->model, &r);
    r.num("num_inputs", static_cast<int64_t>(parsed->input_keys.size()))
        .num("dimensions", parsed->dimensions)
        .num("prompt_tokens", parsed->prompt_tokens)
        .str("input_type", parsed->input_type)
        .raw("media", media_json(parsed->media))
        .str("x_request_id", g.x_request_id)
        .str("fault", fault_kind_name(g.fault))
        .str("id", g.head.id);
    state_.record->write_line(r.finish());
  }
  state_.metrics.prompt_tokens.fetch_add(g.prompt_tokens, std::memory_order_relaxed);
  gen_ = std::move(g);
  if (answer_http_fault()) return;
  wait_then(due, &Session::write_embeddings_response);
}

void Session::write_embeddings_response() {
  Generation& g = *gen_;
  if (g.fault == FaultKind::kReset) return apply_fault_reset();
  if (g.fault == FaultKind::kStall) return apply_fault_stall();
  write_whole_answer(std::move(g.prepared_body), 0);
}

}  // namespace servebench::mock
