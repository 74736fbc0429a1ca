#include "metrics/usage_rows.h"

#include <cmath>

namespace servebench::metrics::usage_rows {
namespace {

double count(int64_t v) { return v >= 0 ? static_cast<double>(v) : NAN; }

}  // namespace

double prompt(const RecordFacts& f) { return count(f.r->usage.prompt_tokens); }
double completion(const RecordFacts& f) { return count(f.r->usage.completion_tokens); }
double total(const RecordFacts& f) { return count(f.r->usage.total_tokens); }
double reasoning(const RecordFacts& f) { return count(f.r->usage.reasoning_tokens); }
double cache_read(const RecordFacts& f) { return count(f.r->usage.prompt_cache_read_tokens); }
double cache_write(const RecordFacts& f) { return count(f.r->usage.prompt_cache_write_tokens); }
double cache_miss(const RecordFacts& f) { return count(f.r->usage.prompt_cache_miss_tokens); }
double prompt_audio(const RecordFacts& f) { return count(f.r->usage.prompt_audio_tokens); }
double completion_audio(const RecordFacts& f) { return count(f.r->usage.completion_audio_tokens); }
double accepted(const RecordFacts& f) { return count(f.r->usage.accepted_prediction_tokens); }
double rejected(const RecordFacts& f) { return count(f.r->usage.rejected_prediction_tokens); }
double tool_use(const RecordFacts& f) { return count(f.r->usage.tool_use_prompt_tokens); }
double audio_seconds(const RecordFacts& f) {
  const double s = f.r->usage.prompt_audio_seconds;
  return s >= 0 ? s * 1e9 : NAN;
}

bool cache_read_pct(const ScalarInputs& x, ScalarValue* out) {
  if (!x.has(RecordMetric::kUsagePromptCacheReadTokens) || !x.has(RecordMetric::kUsagePromptTokens))
    return false;
  const double prompt_sum = x.sum(RecordMetric::kUsagePromptTokens);
  if (!(prompt_sum > 0)) return false;
  out->value = 100.0 * x.sum(RecordMetric::kUsagePromptCacheReadTokens) / prompt_sum;
  return true;
}

}  // namespace servebench::metrics::usage_rows
