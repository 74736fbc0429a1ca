// Usage normalisation (usage_fields.h): one pass over the usage object records every synonym
// it meets in a slot, then each count is resolved from its synonym list in precedence order.
#include "endpoints/usage_fields.h"

#include <array>
#include <string_view>

#include "endpoints/json_walk.h"

namespace servebench::endpoints {

namespace json {
namespace {

// One slot per synonym the rules read.
enum Slot : uint8_t {
  kPromptTokens, kInputTokens, kPromptTokenCount, kInputTokensCamel, kInputTokenCount,
  kCompletionTokens, kOutputTokens, kCandidatesTokenCount, kOutputTokensCamel,
  kGeneratedTokenCount,
  kTotalTokens, kTotalTokenCount, kTotalTokensCamel,
  kCacheReadInputTokens, kPromptCacheHitTokens, kCachedContentTokenCount,
  kCacheReadInputTokensCamel, kCachedTokens,
  kCacheCreationInputTokens, kCacheWriteInputTokensCamel,
  kPromptCacheMissTokens, kThoughtsTokenCount, kToolUsePromptTokenCount,
  // Speculative decoding: SGLang's meta_info names, then generic ones.
  kSpecDraftTokenNum, kSpecAcceptTokenNum, kSpecVerifyCt, kNumDraftTokens, kNumAcceptedTokens,
  kNumSpecSteps,
  // Inside {prompt,input}_tokens_details (P = prompt_, I = input_).
  kPDetailsCached, kPDetailsAudio, kIDetailsCached, kIDetailsAudio,
  // Inside {completion,output}_tokens_details (C = completion_, O = output_).
  kCDetailsReasoning, kCDetailsAudio, kCDetailsAccepted, kCDetailsRejected,
  kODetailsReasoning, kODetailsAudio, kODetailsAccepted, kODetailsRejected,
  kNumSlots,
};

struct Name {
  std::string_view key;
  Slot slot;
};

constexpr Name kTopNames[] = {
    {"prompt_tokens", kPromptTokens},
    {"input_tokens", kInputTokens},
    {"promptTokenCount", kPromptTokenCount},
    {"inputTokens", kInputTokensCamel},
    {"input_token_count", kInputTokenCount},
    {"completion_tokens", kCompletionTokens},
    {"output_tokens", kOutputTokens},
    {"candidatesTokenCount", kCandidatesTokenCount},
    {"outputTokens", kOutputTokensCamel},
    {"generated_token_count", kGeneratedTokenCount},
    {"total_tokens", kTotalTokens},
    {"totalTokenCount", kTotalTokenCount},
    {"totalTokens", kTotalTokensCamel},
    {"cache_read_input_tokens", kCacheReadInputTokens},
    {"prompt_cache_hit_tokens", kPromptCacheHitTokens},
    {"cachedContentTokenCount", kCachedContentTokenCount},
    {"cacheReadInputTokens", kCacheReadInputTokensCamel},
    {"cached_tokens", kCachedTokens},
    {"cache_creation_input_tokens", kCacheCreationInputTokens},
    {"cacheWriteInputTokens", kCacheWriteInputTokensCamel},
    {"prompt_cache_miss_tokens", kPromptCacheMissTokens},
    {"thoughtsTokenCount", kThoughtsTokenCount},
    {"toolUsePromptTokenCount", kToolUsePromptTokenCount},
    {"spec_draft_token_num", kSpecDraftTokenNum},
    {"spec_accept_token_num", kSpecAcceptTokenNum},
    {"spec_verify_ct", kSpecVerifyCt},
    {"num_draft_tokens", kNumDraftTokens},
    {"num_accepted_tokens", kNumAcceptedTokens},
    {"num_spec_steps", kNumSpecSteps},
};

// The other fields of a usage object that are read: details objects, a duration, envelopes.
// read_object reads no field outside these and kTopNames (reads_usage_key lists them for
// readers that mirror only some).
constexpr std::string_view kPromptDetailsKey = "prompt_tokens_details";
constexpr std::string_view kInputDetailsKey = "input_tokens_details";
constexpr std::string_view kCompletionDetailsKey = "completion_tokens_details";
constexpr std::string_view kOutputDetailsKey = "output_tokens_details";
constexpr std::string_view kAudioSecondsKey = "prompt_audio_seconds";
constexpr std::string_view kEnvelopeKeys[] = {"usageMetadata", "tokens", "meta"};

// The fields read inside a details object, relative to its first slot.
constexpr Name kPromptDetailNames[] = {{"cached_tokens", Slot(0)}, {"audio_tokens", Slot(1)}};
constexpr Name kCompletionDetailNames[] = {{"reasoning_tokens", Slot(0)},
                                           {"audio_tokens", Slot(1)},
                                           {"accepted_prediction_tokens", Slot(2)},
                                           {"rejected_prediction_tokens", Slot(3)}};

// What one usage object reported: values written at its top level, and values lifted from an
// envelope inside it (which count only where the top level has none).
struct RawUsage {
  std::array<int64_t, kNumSlots> top;
  std::array<int64_t, kNumSlots> lifted;
  double audio_seconds = -1;
  RawUsage() {
    top.fill(-1);
    lifted.fill(-1);
  }
  int64_t get(Slot s) const { return top[s] >= 0 ? top[s] : lifted[s]; }
  bool has(Slot s) const { return get(s) >= 0; }
};

// Reads a non-negative count if `v` is a number (a double is truncated); else leaves *out.
error_code read_count(value v, int64_t* out) {
  int64_t n = -1;
  if (auto e = opt_int(v, &n)) return e;
  if (n >= 0) *out = n;
  return simdjson::SUCCESS;
}

error_code read_seconds(value v, double* out) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::number) return simdjson::SUCCESS;
  double d = 0;
  if (auto e = v.get_double().get(d)) return e;
  if (d >= 0) *out = d;
  return simdjson::SUCCESS;
}

template <size_t N>
error_code read_details(value v, const Name (&names)[N], Slot first,
                        std::array<int64_t, kNumSlots>* slots) {
  return for_each_field_if_object(v, [&](raw_json_string k, value dv) -> error_code {
    for (const Name& n : names) {
      if (k == n.key) return read_count(dv, &(*slots)[first + n.slot]);
    }
    return simdjson::SUCCESS;
  });
}

// Reads the fields of one usage object (or of an envelope lifted into it) into `slots`.
// `depth` bounds the envelopes followed (meta → tokens is the deepest shape).
error_code read_object(value v, RawUsage* raw, std::array<int64_t, kNumSlots>* slots,
                       int depth) {
  return for_each_field_if_object(v, [&](raw_json_string k, value fv) -> error_code {
    // The first byte rules out most names before the full compare (usage objects can come on
    // every chunk: vLLM's continuous_usage_stats).
    const char first = *k.raw();
    for (const Name& n : kTopNames) {
      if (n.key[0] == first && k == n.key) return read_count(fv, &(*slots)[n.slot]);
    }
    if (k == kPromptDetailsKey) {
      return read_details(fv, kPromptDetailNames, kPDetailsCached, slots);
    }
    if (k == kInputDetailsKey) {
      return read_details(fv, kPromptDetailNames, kIDetailsCached, slots);
    }
    if (k == kCompletionDetailsKey) {
      return read_details(fv, kCompletionDetailNames, kCDetailsReasoning, slots);
    }
    if (k == kOutputDetailsKey) {
      return read_details(fv, kCompletionDetailNames, kODetailsReasoning, slots);
    }
    if (k == kAudioSecondsKey) return read_seconds(fv, &raw->audio_seconds);
    if (depth < 2 && (k == kEnvelopeKeys[0] || k == kEnvelopeKeys[1] || k == kEnvelopeKeys[2])) {
      return read_object(fv, raw, &raw->lifted, depth + 1);
    }
    return simdjson::SUCCESS;
  });
}

int64_t first_of(const RawUsage& raw, std::initializer_list<Slot> slots) {
  for (Slot s : slots) {
    if (raw.has(s)) return raw.get(s);
  }
  return -1;
}

// The prompt count, with Anthropic/Bedrock's disjoint cache counts added back.
int64_t prompt_tokens(const RawUsage& raw) {
  for (Slot s : {kPromptTokens, kInputTokens, kPromptTokenCount, kInputTokensCamel,
                 kInputTokenCount}) {
    if (!raw.has(s)) continue;
    int64_t n = raw.get(s);
    if (s == kInputTokens || s == kInputTokensCamel) {
      for (Slot c : {kCacheReadInputTokens, kCacheCreationInputTokens, kCacheReadInputTokensCamel,
                     kCacheWriteInputTokensCamel}) {
        // Absurd counts must not overflow: a sum beyond int64 is no count.
        if (raw.has(c) && __builtin_add_overflow(n, raw.get(c), &n)) return -1;
      }
    }
    return n;
  }
  return -1;
}

void resolve(const RawUsage& raw, record::Usage* out) {
  record::Usage u;
  u.prompt_tokens = prompt_tokens(raw);
  u.completion_tokens = first_of(raw, {kCompletionTokens, kOutputTokens, kCandidatesTokenCount,
                                       kOutputTokensCamel, kGeneratedTokenCount});
  u.total_tokens = first_of(raw, {kTotalTokens, kTotalTokenCount, kTotalTokensCamel});
  u.reasoning_tokens = first_of(raw, {kCDetailsReasoning, kODetailsReasoning, kThoughtsTokenCount});
  u.prompt_cache_read_tokens =
      first_of(raw, {kPDetailsCached, kIDetailsCached, kCacheReadInputTokens, kPromptCacheHitTokens,
                     kCachedContentTokenCount, kCacheReadInputTokensCamel, kCachedTokens});
  u.prompt_cache_write_tokens =
      first_of(raw, {kCacheCreationInputTokens, kCacheWriteInputTokensCamel});
  u.prompt_cache_miss_tokens = first_of(raw, {kPromptCacheMissTokens});
  u.prompt_audio_tokens = first_of(raw, {kPDetailsAudio, kIDetailsAudio});
  u.completion_audio_tokens = first_of(raw, {kCDetailsAudio, kODetailsAudio});
  u.accepted_prediction_tokens = first_of(raw, {kCDetailsAccepted, kODetailsAccepted});
  u.rejected_prediction_tokens = first_of(raw, {kCDetailsRejected, kODetailsRejected});
  u.tool_use_prompt_tokens = first_of(raw, {kToolUsePromptTokenCount});
  u.prompt_audio_seconds = raw.audio_seconds;
  u.spec_draft_tokens = first_of(raw, {kSpecDraftTokenNum, kNumDraftTokens});
  u.spec_accepted_tokens = first_of(raw, {kSpecAcceptTokenNum, kNumAcceptedTokens});
  u.spec_steps = first_of(raw, {kSpecVerifyCt, kNumSpecSteps});
  merge_usage(u, out);
}

}  // namespace

