#include "rankings_route.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/rng.h"
#include "json_line.h"
#include "session.h"

namespace servebench::mock {

namespace {

using simdjson::dom::element;

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

const char* list_name(RankingsApi api) {
  switch (api) {
    case RankingsApi::kNim:
      return "passages";
    case RankingsApi::kTei:
      return "texts";
    case RankingsApi::kCohere:
      break;
  }
  return "documents";
}

// A passage: a string, or (NIM always, Cohere optionally) an object with a string `text`.
Result<std::string_view> passage_text(RankingsApi api, element v) {
  if (v.is_string() && api != RankingsApi::kNim) return v.get_string().value_unsafe();
  element text;
  if (api != RankingsApi::kTei && v.is_object() && v["text"].get(text) == simdjson::SUCCESS &&
      text.is_string())
    return text.get_string().value_unsafe();
  return tl::unexpected(bad(std::string("'") + list_name(api) + "' entries must be " +
                            (api == RankingsApi::kNim ? "{\"text\": string} objects" : "strings")));
}

// Score in micro-units: [-10, 10] from a hash of the pair.
long score_micro(uint64_t query_key, uint64_t passage_key) {
  uint64_t state = query_key ^ (passage_key * 0x9E3779B97F4A7C15ull);
  return static_cast<long>(core::splitmix64(&state) % 20'000'001) - 10'000'000;
}

void append_score(long micro, std::string* out) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof(buf), "%s%ld.%06ld", micro < 0 ? "-" : "",
                              std::labs(micro) / 1'000'000, std::labs(micro) % 1'000'000);
  out->append(buf, static_cast<size_t>(n));
}

}  // namespace

Result<RankingsRequest> parse_rankings_request(RankingsApi api, std::string_view body,
                                               const TokenCounter& counter) {
  simdjson::dom::parser parser;
  element doc;
  if (parser.parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS)
    return tl::unexpected(bad("request body is not valid JSON"));
  if (!doc.is_object()) return tl::unexpected(bad("request body must be a JSON object"));
  RankingsRequest out;
  element model;
  if (doc["model"].get(model) == simdjson::SUCCESS && model.is_string())
    out.model = std::string(model.get_string().value_unsafe());
  element query;
  if (doc["query"].get(query) != simdjson::SUCCESS)
    return tl::unexpected(bad("'query' is required"));
  std::string_view query_text;
  if (api == RankingsApi::kNim) {
    element text;
    if (!query.is_object() || query["text"].get(text) != simdjson::SUCCESS || !text.is_string())
      return tl::unexpected(bad("'query' must be an object with a string 'text'"));
    query_text = text.get_string().value_unsafe();
  } else {
    if (!query.is_string()) return tl::unexpected(bad("'query' must be a string"));
    query_text = query.get_string().value_unsafe();
  }
  out.query_key = core::fnv1a64(query_text);
  out.query_tokens = counter.count(query_text);
  const char* list = list_name(api);
  simdjson::dom::array passages;
  if (doc[list].get(passages) != simdjson::SUCCESS)
    return tl::unexpected(bad(std::string("'") + list + "' must be a list"));
  for (element p : passages) {
    auto text = passage_text(api, p);
    if (!text) return tl::unexpected(text.error());
    out.passage_keys.push_back(core::fnv1a64(*text));
    out.passage_tokens += counter.count(*text);
  }
  if (out.passage_keys.empty())
    return tl::unexpected(bad(std::string("'") + list + "' must not be empty"));
  element top_n;
  if (doc["top_n"].get(top_n) == simdjson::SUCCESS && !top_n.is_null()) {
    if (!top_n.is_int64() || top_n.get_int64().value_unsafe() < 0)
      return tl::unexpected(bad("'top_n' must be an integer >= 0"));
    out.top_n = top_n.get_int64().value_unsafe();
  }
  return out;
}

