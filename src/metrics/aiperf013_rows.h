// The metric table's rows added with AIPerf 0.13 (metric_info.cc) that servebench computes from
// what every record already holds. Internal to src/metrics/.
//
//   credit_to_start_latency  request_start - credit_issued: how long a request the load generator
//                            had released waited before it was handed to the transport (AIPerf's
//                            credit-queue wait). Every started request, any outcome, as AIPerf's
//                            column store; not in the console.
//   effective_latency        end - credit_issued: the latency a user of a saturated generator
//                            perceives (coordinated-omission aware), in the console's Effective
//                            table.
//   completed_request_count  successful + failed requests; reported when positive.
// Negative differences are clamped to 0, as AIPerf does.
//
// Thread safety: pure functions.
#pragma once

#include "metrics/metric_info.h"

namespace servebench::metrics::aiperf013_rows {

MetricInfo credit_to_start_latency(int order);
MetricInfo effective_latency(int order);
MetricInfo completed_request_count(int order);

}  // namespace servebench::metrics::aiperf013_rows
