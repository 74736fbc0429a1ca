// `servebench chat`: one conversation with an OpenAI-compatible chat endpoint, a streamed turn
// at a time, with each turn's speed: TTFT, decode tokens/s, output tokens and latency. A sanity
// check before a benchmark, not a benchmark (one request at a time through the control client,
// control/control_client.h).
//
// Per turn: POST {model, messages, stream: true, stream_options: {include_usage: true}} to the
// chat path; the system prompt (if any), then the history (unless disabled), then the user's
// message. Timing follows the profile's definitions: TTFT from the request's start to the first
// SSE event carrying content or reasoning text (bytes timed as they arrive), latency to the end of
// the answer, output tokens = the tokenizer's count of the reply (content and reasoning text),
// tokens/s = (output tokens - 1) / (latency - TTFT), the decode rate (1 / ITL).
//
// Thread safety: a ChatSession is used by one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "tokenizer/tokenizer.h"

namespace servebench::app {

struct ChatOptions {
  std::string model;
  std::string url = "http://localhost:8000";  // base URL, /v1 base or the full chat URL
  std::string api_key;                        // Bearer token; "" = none
  std::string system_prompt;                  // "" = none
  bool history = true;                        // resend the conversation each turn
  int64_t timeout_ns = 600'000'000'000;
};

struct ChatTurn {
  std::string reply;             // content text (reasoning text when there is no content)
  int64_t ttft_ns = -1;          // -1: no text arrived
  int64_t latency_ns = 0;
  int64_t output_tokens = 0;     // tokenizer count of content + reasoning
  int64_t input_tokens = -1;     // the server's usage.prompt_tokens; -1 when not reported
  double tokens_per_s = 0;       // 0 with fewer than 2 output tokens
};

// "http://h:8000" → "http://h:8000/v1/chat/completions"; a /v1 base or a full chat URL is kept.
std::string chat_url(std::string url);

// One line: "TTFT 21.4 ms | 17 tokens | 512.3 tokens/s | latency 52.9 ms | ISL 12".
std::string format_turn(const ChatTurn& turn);

class ChatSession {
 public:
  ChatSession(ChatOptions options, std::shared_ptr<const tokenizer::Tokenizer> tok);

  // Sends `message`; `on_text` sees the reply's text as it streams. A transport failure, an HTTP
  // status other than 200 (with the start of the server's answer) or an SSE error event is an
  // error; the history is then unchanged.
  Result<ChatTurn> send(const std::string& message,
                        const std::function<void(std::string_view)>& on_text);

  size_t history_messages() const { return history_.size(); }

 private:
  std::string body(const std::string& message) const;

  ChatOptions options_;
  std::shared_ptr<const tokenizer::Tokenizer> tok_;
  std::vector<std::pair<std::string, std::string>> history_;  // role, content
};

}  // namespace servebench::app
