#include "metrics/prefix_cache_rows.h"

#include <algorithm>
#include <cmath>

namespace servebench::metrics::prefix_cache_rows {

double hit_blocks(const RecordFacts& f) {
  const auto& r = *f.r;
  if (r.prefix_total_blocks <= 0 || r.prefix_hit_blocks < 0) return NAN;
  return static_cast<double>(std::clamp(r.prefix_hit_blocks, int64_t{0}, r.prefix_total_blocks));
}

double total_blocks(const RecordFacts& f) {
  const auto& r = *f.r;
  if (r.prefix_total_blocks <= 0 || r.prefix_hit_blocks < 0) return NAN;
  return static_cast<double>(r.prefix_total_blocks);
}

bool hit_pct(const ScalarInputs& x, ScalarValue* out) {
  if (!x.has(RecordMetric::kPrefixTotalBlocks)) return false;
  const double total = x.sum(RecordMetric::kPrefixTotalBlocks);
  if (!(total > 0)) return false;
  out->value = 100.0 * x.sum(RecordMetric::kPrefixHitBlocks) / total;
  return true;
}

}  // namespace servebench::metrics::prefix_cache_rows
