// User-given thresholds: --goodput SLOs (AIPerf: "tag:value ...", per request, display units)
// and --fail-on CI gates (ours: "tag.stat>value ...", on the summary, display units).
// Both are parsed before the run so a typo is a usage error (exit 2), not a silent no-op.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "metrics/metric_info.h"

namespace servebench::metrics {

// One per-request SLO: the record metric `tag` (any per-request row of the metric table,
// servebench's schedule_lag and *_from_intended included) must be <= threshold (>= for metrics
// where larger is better, e.g. output_token_throughput_per_user).
struct Slo {
  std::string tag;
  const MetricInfo* info = nullptr;
  double threshold_display = 0;  // as the user wrote it (display unit, e.g. ms)
  double threshold_base = 0;     // converted to the base unit (ns)
  bool larger_is_better = false;
};

// Parses "time_to_first_token:100 inter_token_latency:10" (spaces or commas between pairs;
// '=' accepted for ':'). Unknown tags, non-record metrics and non-numbers are errors naming the
// token. "" gives an empty list.
Result<std::vector<Slo>> parse_goodput(std::string_view text);

enum class GateOp { kGreater, kGreaterEqual, kLess, kLessEqual };

// One CI gate: fails (holds) when `tag.stat op threshold`.
struct Gate {
  std::string text;  // the condition as written, for messages
  std::string tag;   // a row of the metric table (servebench's included)
  std::string stat;  // "avg" when not given
  GateOp op = GateOp::kGreater;
  double threshold = 0;  // display unit
};

// Parses "request_error_rate>1 time_to_first_token.p99>500". Operators: > >= < <=.
Result<std::vector<Gate>> parse_fail_on(std::string_view text);

bool gate_holds(const Gate& gate, double value);
const char* gate_op_text(GateOp op);

}  // namespace servebench::metrics
