// Latency model of servebench-mock: when each SSE token event of a response is due.
//
// All offsets are nanoseconds after the request is admitted (received, or leaves the
// --max-concurrency queue). The model:
//   ttft  = ttft_ns + prefill_ns_per_token × prompt_tokens
//   gap   = itl_ns between consecutive token events (one event = one decode step carrying
//           tokens_per_chunk tokens, the last event of a phase may carry fewer)
//   jitter_cv > 0: ttft and every gap are drawn from a log-normal with that mean and
//           coefficient of variation (core::Rng::lognormal), otherwise exact.
// Events: reasoning tokens first (their own events), then content tokens. A response of zero
// tokens still has one (empty) event at ttft, which carries the finish reason.
//
// Thread safety: pure function; the Rng is owned by the caller.
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "knobs.h"

namespace servebench::mock {

struct TokenEvent {
  int64_t offset_ns = 0;   // due time after admission
  int32_t tokens = 0;      // tokens carried
  bool reasoning = false;  // delta.reasoning_content instead of content
};

std::vector<TokenEvent> plan_events(const RequestKnobs& knobs, int64_t prompt_tokens,
                                    int64_t reasoning_tokens, int64_t content_tokens,
                                    core::Rng& rng);

// One draw of the model's noise around `mean_ns` (exact when cv == 0 or mean == 0).
int64_t jittered_ns(int64_t mean_ns, double cv, core::Rng& rng);

}  // namespace servebench::mock
