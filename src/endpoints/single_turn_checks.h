// Option rules shared by the types that send one turn's texts without roles or history
// (huggingface_generate, solido_rag, template): a shared system prompt or a synthetic
// conversation has nowhere to go in their bodies, so they are refused with one line.
// Internal to src/endpoints/.
#pragma once

#include <string>
#include <string_view>

#include "endpoints/registry.h"

namespace servebench::endpoints {

inline Status check_single_text_turn(std::string_view type, const OptionFacts& facts) {
  const std::string t(type);
  if (facts.shared_prompts) {
    return make_error(
        ErrorCode::kInvalidArgument,
        "--shared-system-prompt-length/--user-context-prompt-length: endpoint type '" + t +
            "' sends one turn's texts without roles; drop them");
  }
  if (facts.multi_turn) {
    return make_error(ErrorCode::kInvalidArgument, "--session-turns-mean: endpoint type '" + t +
                                                       "' has no conversation history; use 1 turn");
  }
  return {};
}

}  // namespace servebench::endpoints
