#include "latency_model.h"

#include <algorithm>
#include <cmath>

namespace servebench::mock {

int64_t jittered_ns(int64_t mean_ns, double cv, core::Rng& rng) {
  if (cv <= 0.0 || mean_ns <= 0) return mean_ns;
  const core::LogNormalParams p = core::lognormal_from_mean_cv(static_cast<double>(mean_ns), cv);
  // Clamp: a huge cv can draw values beyond int64 (a day is plenty for a mock).
  const double v = std::min(rng.lognormal(p.mu, p.sigma), 86'400e9);
  return static_cast<int64_t>(std::llround(v));
}

std::vector<TokenEvent> plan_events(const RequestKnobs& knobs, int64_t prompt_tokens,
                                    int64_t reasoning_tokens, int64_t content_tokens,
                                    core::Rng& rng) {
  const int64_t per_chunk = std::max<int64_t>(knobs.tokens_per_chunk, 1);
  std::vector<TokenEvent> events;
  events.reserve(static_cast<size_t>((reasoning_tokens + per_chunk - 1) / per_chunk +
                                     (content_tokens + per_chunk - 1) / per_chunk + 1));
  const int64_t ttft_mean = knobs.ttft_ns + knobs.prefill_ns_per_token * prompt_tokens;
  int64_t t = jittered_ns(ttft_mean, knobs.jitter_cv, rng);
  auto add_phase = [&](int64_t tokens, bool reasoning) {
    while (tokens > 0) {
      const int64_t n = std::min(tokens, per_chunk);
      if (!events.empty()) t += jittered_ns(knobs.itl_ns, knobs.jitter_cv, rng);
      events.push_back(TokenEvent{t, static_cast<int32_t>(n), reasoning});
      tokens -= n;
    }
  };
  add_phase(reasoning_tokens, true);
  add_phase(content_tokens, false);
  if (events.empty()) events.push_back(TokenEvent{t, 0, false});
  return events;
}

}  // namespace servebench::mock
