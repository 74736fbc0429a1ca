// Prompt flags (config/flag_table.h): how synthetic prompts are made and counted.
//   --apply-chat-template  ISL counted through the model's chat template (chat_template/), and
//                          synthetic prompts shortened by the template's overhead so the server's
//                          prompt_tokens equal the target (app/chat_template_isl.h).
//   --prompt-corpus        sonnet: the embedded prose corpus (dataset/embedded_corpus.h);
//                          coding is refused with exit 2 until a coding corpus is embedded.
#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

FlagSpec prompt_corpus_flag() {
  FlagSpec s = base("--prompt-corpus", "Synthetic prompt corpus: sonnet (prose) or coding",
                    "/input/prompt/corpus");
  s.apply = [](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    if (in.text == "coding") {
      return usage("--prompt-corpus coding is not supported yet; use sonnet (the prose corpus)");
    }
    if (in.text != "sonnet") {
      return usage("--prompt-corpus '" + in.text + "' is invalid; expected sonnet or coding");
    }
    c->prompt_corpus = in.text;
    return {};
  };
  s.to_json = [](const C& c) -> JsonValue {
    return c.prompt_corpus.empty() ? JsonValue(nullptr) : JsonValue(c.prompt_corpus);
  };
  return s;
}

}  // namespace

void add_prompts_flags(std::vector<FlagSpec>* out) {
  out->push_back(switch_flag("--apply-chat-template",
                             "Count ISL through the model's chat template and shorten synthetic "
                             "prompts by its overhead",
                             &C::apply_chat_template, "/tokenizer/apply_chat_template"));
  out->push_back(prompt_corpus_flag());
}

}  // namespace servebench::config
