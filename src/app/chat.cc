#include "app/chat.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "control/control_client.h"
#include "core/clock.h"
#include "transport/sse_parser.h"

namespace servebench::app {
namespace {

using Json = nlohmann::json;

// What the stream said, filled by the body callback.
struct Stream {
  transport::SseParser sse;
  int64_t start_ns = 0;
  int64_t first_text_ns = -1;
  std::string content, reasoning, error;
  int64_t prompt_tokens = -1;
  const std::function<void(std::string_view)>* on_text = nullptr;

  void on_event(const transport::SseEvent& ev) {
    if (ev.data == "[DONE]") return;
    const Json j = Json::parse(ev.data, nullptr, false);
    if (ev.event == "error" || (j.is_object() && j.contains("error"))) {
      error = std::string(ev.data.substr(0, 300));
      return;
    }
    if (!j.is_object()) return;
    if (auto u = j.find("usage"); u != j.end() && u->is_object())
      prompt_tokens = u->value("prompt_tokens", prompt_tokens);
    const auto ch = j.find("choices");
    if (ch == j.end() || !ch->is_array() || ch->empty()) return;
    const Json& delta = (*ch)[0].value("delta", Json::object());
    std::string text, think;
    if (auto c = delta.find("content"); c != delta.end() && c->is_string()) text = *c;
    for (const char* k : {"reasoning_content", "reasoning"})
      if (auto r = delta.find(k); r != delta.end() && r->is_string()) think += r->get<std::string>();
    if (text.empty() && think.empty()) return;
    if (first_text_ns < 0) first_text_ns = ev.recv_ns;
    content += text;
    reasoning += think;
    if (on_text && *on_text) (*on_text)(think + text);
  }
};

}  // namespace

std::string chat_url(std::string url) {
  if (url.find("://") == std::string::npos) url = "http://" + url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  auto ends = [&](std::string_view s) { return url.size() >= s.size() && url.ends_with(s); };
  if (ends("/chat/completions")) return url;
  if (ends("/v1")) return url + "/chat/completions";
  return url + "/v1/chat/completions";
}

std::string format_turn(const ChatTurn& t) {
  std::string out = t.ttft_ns >= 0 ? fmt::format("TTFT {:.1f} ms", t.ttft_ns / 1e6) : "TTFT -";
  out += fmt::format(" | {} tokens", t.output_tokens);
  if (t.tokens_per_s > 0) out += fmt::format(" | {:.1f} tokens/s", t.tokens_per_s);
  out += fmt::format(" | latency {:.1f} ms", t.latency_ns / 1e6);
  if (t.input_tokens >= 0) out += fmt::format(" | ISL {}", t.input_tokens);
  return out;
}

ChatSession::ChatSession(ChatOptions options, std::shared_ptr<const tokenizer::Tokenizer> tok)
    : options_(std::move(options)), tok_(std::move(tok)) {}

std::string ChatSession::body(const std::string& message) const {
  Json messages = Json::array();
  if (!options_.system_prompt.empty())
    messages.push_back({{"role", "system"}, {"content", options_.system_prompt}});
  for (const auto& [role, content] : history_)
    messages.push_back({{"role", role}, {"content", content}});
  messages.push_back({{"role", "user"}, {"content", message}});
  const Json j = {{"model", options_.model},
                  {"messages", std::move(messages)},
                  {"stream", true},
                  {"stream_options", {{"include_usage", true}}}};
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<ChatTurn> ChatSession::send(const std::string& message,
                                   const std::function<void(std::string_view)>& on_text) {
  const core::Clock& clock = core::SteadyClock::instance();
  Stream s;
  s.on_text = &on_text;
  control::ControlRequest req;
  req.method = control::Method::kPost;
  req.url = chat_url(options_.url);
  req.headers = {"Content-Type: application/json", "Accept: text/event-stream"};
  if (!options_.api_key.empty()) req.headers.push_back("Authorization: Bearer " + options_.api_key);
  req.body = body(message);
  req.timeout_ns = options_.timeout_ns;
  req.max_body_bytes = int64_t{64} << 20;
  req.on_body = [&](std::string_view bytes) {
    s.sse.feed(bytes, clock.now_ns(), [&](const transport::SseEvent& ev) { s.on_event(ev); });
  };
  s.start_ns = clock.now_ns();
  auto r = control::fetch_once(req);
  const int64_t end_ns = clock.now_ns();
  if (!r) return make_error(r.error().code, fmt::format("{}: {}", req.url, r.error().message));
  if (r->http_status != 200)
    return make_error(ErrorCode::kNetwork, fmt::format("{}: HTTP {}: {}", req.url, r->http_status,
                                                       r->body.substr(0, 300)));
  s.sse.finish(end_ns, [&](const transport::SseEvent& ev) { s.on_event(ev); });
  if (!s.error.empty())
    return make_error(ErrorCode::kNetwork, fmt::format("{}: error event: {}", req.url, s.error));
  ChatTurn t;
  t.reply = s.content.empty() ? s.reasoning : s.content;
  t.latency_ns = end_ns - s.start_ns;
  t.ttft_ns = s.first_text_ns < 0 ? -1 : s.first_text_ns - s.start_ns;
  t.output_tokens = static_cast<int64_t>(tok_->count(s.content) + tok_->count(s.reasoning));
  t.input_tokens = s.prompt_tokens;
  if (t.output_tokens > 1 && t.ttft_ns >= 0 && t.latency_ns > t.ttft_ns)
    t.tokens_per_s = static_cast<double>(t.output_tokens - 1) * 1e9 /
                     static_cast<double>(t.latency_ns - t.ttft_ns);
  if (options_.history) {
    history_.emplace_back("user", message);
    history_.emplace_back("assistant", t.reply);
  }
  return t;
}

}  // namespace servebench::app
