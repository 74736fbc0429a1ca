#include "metrics/spec_decode_rows.h"

#include <cmath>

namespace servebench::metrics::spec_decode_rows {
namespace {

using F = RecordFacts;
using S = RecordMetric;

double num(int64_t v) { return static_cast<double>(v); }
const record::Usage& u(const F& f) { return f.r->usage; }

double acceptance_length(const F& f) {
  return u(f).spec_steps > 0 && u(f).spec_accepted_tokens >= 0
             ? 1.0 + num(u(f).spec_accepted_tokens) / num(u(f).spec_steps)
             : NAN;
}
double acceptance_rate(const F& f) {
  return u(f).spec_draft_tokens > 0 && u(f).spec_accepted_tokens >= 0
             ? 100.0 * num(u(f).spec_accepted_tokens) / num(u(f).spec_draft_tokens)
             : NAN;
}
double accepted_per_verified(const F& f) {
  const auto& x = u(f);
  if (x.spec_steps < 0 || x.spec_accepted_tokens < 0 || x.spec_draft_tokens < 0) return NAN;
  const double den = num(x.spec_draft_tokens + x.spec_steps);
  return den > 0 ? num(x.spec_accepted_tokens + x.spec_steps) / den : NAN;
}
double steps(const F& f) { return u(f).spec_steps >= 0 ? num(u(f).spec_steps) : NAN; }
double accepted(const F& f) {
  return u(f).spec_accepted_tokens >= 0 ? num(u(f).spec_accepted_tokens) : NAN;
}
double draft(const F& f) {
  return u(f).spec_draft_tokens >= 0 ? num(u(f).spec_draft_tokens) : NAN;
}

struct Fn {
  S slot;
  RecordValueFn fn;
  std::string_view unit;
  uint32_t flags;
};
constexpr Fn kFns[] = {
    {S::kSpecDecodeAcceptanceLength, acceptance_length, "tokens", kLargerIsBetter},
    {S::kSpecDecodeDraftAcceptanceRate, acceptance_rate, "%", kLargerIsBetter},
    {S::kSpecDecodeAcceptedPerVerified, accepted_per_verified, "ratio", kLargerIsBetter},
    {S::kSpecDecodeSteps, steps, "steps", kIntegerValued},
    {S::kSpecDecodeAcceptedDraftTokens, accepted, "tokens", kIntegerValued | kLargerIsBetter},
    {S::kSpecDecodeDraftTokens, draft, "tokens", kIntegerValued},
};

bool weighted(const ScalarInputs& x, ScalarValue* out) {
  if (!x.has(S::kSpecDecodeSteps) || x.sum(S::kSpecDecodeSteps) <= 0) return false;
  out->value = 1.0 + x.sum(S::kSpecDecodeAcceptedDraftTokens) / x.sum(S::kSpecDecodeSteps);
  return true;
}
bool overall_rate(const ScalarInputs& x, ScalarValue* out) {
  if (!x.has(S::kSpecDecodeDraftTokens) || x.sum(S::kSpecDecodeDraftTokens) <= 0) return false;
  out->value =
      100.0 * x.sum(S::kSpecDecodeAcceptedDraftTokens) / x.sum(S::kSpecDecodeDraftTokens);
  return true;
}

}  // namespace

MetricInfo row(std::string_view tag, std::string_view header, RecordMetric slot, int order) {
  for (const Fn& f : kFns) {
    if (f.slot != slot) continue;
    MetricInfo m{tag, header, f.unit, 1, MetricKind::kRecord, f.flags | kProducesTokensOnly, order};
    m.slot = slot;
    m.value = f.fn;
    m.group = ConsoleGroup::kSpecDecode;
    return m;
  }
  return MetricInfo{tag, header, "", 1, MetricKind::kRecord, kNoConsole | kNoCsv, 0};
}

MetricInfo total(std::string_view tag, std::string_view header, RecordMetric slot, int order) {
  MetricInfo m{tag, header, slot == S::kSpecDecodeSteps ? "steps" : "tokens", 1,
               MetricKind::kDerived, kIntegerValued | kProducesTokensOnly, order};
  m.aggregate = Aggregate::kSum;
  m.slot = slot;
  m.group = ConsoleGroup::kSpecDecode;
  return m;
}

MetricInfo weighted_acceptance_length(int order) {
  MetricInfo m{"spec_decode_token_weighted_acceptance_length",
               "Spec Decode Token Weighted Acceptance Length", "tokens", 1, MetricKind::kDerived,
               kLargerIsBetter | kProducesTokensOnly, order};
  m.aggregate = Aggregate::kFormula;
  m.formula = weighted;
  m.group = ConsoleGroup::kSpecDecode;
  return m;
}

MetricInfo overall_acceptance_rate(int order) {
  MetricInfo m{"spec_decode_overall_draft_acceptance_rate",
               "Spec Decode Overall Draft Acceptance Rate", "%", 1, MetricKind::kDerived,
               kLargerIsBetter | kProducesTokensOnly, order};
  m.aggregate = Aggregate::kFormula;
  m.formula = overall_rate;
  m.group = ConsoleGroup::kSpecDecode;
  return m;
}

}  // namespace servebench::metrics::spec_decode_rows
