// Which model each request names (AIPerf's --model-selection-strategy), fixed before t0 as a pure
// function of (strategy, models, weights, seed) so the plan stays reproducible:
//   round_robin  request i uses model i mod M (no table: the worker's default)
//   random       uniform draws on the "models" stream of the seed
//   weighted     draws by weight on the same stream (weights sum to 1)
// The table repeats after kModelOrderLength requests; request i uses entry i mod its length.
//
// Thread safety: pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace servebench::load {

enum class ModelChoice { kRoundRobin, kRandom, kWeighted };

inline constexpr size_t kModelOrderLength = 1 << 16;

// Empty for round_robin or a single model (the worker then uses i mod M). REQUIRES: weighted has
// one weight per model.
std::vector<uint32_t> build_model_order(ModelChoice choice, size_t models,
                                        const std::vector<double>& weights, uint64_t seed,
                                        size_t length = kModelOrderLength);

}  // namespace servebench::load
