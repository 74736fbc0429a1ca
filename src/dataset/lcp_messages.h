// LCP message plans for agent traces (weka_trace): how one chain of recorded calls becomes chat
// messages, AIPerf's "synthesis buffer" rule, so that a replayed prompt has the recorded
// conversation's shape (system, user, assistant, user, ...) and not one flat user message.
//
// Each call k has hash ids H_k and an input length in_k. With block size B its covered blocks are
// the first c_k = min(|H_k|, floor(in_k / B)) ids; the rest of the prompt, in_k − c_k·B tokens, is
// a filler tail (so every plan adds up to in_k tokens exactly).
//   call 0: a system message of ceil(prefix / B) blocks when the trace gives tool/system tokens
//           (prefix > 0; those blocks must be covered, else an error), then a user message of the
//           remaining covered blocks plus the tail.
//   call k: L = the longest common prefix of the previous and current covered ids. The previous
//           plan is cut at block L: messages wholly before L are kept; a message ending exactly at
//           L loses its filler tail; a message crossing L keeps its first blocks up to L; later
//           messages go. Of the new blocks [L, c_k), the first ceil(out_{k−1} / B) (out_{k−1} > 0,
//           at most all of them) are an assistant message (the recorded reply), the rest plus the
//           tail a user message (absent when it would be empty).
// A message's blocks are identified by their hash ids, so a block reads the same wherever it
// appears and a kept message is a text prefix of what the previous call sent.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::dataset {

struct LcpCall {
  const std::vector<int64_t>* hash_ids = nullptr;  // the call's recorded ids (not owned)
  int64_t input_tokens = 0;
  int64_t recorded_output_tokens = 0;  // the reply's recorded length (the next call's assistant)
};

struct PlannedMessage {
  std::string role;               // "system", "user" or "assistant"
  std::vector<int64_t> hash_ids;  // its blocks, in order
  int64_t tail_tokens = 0;        // filler after the blocks (only the last message has one)
  bool operator==(const PlannedMessage&) const = default;
};

// One plan per call, in order. `prefix_tokens` = tool_tokens + system_tokens of the chain's
// first call (0: no system message). `where` names the chain in errors.
Result<std::vector<std::vector<PlannedMessage>>> plan_lcp_messages(const std::vector<LcpCall>& calls,
                                                                    int64_t block_size, int64_t prefix_tokens,
                                                                    const std::string& where);

}  // namespace servebench::dataset
