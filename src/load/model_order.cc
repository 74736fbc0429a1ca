#include "load/model_order.h"

#include "core/rng.h"

namespace servebench::load {

std::vector<uint32_t> build_model_order(ModelChoice choice, size_t models,
                                        const std::vector<double>& weights, uint64_t seed,
                                        size_t length) {
  std::vector<uint32_t> order;
  if (choice == ModelChoice::kRoundRobin || models <= 1) return order;
  core::Rng rng = core::Rng::stream(seed, "models");
  order.reserve(length);
  double total = 0;
  for (double w : weights) total += w;
  for (size_t i = 0; i < length; ++i) {
    if (choice == ModelChoice::kRandom) {
      order.push_back(static_cast<uint32_t>(rng.next_below(models)));
      continue;
    }
    // Weighted: the first model whose cumulative weight exceeds the draw.
    const double u = rng.next_double() * total;
    double acc = 0;
    uint32_t pick = static_cast<uint32_t>(models - 1);
    for (size_t m = 0; m < models && m < weights.size(); ++m) {
      acc += weights[m];
      if (u < acc) {
        pick = static_cast<uint32_t>(m);
        break;
      }
    }
    order.push_back(pick);
  }
  return order;
}

}  // namespace servebench::load
