// The value functions of the metric table's usage rows (metric_info.cc): the server's usage
// counts of one record (record::Usage, normalised across vendors by the endpoint parsers) and
// the run's prefix-cache hit rate. Internal to src/metrics/.
//
// Thread safety: pure functions.
#pragma once

#include "metrics/metric_info.h"

namespace servebench::metrics::usage_rows {

// Each count as a double, NaN when the server did not report it.
double prompt(const RecordFacts& f);
double completion(const RecordFacts& f);
double total(const RecordFacts& f);
double reasoning(const RecordFacts& f);
double cache_read(const RecordFacts& f);
double cache_write(const RecordFacts& f);
double cache_miss(const RecordFacts& f);
double prompt_audio(const RecordFacts& f);
double completion_audio(const RecordFacts& f);
double accepted(const RecordFacts& f);
double rejected(const RecordFacts& f);
double tool_use(const RecordFacts& f);
// Mistral's prompt_audio_seconds, in ns (the table's time base unit).
double audio_seconds(const RecordFacts& f);

// overall_usage_prompt_cache_read_pct: 100 × Σ cache-read tokens / Σ prompt tokens over the
// requests that reported them (token-weighted); reported only when some request reported
// cached tokens and the prompt sum is positive.
bool cache_read_pct(const ScalarInputs& x, ScalarValue* out);

}  // namespace servebench::metrics::usage_rows
