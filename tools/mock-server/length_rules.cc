#include "length_rules.h"

#include <algorithm>
#include <string>

namespace servebench::mock {

Status validate_length_request(const LengthRequest& request) {
  if (request.max_tokens && *request.max_tokens < 1) {
    return make_error(ErrorCode::kInvalidArgument,
                      "max_tokens must be at least 1, got " + std::to_string(*request.max_tokens));
  }
  if (request.max_tokens && *request.max_tokens > kMaxTokensPerRequest) {
    return make_error(ErrorCode::kInvalidArgument, "max_tokens " +
                                                       std::to_string(*request.max_tokens) +
                                                       " exceeds the model's context length of " +
                                                       std::to_string(kMaxTokensPerRequest));
  }
  if (request.min_tokens < 0) {
    return make_error(ErrorCode::kInvalidArgument,
                      "min_tokens must be >= 0, got " + std::to_string(request.min_tokens));
  }
  if (request.max_tokens && request.min_tokens > *request.max_tokens) {
    return make_error(ErrorCode::kInvalidArgument,
                      "min_tokens must be less than or equal to max_tokens=" +
                          std::to_string(*request.max_tokens) + ", got " +
                          std::to_string(request.min_tokens));
  }
  return core::ok_status();
}

int64_t choose_output_tokens(const LengthRequest& request, int64_t default_max_tokens,
                             core::Rng& rng) {
  if (request.forced_tokens) return *request.forced_tokens;
  const int64_t max = request.max_tokens.value_or(default_max_tokens);
  if (request.ignore_eos) return max;
  const int64_t lo = std::clamp<int64_t>(request.min_tokens, 1, max);
  return lo + static_cast<int64_t>(rng.next_below(static_cast<uint64_t>(max - lo + 1)));
}

}  // namespace servebench::mock
