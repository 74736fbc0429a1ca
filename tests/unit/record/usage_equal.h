// Field-by-field equality of two record::Usage values, for the tests that compare what two
// parsers recorded (the chat parser's fast path against its general path: a unit test and the
// chunk fuzz target).
#pragma once

#include "record/request_record.h"

namespace servebench::testing {

inline bool same_usage(const record::Usage& a, const record::Usage& b) {
  return a.prompt_tokens == b.prompt_tokens && a.completion_tokens == b.completion_tokens &&
         a.total_tokens == b.total_tokens && a.reasoning_tokens == b.reasoning_tokens &&
         a.prompt_cache_read_tokens == b.prompt_cache_read_tokens &&
         a.prompt_cache_write_tokens == b.prompt_cache_write_tokens &&
         a.prompt_cache_miss_tokens == b.prompt_cache_miss_tokens &&
         a.prompt_audio_tokens == b.prompt_audio_tokens &&
         a.completion_audio_tokens == b.completion_audio_tokens &&
         a.accepted_prediction_tokens == b.accepted_prediction_tokens &&
         a.rejected_prediction_tokens == b.rejected_prediction_tokens &&
         a.tool_use_prompt_tokens == b.tool_use_prompt_tokens &&
         a.prompt_audio_seconds == b.prompt_audio_seconds &&
         a.spec_draft_tokens == b.spec_draft_tokens &&
         a.spec_accepted_tokens == b.spec_accepted_tokens && a.spec_steps == b.spec_steps &&
         a.first_content_chunk_tokens == b.first_content_chunk_tokens;
}

}  // namespace servebench::testing
