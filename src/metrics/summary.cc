#include "metrics/summary.h"

#include <string>

#include "metrics/summary_accumulator.h"

namespace servebench::metrics {

using record::RequestRecord;

const MetricResult* Summary::find(std::string_view tag) const {
  for (const MetricResult& m : metrics) {
    if (m.tag() == tag) return &m;
  }
  return nullptr;
}

bool Summary::lookup(std::string_view tag, std::string_view stat, double* out) const {
  const MetricResult* m = find(tag);
  if (m == nullptr) return false;
  if (m->distribution) {
    double v;
    if (!m->stats.get(std::string(stat).c_str(), &v)) return false;
    *out = stat == "count" ? v : m->info->to_display(v);
    return true;
  }
  if (stat != "avg") return false;
  *out =
      m->info->has(kTimestamp) ? static_cast<double>(m->int_value) : m->info->to_display(m->value);
  return true;
}

Summary summarize(const std::vector<const RequestRecord*>& records, const SummaryOptions& opt) {
  SummaryAccumulator acc(opt);
  acc.reserve(records.size());
  for (const RequestRecord* r : records) acc.add(*r);
  return std::move(acc).finish();
}

Summary summarize_phase(const std::vector<RequestRecord>& records, record::Phase phase,
                        const SummaryOptions& options) {
  std::vector<const RequestRecord*> ptrs;
  ptrs.reserve(records.size());
  for (const RequestRecord& r : records) {
    if (r.phase == phase) ptrs.push_back(&r);
  }
  return summarize(ptrs, options);
}

}  // namespace servebench::metrics