error_code read_usage_object(value v, record::Usage* out) {
  RawUsage raw;
  if (auto e = read_object(v, &raw, &raw.top, 0)) return e;
  resolve(raw, out);
  return simdjson::SUCCESS;
}

}  // namespace json

void merge_usage(const record::Usage& src, record::Usage* dst) {
  auto take = [](auto s, auto* d) {
    if (s >= 0) *d = s;
  };
  take(src.prompt_tokens, &dst->prompt_tokens);
  take(src.completion_tokens, &dst->completion_tokens);
  take(src.total_tokens, &dst->total_tokens);
  take(src.reasoning_tokens, &dst->reasoning_tokens);
  take(src.prompt_cache_read_tokens, &dst->prompt_cache_read_tokens);
  take(src.prompt_cache_write_tokens, &dst->prompt_cache_write_tokens);
  take(src.prompt_cache_miss_tokens, &dst->prompt_cache_miss_tokens);
  take(src.prompt_audio_tokens, &dst->prompt_audio_tokens);
  take(src.completion_audio_tokens, &dst->completion_audio_tokens);
  take(src.accepted_prediction_tokens, &dst->accepted_prediction_tokens);
  take(src.rejected_prediction_tokens, &dst->rejected_prediction_tokens);
  take(src.tool_use_prompt_tokens, &dst->tool_use_prompt_tokens);
  take(src.prompt_audio_seconds, &dst->prompt_audio_seconds);
  take(src.spec_draft_tokens, &dst->spec_draft_tokens);
  take(src.spec_accepted_tokens, &dst->spec_accepted_tokens);
  take(src.spec_steps, &dst->spec_steps);
}

bool reads_usage_key(std::string_view key) {
  for (const json::Name& n : json::kTopNames) {
    if (key == n.key) return true;
  }
  for (std::string_view k : {json::kPromptDetailsKey, json::kInputDetailsKey,
                             json::kCompletionDetailsKey, json::kOutputDetailsKey,
                             json::kAudioSecondsKey}) {
    if (key == k) return true;
  }
  for (std::string_view k : json::kEnvelopeKeys) {
    if (key == k) return true;
  }
  return false;
}

bool any_usage(const record::Usage& u) {
  return u.present() || u.reasoning_tokens >= 0 || u.prompt_cache_read_tokens >= 0 ||
         u.prompt_cache_write_tokens >= 0 || u.prompt_cache_miss_tokens >= 0 ||
         u.prompt_audio_tokens >= 0 || u.completion_audio_tokens >= 0 ||
         u.accepted_prediction_tokens >= 0 || u.rejected_prediction_tokens >= 0 ||
         u.tool_use_prompt_tokens >= 0 || u.prompt_audio_seconds >= 0 ||
         u.spec_draft_tokens >= 0 || u.spec_accepted_tokens >= 0 || u.spec_steps >= 0;
}

}  // namespace servebench::endpoints
