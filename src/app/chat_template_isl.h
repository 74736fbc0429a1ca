// --apply-chat-template for synthetic and file workloads, as AIPerf does it: the model's chat
// template (chat_template/chat_template.h) is found next to the tokenizer, its overhead for one
// user message (the tokens it adds around the prompt, generation prompt included) is measured,
// synthetic prompts are drawn that much shorter, and every single-turn request's ISL is counted
// through the template on the messages actually sent, so it equals the server's prompt_tokens;
// multi-turn turns and cache-bust prompts are counted the same way when they are sent.
//
// Thread safety: set-up only (one thread, before t0).
#pragma once

#include <memory>
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

// Tokens of messages (roles[i], texts[i]) rendered through the template with the generation
// prompt; -1 when the lengths differ, there are none, or the template raises.
int64_t templated_message_tokens(const TemplateIsl& t, const tokenizer::Tokenizer& tok,
                                 const std::vector<std::string>& roles,
                                 const std::vector<std::string>& texts);

// Recounts every single-turn request whose ISL is known before t0 through the template, and sets
// out->input_counter so prompts known only at send time (multi-turn history, cache-bust
// markers) are counted through it too. `tok` must outlive the run's record processing.
void count_through_template(std::shared_ptr<const TemplateIsl> t, const tokenizer::Tokenizer& tok,
                            PreparedWorkload* out);

}  // namespace servebench::app
