// The metric table's formulas (metrics/metric_info.cc): per-record value functions of
// RecordFacts (NaN = does not apply), the per-chunk list feeders, and the run-level formulas over
// the accumulated counters. Internal to sb_metrics; definitions in metric_formulas.cc, which say
// what each computes (docs/metrics.md has the definitions).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>

#include "metrics/metric_info.h"
#include "metrics/record_metrics.h"
#include "metrics/sample_series.h"

namespace servebench::metrics::formulas {

using F = RecordFacts;
using I = ScalarInputs;
using S = RecordMetric;

double num(int64_t v);

// Per-record values of the table's kRecord rows; NaN = does not apply to the record.
double ttft(const F& f);
double ttst(const F& f);
double ttfo(const F& f);
double latency(const F& f);
double decode(const F& f);
double decode_tokens(const F& f);
double itl(const F& f);
double output_tps_per_user(const F& f);
double e2e_tps(const F& f);
double prefill_tps(const F& f);
double isl(const F& f);
double output_tokens(const F& f);
double reasoning_tokens(const F& f);
double osl(const F& f);
double abs_diff_pct(double server, double client);
double u_prompt_diff(const F& f);
double u_completion_diff(const F& f);
double u_reasoning_diff(const F& f);
double osl_mismatch(const F& f);
double error_isl(const F& f);
double setup(const F& f);
double stream_prefill(const F& f);
double schedule_lag(const F& f);
double ttft_from_intended(const F& f);
double latency_from_intended(const F& f);

// Per-chunk lists (inter-chunk latency, per-token ITL).
void icl(const record::RequestRecord& r, SampleSeries* s);
void per_token_itl(const record::RequestRecord& r, SampleSeries* s);

// Run-level formulas over the accumulated counters (kDerived rows); false = no value.
bool set(ScalarValue* out, double v);
bool set_exact(ScalarValue* out, int64_t v);
bool request_count(const I& x, ScalarValue* v);
bool error_count(const I& x, ScalarValue* v);
bool good_count(const I& x, ScalarValue* v);
bool discrepancy_count(const I& x, ScalarValue* v);
bool mismatch_count(const I& x, ScalarValue* v);
bool min_timestamp(const I& x, ScalarValue* v);
bool max_timestamp(const I& x, ScalarValue* v);
bool duration(const I& x, ScalarValue* v);
bool request_tps(const I& x, ScalarValue* v);
bool output_tps(const I& x, ScalarValue* v);
bool input_tps(const I& x, ScalarValue* v);
bool total_tps(const I& x, ScalarValue* v);
bool goodput(const I& x, ScalarValue* v);
bool good_fraction(const I& x, ScalarValue* v);
bool error_rate(const I& x, ScalarValue* v);
bool late_fraction(const I& x, ScalarValue* v);
bool client_limited(const I& x, ScalarValue* v);
bool peak_concurrency(const I& x, ScalarValue* v);
bool avg_concurrency(const I& x, ScalarValue* v);
bool cancelled_count(const I& x, ScalarValue* v);

}  // namespace servebench::metrics::formulas
