// --search-percentile-pooling pooled: a percentile over every request of a probe's trials (the
// per-request values of their profile_export.jsonl files pooled), instead of the mean of each
// trial's percentile. Linear interpolation between order statistics, as the summaries use.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::experiment {

// "time_to_first_token_p99" -> {"time_to_first_token", 0.99}; none for avg, min, max...
struct PercentileKey {
  std::string tag;
  double q = 0;
};
std::optional<PercentileKey> percentile_key(const std::string& key);

// The q-quantile of `tag`'s per-request values over every file (records lines whose
// metrics.<tag>.value is a number); none when no record has one.
Result<std::optional<double>> pooled_percentile(const std::vector<std::string>& jsonl_paths,
                                                const std::string& tag, double q);

}  // namespace servebench::experiment
