// Output length rules of servebench-mock (how many tokens a request gets back).
//
//   max  = forced (X-Mock-Scenario output_tokens) if set, else max_completion_tokens, else
//          max_tokens, else the server default (--default-max-tokens).
//   forced or ignore_eos           → exactly max tokens.
//   otherwise                      → uniform whole number in [max(min_tokens, 1), max], drawn
//                                    from the request's seeded stream (an early "EOS").
//   max == 0 (forced only)         → 0 tokens.
// Validation (the server answers 400 with these messages): max < 1 when given by the request,
// max > kMaxTokensPerRequest (the advertised max_model_len), min_tokens < 0, min_tokens > max.
//
// Thread safety: pure functions; the Rng is owned by the caller.
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.h"
#include "core/rng.h"

namespace servebench::mock {

// The context length the mock advertises (/v1/models max_model_len); also bounds every
// per-request token count, so no request can make the server allocate without limit.
inline constexpr int64_t kMaxTokensPerRequest = int64_t{1} << 20;

struct LengthRequest {
  std::optional<int64_t> max_tokens = std::nullopt;  // max_completion_tokens, else max_tokens
  bool ignore_eos = false;
  int64_t min_tokens = 0;
  std::optional<int64_t> forced_tokens = std::nullopt;  // scenario output_tokens
};

Status validate_length_request(const LengthRequest& request);

// REQUIRES: validate_length_request(request) succeeded; default_max_tokens >= 1.
int64_t choose_output_tokens(const LengthRequest& request, int64_t default_max_tokens,
                             core::Rng& rng);

}  // namespace servebench::mock
