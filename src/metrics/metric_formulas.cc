// The metric table's formulas (metric_formulas.h). AIPerf's definitions: aiperf-inventory.md
// §5.2-5.4 and docs/metrics.md.
#include "metrics/metric_formulas.h"

#include <cmath>

namespace servebench::metrics::formulas {

double num(int64_t v) { return static_cast<double>(v); }

// ---- per-record value functions (NaN = does not apply) ----
double ttft(const F& f) { return f.streamed_content() ? f.ttft() : NAN; }
double ttst(const F& f) {
  return f.streamed_content() && f.second_ns != 0 ? num(f.second_ns - f.first_ns) : NAN;
}
double ttfo(const F& f) {
  return f.r->streaming && f.first_output_ns != 0 ? num(f.first_output_ns - f.r->request_start_ns)
                                                  : NAN;
}
double latency(const F& f) { return f.end_ns != 0 ? f.latency() : NAN; }
double decode(const F& f) { return f.streamed_content() ? f.latency() - f.ttft() : NAN; }
// Tokens after the first content chunk: OSL minus the first chunk's server-reported count under
// --per-chunk-usage (when consistent: 0 < count < OSL), else OSL - 1 (AIPerf's ITL divisor).
double decode_tokens(const F& f) {
  const int64_t first = f.r->usage.first_content_chunk_tokens;
  if (first > 0 && f.osl - num(first) >= 1) return f.osl - num(first);
  return f.osl - 1;
}
double itl(const F& f) {
  if (!f.streamed_content() || !f.has_osl || f.osl < 2) return NAN;
  return (f.latency() - f.ttft()) / decode_tokens(f);
}
double output_tps_per_user(const F& f) {
  const double v = itl(f);
  return v > 0 ? 1e9 / v : NAN;
}
double e2e_tps(const F& f) {
  if (f.end_ns == 0 || !f.has_osl) return NAN;
  const double lat = f.latency();
  return lat > 0 ? f.osl / (lat / 1e9) : NAN;
}
double prefill_tps(const F& f) {
  if (!f.streamed_content() || !f.has_isl) return NAN;
  const double t = f.ttft();
  return t > 0 ? num(f.r->input_tokens) / (t / 1e9) : NAN;
}
double isl(const F& f) { return f.has_isl ? num(f.r->input_tokens) : NAN; }
double output_tokens(const F& f) { return f.r->output_tokens >= 0 ? num(f.r->output_tokens) : NAN; }
double reasoning_tokens(const F& f) {
  return f.r->reasoning_tokens > 0 ? num(f.r->reasoning_tokens) : NAN;
}
double osl(const F& f) { return f.has_osl ? f.osl : NAN; }
double abs_diff_pct(double server, double client) {
  return std::abs(server - client) / client * 100.0;
}
double u_prompt_diff(const F& f) {
  const auto& r = *f.r;
  if (r.usage.prompt_tokens < 0 || r.input_tokens <= 0) return NAN;
  return std::abs(num(r.usage.prompt_tokens - r.input_tokens)) / num(r.input_tokens) * 100.0;
}
double u_completion_diff(const F& f) {
  if (f.r->usage.completion_tokens < 0 || !f.has_osl || f.osl <= 0) return NAN;
  return abs_diff_pct(num(f.r->usage.completion_tokens), f.osl);
}
double u_reasoning_diff(const F& f) {
  const auto& r = *f.r;
  if (r.usage.reasoning_tokens < 0 || r.reasoning_tokens <= 0) return NAN;
  return std::abs(num(r.usage.reasoning_tokens - r.reasoning_tokens)) / num(r.reasoning_tokens) *
         100.0;
}
double osl_mismatch(const F& f) {
  if (f.r->requested_output_tokens <= 0 || !f.has_osl) return NAN;
  const double req = num(f.r->requested_output_tokens);
  return (f.osl - req) / req * 100.0;
}
double error_isl(const F& f) { return f.r->input_tokens >= 0 ? num(f.r->input_tokens) : NAN; }
double setup(const F& f) {
  return f.streamed_content() && f.r->first_byte_ns > 0
             ? num(f.r->first_byte_ns - f.r->request_start_ns)
             : NAN;
}
double stream_prefill(const F& f) {
  const double s = setup(f);
  return std::isnan(s) ? NAN : f.ttft() - s;
}
double schedule_lag(const F& f) {
  return f.r->intended_ns > 0 && f.r->request_start_ns > 0
             ? num(f.r->request_start_ns - f.r->intended_ns)
             : NAN;
}
double ttft_from_intended(const F& f) {
  return f.r->intended_ns > 0 && f.streamed_content() ? num(f.first_ns - f.r->intended_ns) : NAN;
}
double latency_from_intended(const F& f) {
  return f.r->intended_ns > 0 && f.end_ns != 0 ? num(f.end_ns - f.r->intended_ns) : NAN;
}

// ---- per-chunk lists ----
void icl(const record::RequestRecord& r, SampleSeries* s) {
  for_each_inter_chunk_latency(r, [s](double gap) { s->add(gap); });
}
void per_token_itl(const record::RequestRecord& r, SampleSeries* s) {
  for_each_per_token_itl(r, [s](double v, size_t n) { s->add(v, n); });
}

// ---- formulas over the accumulated counters ----
bool set(ScalarValue* out, double v) {
  out->value = v;
  return true;
}
// Wall timestamps stay exact integers (a double holds ns since 1970 only to ~256 ns).
bool set_exact(ScalarValue* out, int64_t v) {
  out->exact = v;
  return set(out, num(v));
}
bool request_count(const I& x, ScalarValue* v) { return set(v, num(x.request_count)); }
bool error_count(const I& x, ScalarValue* v) {
  return x.error_request_count > 0 && set(v, num(x.error_request_count));
}
bool good_count(const I& x, ScalarValue* v) {
  return x.goodput_enabled && set(v, num(x.good_request_count));
}
bool discrepancy_count(const I& x, ScalarValue* v) {
  return (x.has(S::kUsagePromptDiffPct) || x.has(S::kUsageCompletionDiffPct)) &&
         set(v, num(x.usage_discrepancy_count));
}
bool mismatch_count(const I& x, ScalarValue* v) {
  return x.has(S::kOslMismatchDiffPct) && set(v, num(x.osl_mismatch_count));
}
bool min_timestamp(const I& x, ScalarValue* v) {
  return x.window_end_ns > 0 && set_exact(v, x.window_start_wall_ns);
}
bool max_timestamp(const I& x, ScalarValue* v) {
  return x.window_end_ns > 0 && set_exact(v, x.window_end_wall_ns);
}
bool duration(const I& x, ScalarValue* v) {
  return x.duration_ns > 0 && set(v, num(x.duration_ns));
}
bool request_tps(const I& x, ScalarValue* v) {
  return x.duration_ns > 0 && set(v, num(x.request_count) / x.seconds());
}
bool output_tps(const I& x, ScalarValue* v) {
  return x.duration_ns > 0 && x.has(S::kOsl) && set(v, x.sum(S::kOsl) / x.seconds());
}
bool input_tps(const I& x, ScalarValue* v) {
  return x.duration_ns > 0 && x.has(S::kIsl) && set(v, x.sum(S::kIsl) / x.seconds());
}
bool total_tps(const I& x, ScalarValue* v) {
  return x.duration_ns > 0 && x.has(S::kIsl) &&
         set(v, (x.sum(S::kIsl) + x.sum(S::kOsl)) / x.seconds());
}
bool goodput(const I& x, ScalarValue* v) {
  return x.duration_ns > 0 && x.goodput_enabled && set(v, num(x.good_request_count) / x.seconds());
}
bool good_fraction(const I& x, ScalarValue* v) {
  const int64_t attempted = x.request_count + x.error_request_count;
  return x.goodput_enabled &&
         set(v, attempted > 0 ? num(x.good_request_count) / num(attempted) : 0.0);
}
bool error_rate(const I& x, ScalarValue* v) {
  const int64_t attempted = x.request_count + x.error_request_count;
  return attempted > 0 && set(v, 100.0 * num(x.error_request_count) / num(attempted));
}
bool late_fraction(const I& x, ScalarValue* v) {
  return set(v, x.sends_with_intended > 0 ? num(x.late_sends) / num(x.sends_with_intended) : 0.0);
}
bool client_limited(const I& x, ScalarValue* v) { return set(v, x.client_limited ? 1.0 : 0.0); }
bool peak_concurrency(const I& x, ScalarValue* v) { return set(v, num(x.peak_concurrency)); }
bool avg_concurrency(const I& x, ScalarValue* v) { return set(v, x.avg_concurrency); }
bool cancelled_count(const I& x, ScalarValue* v) { return set(v, num(x.cancelled_request_count)); }

}  // namespace servebench::metrics::formulas
