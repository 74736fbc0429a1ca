// The value functions of the metric table's theoretical prefix-cache rows (metric_info.cc):
// weka_trace turns carry the leading hash blocks some earlier request of their trace produced
// (RequestRecord::prefix_hit_blocks) and their block count; theoretical_prefix_cache_hit is
// 100 × Σ hit / Σ blocks over the successful requests of a phase (turns without blocks
// skipped, hits clamped to [0, blocks]): the hit rate an unbounded prefix cache would reach.
// Internal to src/metrics/.
//
// Thread safety: pure functions.
#pragma once

#include "metrics/metric_info.h"

namespace servebench::metrics::prefix_cache_rows {

// NaN unless the record is a trace turn with at least one block.
double hit_blocks(const RecordFacts& f);
double total_blocks(const RecordFacts& f);
// Reported when some successful request had blocks.
bool hit_pct(const ScalarInputs& x, ScalarValue* out);

}  // namespace servebench::metrics::prefix_cache_rows
