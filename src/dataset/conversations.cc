#include "dataset/conversations.h"

#include <fmt/format.h>

#include <unordered_set>

#include "core/interrupt.h"
#include "core/rng.h"

namespace servebench::dataset {
namespace {

Status validate(const ConversationOptions& o) {
  auto bad = [](std::string message) {
    return make_error(ErrorCode::kInvalidArgument, std::move(message));
  };
  if (o.num_conversations < 0)
    return bad(
        fmt::format("--num-sessions {} is negative; give a count >= 0", o.num_conversations));
  if (!(o.turns_mean >= 1))
    return bad(fmt::format(
        "--session-turns-mean {} is below 1; give the mean number of turns (>= 1)", o.turns_mean));
  if (!(o.turns_stddev >= 0))
    return bad(
        fmt::format("--session-turns-stddev {} is negative; give a stddev >= 0", o.turns_stddev));
  if (!(o.delay_stddev_ms >= 0))
    return bad(fmt::format("--session-turn-delay-stddev {} is negative; give a stddev >= 0 (ms)",
                           o.delay_stddev_ms));
  if (!(o.delay_ratio >= 0))
    return bad(
        fmt::format("--session-delay-ratio {} is negative; give a multiplier >= 0", o.delay_ratio));
  if (!(o.isl_stddev >= 0) || !(o.osl_stddev >= 0))
    return bad("--isl-stddev / --osl-stddev must be >= 0");
  if (o.prefix_pool_size < 0 || o.prefix_length < 0)
    return bad("--prefix-prompt-pool-size and --prefix-prompt-length must be >= 0");
  if (o.prefix_length > 0 && o.prefix_pool_size == 0)
    return bad(fmt::format(
        "--prefix-prompt-length {} needs --prefix-prompt-pool-size >= 1 (how many distinct "
        "prefixes to draw from)",
        o.prefix_length));
  if (o.shared_system_prompt_length < 0)
    return bad(fmt::format("--shared-system-prompt-length {} is negative; give tokens >= 0",
                           o.shared_system_prompt_length));
  if (o.user_context_length < 0)
    return bad(fmt::format("--user-context-prompt-length {} is negative; give tokens >= 0",
                           o.user_context_length));
  return core::ok_status();
}

}  // namespace

Result<std::vector<SyntheticConversation>> build_synthetic_conversations(
    const ExactPromptBuilder& builder, const tokenizer::Tokenizer& tok,
    const ConversationOptions& o) {
  (void)tok;  // counts come from the builder (see below); kept for callers that verify
  SB_TRY(validate(o));
  auto stream = [&](std::string_view name) { return core::Rng::stream(o.seed, name); };
  core::Rng turns_rng = stream("conversation.turns");
  core::Rng delay_rng = stream("conversation.delay");
  core::Rng isl_rng = stream("conversation.isl");
  core::Rng osl_rng = stream("conversation.osl");
  core::Rng seq_rng = stream("conversation.seq_dist");
  core::Rng prompt_rng = stream("conversation.prompt");
  core::Rng prefix_choice_rng = stream("conversation.prefix_choice");
  core::Rng context_rng = stream("conversation.user_context");

  const bool with_prefix = o.prefix_pool_size > 0 && o.prefix_length > 0;
  // Counts come from the builder (exact by construction, verified on a sample or, when the
  // tokenizer is not additive, on every prompt): no full re-encode per prompt here.
  std::vector<std::string> prefixes;
  std::vector<int64_t> prefix_tokens;
  if (with_prefix) {
    core::Rng pool_rng = stream("conversation.prefix_pool");
    prefixes.reserve(static_cast<size_t>(o.prefix_pool_size));
    for (int64_t i = 0; i < o.prefix_pool_size; ++i) {
      auto p = builder.build(o.prefix_length, pool_rng);
      prefixes.push_back(std::move(p.text));
      prefix_tokens.push_back(p.tokens);
    }
  }

  std::string system_prompt;
  int64_t system_tokens = 0;
  if (o.shared_system_prompt_length > 0) {
    core::Rng system_rng = stream("conversation.system_prompt");
    auto p = builder.build(o.shared_system_prompt_length, system_rng);
    system_prompt = std::move(p.text);
    system_tokens = p.tokens;
  }

  // User contexts must differ between sessions (that is their point: per-session cache misses);
  // random starts in a large corpus almost never collide, and a collision is redrawn.
  std::unordered_set<std::string> contexts_seen;

  std::vector<SyntheticConversation> out;
  out.reserve(static_cast<size_t>(o.num_conversations));
  for (int64_t c = 0; c < o.num_conversations; ++c) {
    if (core::interrupt_requested())
      return make_error(ErrorCode::kInterrupted, "interrupted while building conversations");
    SyntheticConversation conv;
    conv.session_id = fmt::format("synthetic-{}", c);
    if (!system_prompt.empty()) {
      conv.system_prompt = system_prompt;
      conv.system_prompt_tokens = system_tokens;
    }
    if (o.user_context_length > 0) {
      for (int attempt = 0; attempt < 8; ++attempt) {
        auto p = builder.build(o.user_context_length, context_rng);
        conv.user_context = std::move(p.text);
        conv.user_context_tokens = p.tokens;
        if (contexts_seen.insert(conv.user_context).second) break;
      }
    }
    if (with_prefix) {
      conv.prefix_index = static_cast<int64_t>(prefix_choice_rng.next_below(prefixes.size()));
      conv.prefix_bytes = prefixes[static_cast<size_t>(conv.prefix_index)].size();
    }

    const int64_t turns =
        draw_length_tokens(turns_rng, o.turns_mean, o.turns_stddev, -1, RangeRatioStyle::kVllm);
    conv.turns.reserve(static_cast<size_t>(turns));
    for (int64_t t = 0; t < turns; ++t) {
      SyntheticTurn turn;
      if (o.seq_dist != nullptr) {
        const SequenceDistribution::Draw d = o.seq_dist->draw(seq_rng);
        turn.target_input_tokens = d.isl;
        turn.max_output_tokens = d.osl;
      } else {
        turn.target_input_tokens = draw_length_tokens(isl_rng, o.isl_mean, o.isl_stddev,
                                                      o.isl_range_ratio, o.range_ratio_style);
        if (o.osl_mean > 0)
          turn.max_output_tokens = draw_length_tokens(osl_rng, o.osl_mean, o.osl_stddev,
                                                      o.osl_range_ratio, o.range_ratio_style);
      }
      if (t > 0 && o.delay_mean_ms > 0) {
        const int64_t ms = draw_length_tokens(delay_rng, o.delay_mean_ms, o.delay_stddev_ms, -1,
                                              RangeRatioStyle::kVllm);
        turn.delay_ms = static_cast<double>(ms) * o.delay_ratio;
      }
      const bool prefixed = t == 0 && with_prefix;
      auto prompt = builder.build(turn.target_input_tokens, prompt_rng, /*continuation=*/prefixed);
      if (prefixed) {
        const std::string& prefix = prefixes[static_cast<size_t>(conv.prefix_index)];
        turn.text.reserve(prefix.size() + 1 + prompt.text.size());
        turn.text.append(prefix).append(" ").append(prompt.text);
        turn.input_tokens = prefix_tokens[static_cast<size_t>(conv.prefix_index)] + prompt.tokens;
      } else {
        turn.text = std::move(prompt.text);
        turn.input_tokens = prompt.tokens;
      }
      conv.turns.push_back(std::move(turn));
    }
    out.push_back(std::move(conv));
  }
  return out;
}

}  // namespace servebench::dataset
