// Dataset entry sampling: AIPerf's --dataset-sampling-strategy, the order in which a run picks
// entries (conversations, prompts, trace rows) from a dataset of N entries.
//
//   random      uniform with replacement: next_below(N) per pick
//   sequential  0, 1, ..., N-1, 0, 1, ... (wraps)
//   shuffle     a Fisher-Yates permutation of 0..N-1 (swap i with next_below(i+1), i from N-1
//               down to 1); a new permutation from the same stream each time one is used up,
//               so every entry is used exactly once per epoch
//
// AIPerf's defaults (chosen by the caller): sequential for traces, shuffle for synthetic data.
// Picks come from core::Rng::stream(seed, "dataset.sampling"): the same seed gives the same
// order on any machine.
//
// Thread safety: EntrySampler is not shared; sample_entries() is a pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/rng.h"

namespace servebench::dataset {

enum class SamplingStrategy { kRandom, kSequential, kShuffle };

// "random", "sequential" or "shuffle" (case-insensitive, surrounding spaces ignored). The error
// (kInvalidArgument) names --dataset-sampling-strategy and lists the values.
Result<SamplingStrategy> parse_sampling_strategy(std::string_view text);
std::string_view sampling_strategy_name(SamplingStrategy strategy);

// Incremental picks, for runs whose length is not known up front (duration-bound runs).
class EntrySampler {
 public:
  // REQUIRES: entries > 0.
  EntrySampler(SamplingStrategy strategy, size_t entries, uint64_t seed);

  uint32_t next();

 private:
  void reshuffle();

  SamplingStrategy strategy_;
  size_t entries_;
  core::Rng rng_;
  size_t pos_ = 0;               // sequential: next index; shuffle: position in order_
  std::vector<uint32_t> order_;  // shuffle only
};

// The first `count` picks of EntrySampler(strategy, entries, seed); empty when entries == 0.
std::vector<uint32_t> sample_entries(SamplingStrategy strategy, size_t entries, size_t count,
                                     uint64_t seed);

}  // namespace servebench::dataset
