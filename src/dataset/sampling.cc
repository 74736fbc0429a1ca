#include "dataset/sampling.h"

#include <fmt/format.h>

#include <cctype>
#include <string>

namespace servebench::dataset {

Result<SamplingStrategy> parse_sampling_strategy(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  std::string v;
  for (char c : t) v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (v == "random") return SamplingStrategy::kRandom;
  if (v == "sequential") return SamplingStrategy::kSequential;
  if (v == "shuffle") return SamplingStrategy::kShuffle;
  return make_error(
      ErrorCode::kInvalidArgument,
      fmt::format(
          "--dataset-sampling-strategy '{}' is not a strategy; use random (with replacement), "
          "sequential (in order, wrapping) or shuffle (each entry once per pass)",
          text));
}

std::string_view sampling_strategy_name(SamplingStrategy strategy) {
  switch (strategy) {
    case SamplingStrategy::kRandom:
      return "random";
    case SamplingStrategy::kSequential:
      return "sequential";
    case SamplingStrategy::kShuffle:
      return "shuffle";
  }
  return "unknown";
}

EntrySampler::EntrySampler(SamplingStrategy strategy, size_t entries, uint64_t seed)
    : strategy_(strategy), entries_(entries), rng_(core::Rng::stream(seed, "dataset.sampling")) {
  if (strategy_ == SamplingStrategy::kShuffle) {
    order_.resize(entries_);
    reshuffle();
  }
}

void EntrySampler::reshuffle() {
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<uint32_t>(i);
  for (size_t i = order_.size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(rng_.next_below(i));
    std::swap(order_[i - 1], order_[j]);
  }
  pos_ = 0;
}

uint32_t EntrySampler::next() {
  switch (strategy_) {
    case SamplingStrategy::kRandom:
      return static_cast<uint32_t>(rng_.next_below(entries_));
    case SamplingStrategy::kSequential: {
      const size_t i = pos_;
      pos_ = pos_ + 1 == entries_ ? 0 : pos_ + 1;
      return static_cast<uint32_t>(i);
    }
    case SamplingStrategy::kShuffle:
      if (pos_ == order_.size()) reshuffle();
      return order_[pos_++];
  }
  return 0;
}

std::vector<uint32_t> sample_entries(SamplingStrategy strategy, size_t entries, size_t count,
                                     uint64_t seed) {
  std::vector<uint32_t> out;
  if (entries == 0) return out;
  out.reserve(count);
  EntrySampler sampler(strategy, entries, seed);
  for (size_t i = 0; i < count; ++i) out.push_back(sampler.next());
  return out;
}

}  // namespace servebench::dataset
