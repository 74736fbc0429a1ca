#include "app/chat_template_isl.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace servebench::app {
namespace {

// Probes of different shapes; the overhead is their median (a template that trims or a BPE merge
// across the template's text can shift one probe by a token).
constexpr const char* kProbes[] = {"Hello world", "The quick brown fox jumps over the lazy dog.",
                                   "x = compute(42)\nprint(x)"};

Result<int64_t> measure_overhead(const chat_template::ChatTemplate& tmpl,
                                 const tokenizer::Tokenizer& tok) {
  std::vector<int64_t> diffs;
  for (const char* probe : kProbes) {
    auto text = tmpl.render_messages({{"user", probe}}, true);
    if (!text) return tl::unexpected(text.error());
    diffs.push_back(static_cast<int64_t>(tok.count(*text)) - static_cast<int64_t>(tok.count(probe)));
  }
  std::sort(diffs.begin(), diffs.end());
  return std::max<int64_t>(0, diffs[diffs.size() / 2]);
}

}  // namespace

Result<std::optional<TemplateIsl>> load_template_isl(const config::BenchmarkConfig& cfg,
                                                     const tokenizer::Tokenizer& tok,
                                                     bool chat_endpoint) {
  if (!cfg.apply_chat_template) return std::optional<TemplateIsl>();
  if (!chat_endpoint) {
    return core::make_error(core::ErrorCode::kInvalidArgument,
                            "--apply-chat-template needs an endpoint type that sends chat "
                            "messages (e.g. --endpoint-type chat); drop it for '" +
                                cfg.endpoint_type + "'");
  }
  std::string spec = !cfg.tokenizer.empty() ? cfg.tokenizer
                     : cfg.models.empty()   ? std::string()
                                            : cfg.models.front();
  auto tmpl = chat_template::find_chat_template(spec, cfg.tokenizer_revision);
  if (!tmpl) return tl::unexpected(tmpl.error());
  auto overhead = measure_overhead(*tmpl, tok);
  if (!overhead) {
    return core::make_error(core::ErrorCode::kInvalidArgument,
                            "--apply-chat-template: " + overhead.error().message);
  }
  TemplateIsl t{std::move(*tmpl), *overhead};
  return std::optional<TemplateIsl>(std::move(t));
}

int64_t templated_input_tokens(const TemplateIsl& t, const tokenizer::Tokenizer& tok,
                               const std::string& body) {
  auto doc = nlohmann::ordered_json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("messages")) return -1;
  auto messages = jinja::value_from_json(doc["messages"].dump());
  if (!messages) return -1;
  jinja::Value tools = jinja::Value::none();
  if (doc.contains("tools")) {
    auto v = jinja::value_from_json(doc["tools"].dump());
    if (v) tools = *v;
  }
  auto text = t.tmpl.render(*messages, tools, true, jinja::Value::undefined());
  if (!text) return -1;
  return static_cast<int64_t>(tok.count(*text));
}

int64_t templated_message_tokens(const TemplateIsl& t, const tokenizer::Tokenizer& tok,
                                 const std::vector<std::string>& roles,
                                 const std::vector<std::string>& texts) {
  if (roles.size() != texts.size() || texts.empty()) return -1;
  std::vector<chat_template::ChatMessage> messages;
  messages.reserve(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) messages.push_back({roles[i], texts[i]});
  auto text = t.tmpl.render_messages(messages, true);
  if (!text) return -1;
  return static_cast<int64_t>(tok.count(*text));
}

void count_through_template(std::shared_ptr<const TemplateIsl> t, const tokenizer::Tokenizer& tok,
                            PreparedWorkload* out) {
  for (auto* list : {&out->requests, &out->warmup_requests}) {
    for (auto& r : *list) {
      if (r.input_tokens < 0) continue;  // counted at send time, by input_counter below
      int64_t n = templated_input_tokens(*t, tok, std::string(r.body_text()));
      if (n >= 0) r.input_tokens = n;
    }
  }
  // Multi-turn turns (history assembled at send time) and cache-bust prompts: their messages,
  // with roles, go through the template on the processor threads.
  out->input_counter = [t = std::move(t), tok = &tok](const record::RequestRecord& r) {
    return templated_message_tokens(*t, *tok, r.input_roles, r.input_texts);
  };
}

}  // namespace servebench::app
