#include "metrics/record_metrics.h"

#include <algorithm>
#include <array>

#include "metrics/metric_info.h"

namespace servebench::metrics {

using record::ChunkKind;
using record::RequestRecord;

const char* record_metric_tag(RecordMetric m) {
  const MetricInfo* info = slot_metric(m);
  return info == nullptr ? "" : info->tag.data();
}

RecordFacts record_facts(const RequestRecord& r, core::Capabilities caps) {
  RecordFacts f;
  f.r = &r;
  for (const record::Chunk& c : r.chunks) {
    if (!record::is_content_chunk(c.kind)) continue;
    if (f.first_ns == 0) {
      f.first_ns = c.recv_ns;
    } else if (f.second_ns == 0) {
      f.second_ns = c.recv_ns;
    }
    if (f.first_output_ns == 0 && c.kind != ChunkKind::kReasoning) f.first_output_ns = c.recv_ns;
    f.last_ns = c.recv_ns;
  }
  f.end_ns = f.last_ns;
  // Outputs that are not text (embedding vectors, ranked documents) have no content chunks; the
  // whole parsed response is their end. Token endpoints keep AIPerf's last-content definition,
  // so an empty completion still has no latency.
  const bool non_token_output =
      r.output_items >= 0 || !core::has_capability(caps, core::kCapProducesTokens);
  if (f.end_ns == 0 && non_token_output) f.end_ns = r.response_complete_ns;
  f.has_isl = r.input_tokens >= 0;
  f.has_osl = r.output_tokens >= 0 || r.reasoning_tokens >= 0;
  f.osl = static_cast<double>((r.output_tokens > 0 ? r.output_tokens : 0) +
                              (r.reasoning_tokens > 0 ? r.reasoning_tokens : 0));
  return f;
}

void set_warning_flags(const RecordFacts& f, RecordValues* out) {
  for (RecordMetric m : {RecordMetric::kUsagePromptDiffPct, RecordMetric::kUsageCompletionDiffPct,
                         RecordMetric::kUsageReasoningDiffPct}) {
    if (out->has(m) && out->get(m) > kUsageDiffThresholdPct) out->usage_discrepancy = true;
  }
  if (out->has(RecordMetric::kOslMismatchDiffPct)) {
    const double req = static_cast<double>(f.r->requested_output_tokens);
    const double threshold =
        std::min(req * (kOslMismatchPctThreshold / 100.0), kOslMismatchMaxTokens);
    out->osl_mismatch = std::abs(f.osl - req) > threshold;
  }
}

namespace {

// Each slot's value function, population and needs, resolved once (this runs per record on the
// processor threads for profile_export.jsonl).
struct SlotPlan {
  RecordValueFn value;
  core::Capabilities needs;
  bool all_outcomes;
  bool error_only;

  // Whether the slot has a value for a record under `caps` (ok: it succeeded; error: it failed
  // and was not dropped).
  bool applies(core::Capabilities caps, bool ok, bool error) const {
    return (needs & ~caps) == 0 && (all_outcomes || (error_only ? error : ok));
  }
};

const std::array<SlotPlan, kNumRecordSlots>& slot_plans() {
  static const std::array<SlotPlan, kNumRecordSlots> kPlans = [] {
    std::array<SlotPlan, kNumRecordSlots> a{};
    for (size_t i = 0; i < kNumRecordSlots; ++i) {
      const MetricInfo* info = slot_metric(static_cast<RecordMetric>(i));
      a[i] = {info->value, info->needs(), info->has(kAllOutcomes), info->has(kErrorOnly)};
    }
    return a;
  }();
  return kPlans;
}

}  // namespace

void compute_record_metrics(const RequestRecord& r, RecordValues* out, core::Capabilities caps) {
  out->v.fill(NAN);
  out->usage_discrepancy = false;
  out->osl_mismatch = false;
  const RecordFacts f = record_facts(r, caps);
  out->last_content_ns = r.ok() ? f.end_ns : 0;
  const bool ok = r.ok(), error = !ok && !r.dropped();
  const auto& plans = slot_plans();
  for (size_t i = 0; i < kNumRecordSlots; ++i) {
    const SlotPlan& p = plans[i];
    if (p.applies(caps, ok, error)) out->v[i] = p.value(f);
  }
  out->schedule_lag_ns = out->get(RecordMetric::kScheduleLag);
  out->ttft_from_intended_ns = out->get(RecordMetric::kTtftFromIntended);
  out->latency_from_intended_ns = out->get(RecordMetric::kLatencyFromIntended);
  if (ok) set_warning_flags(f, out);
}

void compute_record_metrics(const RequestRecord& r, RecordValues* out) {
  compute_record_metrics(r, out, capabilities_of(r));
}

void compute_record_metrics(const RequestRecord& r, RecordValues* out, const RecordMetric* slots,
                            size_t n) {
  const core::Capabilities caps = capabilities_of(r);
  const RecordFacts f = record_facts(r, caps);
  const bool ok = r.ok(), error = !ok && !r.dropped();
  const auto& plans = slot_plans();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = static_cast<size_t>(slots[k]);
    const SlotPlan& p = plans[i];
    out->v[i] = p.applies(caps, ok, error) ? p.value(f) : NAN;
  }
}

bool same_record_values(core::Capabilities a, core::Capabilities b, const RecordMetric* slots,
                        size_t n) {
  if (core::has_capability(a, core::kCapProducesTokens) !=
      core::has_capability(b, core::kCapProducesTokens))
    return false;
  const auto& plans = slot_plans();
  for (size_t i = 0; i < n; ++i) {
    const core::Capabilities needs = plans[static_cast<size_t>(slots[i])].needs;
    if (((needs & ~a) == 0) != ((needs & ~b) == 0)) return false;
  }
  return true;
}

core::Capabilities capabilities_of(const RequestRecord& r) {
  if (r.output_items < 0)
    return r.input_images > 0 ? core::kTextGenerationCaps | core::kCapMedia : core::kTextGenerationCaps;
  core::Capabilities caps = core::kTextGenerationCaps &
                            ~(core::kCapProducesTokens | core::kCapStreams | core::kCapReasoning);
  if (r.video_inference_s >= 0 || r.video_peak_memory_mb >= 0) caps |= core::kCapProducesVideo;
  if (r.input_images > 0) caps |= core::kCapMedia;
  return caps;
}

void append_inter_chunk_latencies(const RequestRecord& r, std::vector<double>* out) {
  for_each_inter_chunk_latency(r, [out](double gap) { out->push_back(gap); });
}

void append_per_token_itl(const RequestRecord& r, std::vector<double>* out) {
  for_each_per_token_itl(r, [out](double v, size_t n) { out->insert(out->end(), n, v); });
}

bool per_token_itl_equals_icl(const RequestRecord& r) {
  bool first = true;
  for (const record::Chunk& c : r.chunks) {
    if (!record::is_content_chunk(c.kind)) continue;
    if (!first && c.tokens != 1 && c.tokens != -1) return false;
    first = false;
  }
  return true;
}

int32_t error_code(const RequestRecord& r) {
  if (r.ok()) return 0;
  if (r.cancelled()) return 499;  // even when headers (200) had arrived before the cancel
  if (r.http_status >= 300 || (r.error == record::ErrorKind::kHttpStatus && r.http_status > 0)) {
    return r.http_status;
  }
  return 0;
}

}  // namespace servebench::metrics
