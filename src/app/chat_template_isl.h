// --apply-chat-template for synthetic and file workloads, as AIPerf does it: the model's chat
// template (chat_template/chat_template.h) is found next to the tokenizer, its overhead for one
// user message (the tokens it adds around the prompt, generation prompt included) is measured,
// synthetic prompts are drawn that much shorter, and every single-turn request's ISL is counted
// through the template on the messages actually sent, so it equals the server's prompt_tokens.
//
// Thread safety: set-up only (one thread, before t0).
#pragma once

#include <optional>
#include <string>

#include "app/workload_setup.h"
#include "chat_template/chat_template.h"
#include "config/benchmark_config.h"
#include "tokenizer/tokenizer.h"

namespace servebench::app {

struct TemplateIsl {
  chat_template::ChatTemplate tmpl;
  int64_t overhead_tokens = 0;  // templated(user: p) - count(p), for a one-message request
};

// The template for cfg's tokenizer (--tokenizer, else the first --model) and its overhead;
// nullopt without --apply-chat-template. Errors (exit 2): no template found, a template that
// does not render a one-message chat, an endpoint type without chat messages.
Result<std::optional<TemplateIsl>> load_template_isl(const config::BenchmarkConfig& cfg,
                                                     const tokenizer::Tokenizer& tok,
                                                     bool chat_endpoint);

// Tokens of the rendered chat (add_generation_prompt=True) of a request body's "messages" (and
// "tools"); -1 when the body has no messages or the template raises.
int64_t templated_input_tokens(const TemplateIsl& t, const tokenizer::Tokenizer& tok,
                               const std::string& body);

// Recounts every single-turn request whose ISL is known before t0 through the template; adds a
// warning for what it cannot count (multi-turn sessions, cache-bust markers).
void count_through_template(const TemplateIsl& t, const tokenizer::Tokenizer& tok,
                            PreparedWorkload* out);

}  // namespace servebench::app