std::string rankings_body(RankingsApi api, const ResponseHead& head,
                          const RankingsRequest& request) {
  struct Ranked {
    size_t index;
    long micro;
  };
  std::vector<Ranked> ranked;
  ranked.reserve(request.passage_keys.size());
  for (size_t i = 0; i < request.passage_keys.size(); ++i)
    ranked.push_back({i, score_micro(request.query_key, request.passage_keys[i])});
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked& a, const Ranked& b) { return a.micro > b.micro; });
  if (request.top_n >= 0 && static_cast<size_t>(request.top_n) < ranked.size())
    ranked.resize(static_cast<size_t>(request.top_n));
  const char* score_key = api == RankingsApi::kNim   ? "logit"
                          : api == RankingsApi::kTei ? "score"
                                                     : "relevance_score";
  std::string out;
  out.reserve(128 + ranked.size() * 48);
  if (api == RankingsApi::kNim) out.append("{\"rankings\":");
  if (api == RankingsApi::kCohere) {
    out.append("{\"id\":");
    append_json_string(head.id, &out);
    out.append(",\"model\":");
    out.append(head.model_json);
    out.append(",\"results\":");
  }
  out.push_back('[');
  for (size_t i = 0; i < ranked.size(); ++i) {
    if (i) out.push_back(',');
    out.append("{\"index\":");
    append_json_int(static_cast<int64_t>(ranked[i].index), &out);
    out.append(",\"");
    out.append(score_key);
    out.append("\":");
    append_score(ranked[i].micro, &out);
    out.push_back('}');
  }
  out.push_back(']');
  if (api == RankingsApi::kNim) out.push_back('}');
  if (api == RankingsApi::kCohere) {
    out.append(",\"usage\":{\"prompt_tokens\":");
    append_json_int(request.prompt_tokens(), &out);
    out.append(",\"total_tokens\":");
    append_json_int(request.prompt_tokens(), &out);
    out.append("}}");
  }
  return out;
}

void Session::handle_rankings(RankingsApi api) {
  const auto& req = parser_->get();
  Generation g;
  if (!begin_generation(&g)) return;
  auto parsed = parse_rankings_request(api, req.body(), *state_.counter);
  if (!parsed) return answer_bad_request(parsed.error().message);
  uint64_t index = 0;
  core::Rng rng = draw_request(&g, &index);
  g.prompt_tokens = parsed->prompt_tokens();
  g.finish_reason = "stop";
  char id[64];
  std::snprintf(id, sizeof(id), "rank-%016llx%08llx",
                static_cast<unsigned long long>(state_.config.seed),
                static_cast<unsigned long long>(index));
  g.head.id = id;
  g.head.created_s = state_.anchor.to_wall_ns(g.received_ns) / 1'000'000'000;
  g.head.model_json = parsed->model.empty() ? state_.model_json : json_quote(parsed->model);
  g.prepared_body = rankings_body(api, g.head, *parsed);
  // The latency model's answer for zero output tokens: one event at TTFT.
  const int64_t due =
      g.received_ns + plan_events(g.knobs, g.prompt_tokens, 0, 0, rng).back().offset_ns;
  if (state_.record) {
    JsonLine r;
    record_line_head(g, parsed->model, &r);
    r.num("num_passages", static_cast<int64_t>(parsed->passage_keys.size()))
        .num("query_tokens", parsed->query_tokens)
        .num("passage_tokens", parsed->passage_tokens)
        .num("prompt_tokens", parsed->prompt_tokens())
        .str("x_request_id", g.x_request_id)
        .str("fault", fault_kind_name(g.fault))
        .str("id", g.head.id);
    state_.record->write_line(r.finish());
  }
  state_.metrics.prompt_tokens.fetch_add(g.prompt_tokens, std::memory_order_relaxed);
  gen_ = std::move(g);
  if (answer_http_fault()) return;
  wait_then(due, &Session::write_embeddings_response);  // the same one-piece answer
}

}  // namespace servebench::mock
