// The metric table's speculative-decoding rows (metric_info.cc; AIPerf's spec_decode_*,
// aiperf-inventory.md §5.2/5.4), from the draft, accepted and step counts the server reports in
// its usage (record::Usage; endpoints/usage_fields.h lists the names read). A record without
// them has none of these rows, so a run against a server without speculative decoding shows no
// Spec Decode table. Internal to src/metrics/.
//
//   spec_decode_acceptance_length      1 + accepted / steps
//   spec_decode_draft_acceptance_rate  100 × accepted / draft  (%)
//   spec_decode_accepted_per_verified  (accepted + steps) / (draft + steps)
//   spec_decode_steps, _accepted_draft_tokens, _draft_tokens: the counts
//   totals: total_spec_decode_steps, total_accepted_draft_tokens, total_draft_tokens
//   spec_decode_token_weighted_acceptance_length  1 + Σaccepted / Σsteps
//   spec_decode_overall_draft_acceptance_rate     100 × Σaccepted / Σdraft
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

#include "metrics/metric_info.h"

namespace servebench::metrics::spec_decode_rows {

MetricInfo row(std::string_view tag, std::string_view header, RecordMetric slot, int order);
MetricInfo total(std::string_view tag, std::string_view header, RecordMetric slot, int order);
MetricInfo weighted_acceptance_length(int order);
MetricInfo overall_acceptance_rate(int order);

}  // namespace servebench::metrics::spec_decode_rows
