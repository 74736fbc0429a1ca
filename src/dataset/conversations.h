// Synthetic multi-turn conversations: AIPerf's synthetic composer (turns per session, inter-turn
// delays, per-turn ISL/OSL or a joint --sequence-distribution, prefix-prompt pool, shared system
// prompt, per-session user context), built with exact token counts before t0.
//
// Rules (AIPerf semantics; "positive normal integer" = max(1, round(mean)) when stddev <= 0,
// else max(1, ceil(normal(mean, stddev)))):
//   turns       per conversation: positive normal integer of (turns_mean, turns_stddev).
//   delays      turn 1 has none (-1). Turns 2..n, when delay_mean_ms > 0: positive normal integer
//               of (delay_mean_ms, delay_stddev_ms), times delay_ratio, in ms (AIPerf rounds up
//               to whole ms and floors at 1 before the ratio); when delay_mean_ms <= 0: -1.
//   ISL / OSL   per turn: with seq_dist, one joint draw (SequenceDistribution::draw); else ISL by
//               draw_length_tokens(isl_mean, isl_stddev, isl_range_ratio, style) and, when
//               osl_mean > 0, max_output_tokens likewise (else -1, the server decides).
//   prefix      prefix_pool_size prompts of exactly prefix_length tokens; each conversation draws
//               one uniformly and its FIRST turn only is "{prefix} {prompt}". The prompt is built
//               as a continuation, so that turn has exactly prefix_length + ISL tokens (AIPerf
//               joins separately decoded texts and can be off by one).
//   system      one text of exactly shared_system_prompt_length tokens, identical in every
//               conversation (the engine sends it as the system message).
//   context     a distinct text of exactly user_context_length tokens per conversation (the
//               engine sends it as a leading user message).
//   session_id  "synthetic-<i>", i from 0 (the ids the single-turn synthetic path uses).
// Each quantity has its own named core::Rng stream under `seed` ("conversation.turns",
// ".delay", ".isl", ".osl", ".seq_dist", ".prompt", ".prefix_pool", ".prefix_choice",
// ".system_prompt", ".user_context"), so enabling one feature never changes the draws of
// another. Same options and seed => identical output on any machine.
//
// Thread safety: a pure function of its arguments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "dataset/exact_prompts.h"
#include "dataset/sequence_distribution.h"
#include "dataset/synthetic_prompts.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset {

struct SyntheticTurn {
  std::string text;          // the user message (first turn: "{prefix} {prompt}" with a pool)
  int64_t input_tokens = 0;  // tok.count(text)
  int64_t target_input_tokens = 0;  // drawn ISL, without the prefix
  int64_t max_output_tokens = -1;   // -1: no max_tokens
  double delay_ms = -1;             // before this turn, after the previous reply; -1: none
};

struct SyntheticConversation {
  std::string session_id;
  std::string system_prompt;  // empty: none
  int64_t system_prompt_tokens = 0;
  std::string user_context;  // empty: none
  int64_t user_context_tokens = 0;
  int64_t prefix_index = -1;  // the pool prefix opening turns[0].text; -1: none
  size_t prefix_bytes = 0;    // its length in bytes (the joining space follows it)
  std::vector<SyntheticTurn> turns;
};

struct ConversationOptions {
  int64_t num_conversations = 100;
  double turns_mean = 1;
  double turns_stddev = 0;
  double delay_mean_ms = 0;
  double delay_stddev_ms = 0;
  double delay_ratio = 1.0;
  double isl_mean = 550;
  double isl_stddev = 0;
  double osl_mean = -1;  // <= 0: no max_tokens
  double osl_stddev = 0;
  double isl_range_ratio = -1;  // < 0: none
  double osl_range_ratio = -1;
  RangeRatioStyle range_ratio_style = RangeRatioStyle::kVllm;
  const SequenceDistribution* seq_dist = nullptr;  // when set, replaces the ISL/OSL options
  int64_t prefix_pool_size = 0;
  int64_t prefix_length = 0;                // tokens; a prefix pool needs both > 0
  int64_t shared_system_prompt_length = 0;  // tokens; 0: none
  int64_t user_context_length = 0;          // tokens; 0: none
  uint64_t seed = 0;
};

// REQUIRES: `builder` was created with `tok`.
// Errors (kInvalidArgument, one line naming the flag): negative counts or stddevs, a turn mean
// below 1, a negative delay ratio, a prefix length without a pool.
Result<std::vector<SyntheticConversation>> build_synthetic_conversations(
    const ExactPromptBuilder& builder, const tokenizer::Tokenizer& tok,
    const ConversationOptions& options);

}  // namespace servebench::dataset
