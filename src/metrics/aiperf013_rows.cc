#include "metrics/aiperf013_rows.h"

#include <algorithm>
#include <cmath>

namespace servebench::metrics::aiperf013_rows {
namespace {

constexpr double kNsPerMs = 1e6;

double since_credit(const RecordFacts& f, int64_t until_ns) {
  const int64_t credit = f.r->credit_issued_ns;
  if (credit <= 0 || until_ns <= 0) return NAN;
  return static_cast<double>(std::max<int64_t>(0, until_ns - credit));
}
double credit_to_start(const RecordFacts& f) { return since_credit(f, f.r->request_start_ns); }
double effective(const RecordFacts& f) { return since_credit(f, f.r->end_ns); }

bool completed(const ScalarInputs& x, ScalarValue* out) {
  const int64_t n = x.request_count + x.error_request_count;
  if (n <= 0) return false;
  out->value = static_cast<double>(n);
  return true;
}

MetricInfo latency_row(std::string_view tag, std::string_view header, uint32_t flags, int order,
                       RecordMetric slot, RecordValueFn fn) {
  MetricInfo m{tag, header, "ms", kNsPerMs, MetricKind::kRecord, flags | kAllOutcomes, order};
  m.slot = slot;
  m.value = fn;
  return m;
}

}  // namespace

MetricInfo credit_to_start_latency(int order) {
  return latency_row("credit_to_start_latency", "Credit-to-Start Latency", kNoConsole, order,
                     RecordMetric::kCreditToStartLatency, credit_to_start);
}

MetricInfo effective_latency(int order) {
  MetricInfo m = latency_row("effective_latency", "Effective Latency (CO-aware)", kNoFlags, order,
                             RecordMetric::kEffectiveLatency, effective);
  m.group = ConsoleGroup::kEffective;
  return m;
}

MetricInfo completed_request_count(int order) {
  MetricInfo m{"completed_request_count", "Completed Requests (Success + Error)", "requests", 1,
               MetricKind::kDerived, kIntegerValued, order};
  m.aggregate = Aggregate::kFormula;
  m.formula = completed;
  return m;
}

}  // namespace servebench::metrics::aiperf013_rows
