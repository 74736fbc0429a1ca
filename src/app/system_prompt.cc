#include "app/system_prompt.h"

namespace servebench::app {

void add_system_prompt(const std::string& text, std::vector<endpoints::Message>* preamble) {
  if (text.empty()) return;
  if (!preamble->empty() && preamble->front().role == "system") {
    preamble->front().content = text + "\n\n" + preamble->front().content;
    return;
  }
  preamble->insert(preamble->begin(), endpoints::Message{"system", text});
}

}  // namespace servebench::app
