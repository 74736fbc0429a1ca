// Vendor usage objects, normalised into record::Usage. Every parser in src/endpoints/ that
// meets a usage object (OpenAI `usage`, Gemini `usageMetadata`, Anthropic `usage` inside an
// OpenAI-compatible body or a Messages event, Cohere `meta`) hands it to json::read_usage
// (json_walk.h), which is implemented here.
//
// Rules (AIPerf's, docs/endpoints.md "Usage and vendor fields"):
//   - Each count is read through an ordered list of synonyms; the first one present wins:
//       prompt       prompt_tokens, input_tokens, promptTokenCount, inputTokens, input_token_count
//       completion   completion_tokens, output_tokens, candidatesTokenCount, outputTokens,
//                    generated_token_count
//       total        total_tokens, totalTokenCount, totalTokens
//       reasoning    {completion,output}_tokens_details.reasoning_tokens, thoughtsTokenCount
//       cache read   {prompt,input}_tokens_details.cached_tokens, cache_read_input_tokens,
//                    prompt_cache_hit_tokens, cachedContentTokenCount, cacheReadInputTokens,
//                    cached_tokens
//       cache write  cache_creation_input_tokens, cacheWriteInputTokens
//       cache miss   prompt_cache_miss_tokens
//       audio        {prompt,input}_tokens_details.audio_tokens,
//                    {completion,output}_tokens_details.audio_tokens
//       prediction   {completion,output}_tokens_details.{accepted,rejected}_prediction_tokens
//       tool use     toolUsePromptTokenCount
//       audio secs   prompt_audio_seconds (a duration; only a number counts)
//       spec draft   spec_draft_token_num (SGLang meta_info), num_draft_tokens
//       spec accept  spec_accept_token_num (SGLang), num_accepted_tokens
//       spec steps   spec_verify_ct (SGLang), num_spec_steps
//   - Envelopes inside the object are lifted to its top level (`usageMetadata`, `tokens`,
//     `meta.tokens`, `meta.cached_tokens`); a key written at the top level wins over a lifted
//     one.
//   - Disjoint input accounting (Anthropic, Bedrock): when the prompt count came from
//     input_tokens / inputTokens and any of cache_read_input_tokens, cache_creation_input_tokens,
//     cacheReadInputTokens, cacheWriteInputTokens is present, those cache counts are added, so
//     the prompt count means "tokens the server took as input" for every vendor.
//   - A value that is not a number (null, {}, a string) counts as absent.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

#include "record/request_record.h"

namespace servebench::endpoints {

// Overwrites each count of *dst that `src` reports (>= 0): over a stream, the last value reported
// for each count wins (AIPerf's "last non-None"), so usage split across events (Anthropic's
// message_start input and message_delta output) adds up to one record.
void merge_usage(const record::Usage& src, record::Usage* dst);

// True when `u` reports any count at all.
bool any_usage(const record::Usage& u);

// True when the usage reader (json::read_usage) reads the usage object's field `key` (written
// without escapes): a count, a details object or an envelope. A reader that mirrors only some of
// them (openai_fast_event.h) may skip any other field unread.
bool reads_usage_key(std::string_view key);

}  // namespace servebench::endpoints
