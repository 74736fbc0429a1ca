#include "report_html/request_columns.h"

#include <algorithm>
#include <cmath>

#include "export/records_reader.h"
#include "metrics/metric_info.h"

namespace servebench::report_html {

int column_index(metrics::RecordMetric m) {
  for (size_t i = 0; i < kNumColumnMetrics; ++i) {
    if (kColumnMetrics[i] == m) return static_cast<int>(i);
  }
  return -1;
}

int column_index(const std::string& tag) {
  for (size_t i = 0; i < kNumColumnMetrics; ++i) {
    if (tag == metrics::record_metric_tag(kColumnMetrics[i])) return static_cast<int>(i);
  }
  return -1;
}

int64_t RequestColumns::origin_ns() const {
  int64_t origin = 0;
  for (int64_t s : start_ns) {
    if (s > 0 && (origin == 0 || s < origin)) origin = s;
  }
  return origin;
}

void RequestColumns::reserve(size_t records) {
  const auto more = [records](auto* column) { column->reserve(column->size() + records); };
  for (auto* c : {&start_ns, &intended_ns, &end_ns, &first_ns}) more(c);
  more(&error);
  more(&dropped);
  for (auto& c : values) more(&c);
}

void add_record(const record::RequestRecord& r, RequestColumns* out, const core::WallAnchor& a,
                const metrics::RecordValues* values, core::Capabilities values_caps) {
  if (r.phase == record::Phase::kWarmup) {
    ++out->warmup_records;
    return;
  }
  metrics::RecordValues own;
  if (values == nullptr || !metrics::same_record_values(values_caps, metrics::capabilities_of(r),
                                                        kColumnMetrics, kNumColumnMetrics)) {
    metrics::compute_record_metrics(r, &own);
    values = &own;
  }
  const metrics::RecordValues& v = *values;
  out->start_ns.push_back(a.to_wall_ns(r.request_start_ns));
  out->intended_ns.push_back(a.to_wall_ns(r.intended_ns));
  out->end_ns.push_back(a.to_wall_ns(v.last_content_ns > 0 ? v.last_content_ns : r.end_ns));
  int64_t first = 0, chunk_tokens = 0;
  for (const record::Chunk& c : r.chunks) {
    if (!record::is_content_chunk(c.kind)) continue;
    if (first == 0) first = a.to_wall_ns(c.recv_ns);
    if (r.ok() && c.tokens > 0) {
      out->tokens_by_bucket[a.to_wall_ns(c.recv_ns) / kTokenBucketNs] += c.tokens;
      chunk_tokens += c.tokens;
    }
  }
  // Without per-chunk counts (non-streamed bodies), a response's tokens arrive at its end.
  const int64_t tokens =
      std::max<int64_t>(r.output_tokens, 0) + std::max<int64_t>(r.reasoning_tokens, 0);
  if (r.ok() && chunk_tokens == 0 && tokens > 0) {
    out->tokens_by_bucket[out->end_ns.back() / kTokenBucketNs] += tokens;
  }
  out->first_ns.push_back(first);
  out->error.push_back(static_cast<uint8_t>(r.error));
  out->dropped.push_back(r.dropped() ? 1 : 0);
  for (size_t i = 0; i < kNumColumnMetrics; ++i) {
    const metrics::MetricInfo* info = metrics::slot_metric(kColumnMetrics[i]);
    const double base = v.get(kColumnMetrics[i]);
    out->values[i].push_back(info != nullptr && !std::isnan(base) ? info->to_display(base) : NAN);
  }
}

Result<RequestColumns> read_request_columns(const std::string& jsonl_path) {
  RequestColumns cols;
  auto st = exporter::for_each_record(jsonl_path,
                                      [&cols](record::RequestRecord&& r) { add_record(r, &cols); });
  if (!st) return tl::unexpected(st.error());
  return cols;
}

}  // namespace servebench::report_html
