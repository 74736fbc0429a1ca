// ChatTemplate: a model's chat template (the Jinja source shipped with its tokenizer) and the
// special-token strings it refers to, rendered as Hugging Face's apply_chat_template(
// tokenize=False) renders it: variables messages, tools (None when absent), documents (None),
// add_generation_prompt, the tokenizer's special tokens (bos_token, eos_token, ...) and any
// extra keyword arguments.
//
// Where a template is found (find_chat_template): for a tokenizer folder (or a tokenizer.json
// inside one), chat_template.jinja, else tokenizer_config.json's "chat_template" (a string, or
// a list of {name, template} of which "default" is used); for a hub id, the same files in the
// cached snapshot (tokenizer/hub.h's cache layout).
//
// Thread safety: immutable after construction; render() may run on several threads.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "jinja/template.h"
#include "jinja/value.h"

namespace servebench::chat_template {

struct ChatMessage {
  std::string role;
  std::string content;
};

class ChatTemplate {
 public:
  // special_tokens: (name, text) pairs such as ("bos_token", "<s>").
  static core::Result<ChatTemplate> from_source(
      std::string source, std::vector<std::pair<std::string, std::string>> special_tokens,
      std::string origin);

  // messages and tools are lists of dicts (tools: None or Undefined when absent); kwargs a dict
  // or Undefined.
  core::Result<std::string> render(const jinja::Value& messages, const jinja::Value& tools,
                                   bool add_generation_prompt, const jinja::Value& kwargs,
                                   const jinja::RenderOptions& options = {}) const;
  core::Result<std::string> render_messages(const std::vector<ChatMessage>& messages,
                                            bool add_generation_prompt) const;

  const std::string& origin() const { return origin_; }
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::string origin_;
  jinja::Template template_;
  std::vector<std::pair<std::string, std::string>> special_tokens_;
};

// Reads the template from a tokenizer folder. kNotFound (naming the folder and the fix) when
// the folder has neither chat_template.jinja nor a chat_template in tokenizer_config.json.
core::Result<ChatTemplate> load_chat_template_dir(const std::string& dir);

// The template for a --tokenizer value (folder, tokenizer.json path, or a hub id found in the
// local hub cache at `revision`).
core::Result<ChatTemplate> find_chat_template(std::string_view tokenizer_spec,
                                              const std::string& revision);

}  // namespace servebench::chat_template
