#include "metrics/summary_accumulator.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "metrics/metric_info.h"
#include "metrics/summary_state.h"

namespace servebench::metrics {

using record::RequestRecord;

struct SummaryAccumulator::State : SummaryState {};

namespace {

void choose_slots(const SummaryOptions& o, SummaryState* st) {
  // The sweep rows follow the chunks while the inter-chunk list is on and within its bound.
  st->sweep.per_chunk = o.inter_chunk_latency;
  st->sweep.gap_limit = o.exact_chunk_samples;
  for (size_t i = 0; i < kNumRecordSlots; ++i) {
    const RecordMetric m = static_cast<RecordMetric>(i);
    const MetricInfo* info = slot_metric(m);
    if (!info->applies_to(o.capabilities)) continue;
    const SummaryState::SlotFn fn{m, info->value};
    if (info->has(kAllOutcomes)) {
      st->all_outcome_slots.push_back(fn);
    } else if (info->has(kErrorOnly)) {
      st->error_slots.push_back(fn);
    } else {
      st->success_slots.push_back(fn);
    }
  }
  if (!o.inter_chunk_latency) return;
  size_t count = 0;
  const MetricInfo* table = all_metrics(&count);
  for (size_t t = 0; t < count; ++t) {
    const MetricInfo& m = table[t];
    if (m.kind != MetricKind::kChunkList || !m.applies_to(o.capabilities)) continue;
    SummaryState::ChunkList cl{&m, SampleSeries(o.exact_chunk_samples)};
    for (size_t i = 0; i < st->chunk_lists.size(); ++i) {
      if (!m.mirrors.empty() && st->chunk_lists[i].info->tag == m.mirrors) {
        cl.mirror_of = static_cast<int>(i);
        cl.separate = false;
      }
    }
    st->chunk_lists.push_back(std::move(cl));
  }
}

void push_slots(const std::vector<SummaryState::SlotFn>& slots, const RecordFacts& f,
                SummaryState* st, RecordValues* values) {
  for (const SummaryState::SlotFn& s : slots) {
    const size_t i = static_cast<size_t>(s.slot);
    const double v = s.value(f);
    values->v[i] = v;
    if (!std::isnan(v)) st->columns[i].push(v);
  }
}

bool meets_slos(const std::vector<Slo>& slos, const RecordValues& rv) {
  for (const Slo& slo : slos) {
    const double v = rv.get(slo.info->slot);
    if (std::isnan(v) || (slo.larger_is_better ? v < slo.threshold_base : v > slo.threshold_base)) {
      return false;
    }
  }
  return true;
}

void add_chunk_lists(const RequestRecord& r, SummaryState* st) {
  auto& lists = st->chunk_lists;
  // Break mirrors before any list takes this record's samples.
  for (auto& cl : lists) {
    if (!cl.separate && !cl.info->mirrors_while(r)) {
      cl.series = lists[static_cast<size_t>(cl.mirror_of)].series;
      cl.separate = true;
    }
  }
  for (auto& cl : lists) {
    if (cl.separate) cl.info->chunks(r, &cl.series);
  }
}

// Merges b's chunk lists into a's; a list still mirroring on one side is materialised first.
void merge_chunk_lists(SummaryState* a, SummaryState* b) {
  auto& x = a->chunk_lists;
  auto& y = b->chunk_lists;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].separate == y[i].separate) continue;
    auto& side = x[i].separate ? y : x;
    side[i].series = side[static_cast<size_t>(side[i].mirror_of)].series;
    side[i].separate = true;
  }
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].separate) x[i].series.merge(std::move(y[i].series));
  }
}

template <typename T>
void append(std::vector<T>* to, std::vector<T>&& from) {
  if (to->empty()) {
    *to = std::move(from);
  } else {
    to->insert(to->end(), from.begin(), from.end());
  }
  from = std::vector<T>();
}

}  // namespace

SummaryAccumulator::SummaryAccumulator(SummaryOptions options)
    : options_(std::move(options)), state_(new State) {
  choose_slots(options_, state_);
}
SummaryAccumulator::~SummaryAccumulator() { delete state_; }
SummaryAccumulator::SummaryAccumulator(SummaryAccumulator&& o) noexcept
    : options_(std::move(o.options_)), state_(std::exchange(o.state_, nullptr)) {}
SummaryAccumulator& SummaryAccumulator::operator=(SummaryAccumulator&& o) noexcept {
  if (this != &o) {
    delete state_;
    options_ = std::move(o.options_);
    state_ = std::exchange(o.state_, nullptr);
  }
  return *this;
}

void SummaryAccumulator::reserve(size_t records) {
  for (const auto* slots : {&state_->success_slots, &state_->all_outcome_slots}) {
    for (const SummaryState::SlotFn& s : *slots) {
      state_->columns[static_cast<size_t>(s.slot)].reserve(records);
    }
  }
  state_->intervals.reserve(state_->intervals.size() + records);
  if (options_.sweep_rows) state_->sweep.records.reserve(state_->sweep.records.size() + records);
}

void SummaryAccumulator::add(const RequestRecord& r, RecordValues* values) {
  RecordValues local;
  RecordValues& rv = values != nullptr ? *values : local;
  rv.v.fill(NAN);
  rv.usage_discrepancy = false;
  rv.osl_mismatch = false;
  const RecordFacts f = record_facts(r, options_.capabilities);
  add_values(r, f, &rv);
  // The rest of what compute_record_metrics fills, for the JSONL writer.
  rv.last_content_ns = r.ok() ? f.end_ns : 0;
  rv.schedule_lag_ns = rv.get(RecordMetric::kScheduleLag);
  rv.ttft_from_intended_ns = rv.get(RecordMetric::kTtftFromIntended);
  rv.latency_from_intended_ns = rv.get(RecordMetric::kLatencyFromIntended);
}

void SummaryAccumulator::add_values(const RequestRecord& r, const RecordFacts& f,
                                    RecordValues* values) {
  State& st = *state_;
  RecordValues& rv = *values;
  ++st.added;
  push_slots(st.all_outcome_slots, f, &st, &rv);
  if (r.request_start_ns > 0) {
    st.intervals.emplace_back(r.request_start_ns, std::max(r.end_ns, r.request_start_ns));
  }
  if (options_.sweep_rows) st.sweep.add(r, f);
  if (r.dropped()) {
    ++st.cancelled_request_count;
    return;
  }
  if (r.request_start_ns > 0) {
    st.any_min_start_ns = std::min(st.any_min_start_ns, r.request_start_ns);
    st.any_max_end_ns = std::max(st.any_max_end_ns, r.end_ns);
  }
  if (!r.ok()) {
    ++st.error_request_count;
    st.errors.add(error_code(r), record::error_kind_name(r.error), r.error_message);
    push_slots(st.error_slots, f, &st, &rv);
    return;
  }
  ++st.request_count;
  push_slots(st.success_slots, f, &st, &rv);
  if (r.request_start_ns > 0) st.min_start_ns = std::min(st.min_start_ns, r.request_start_ns);
  if (f.end_ns > 0) st.max_end_ns = std::max(st.max_end_ns, f.end_ns);
  set_warning_flags(f, &rv);
  if (rv.usage_discrepancy) ++st.usage_discrepancy_count;
  if (rv.osl_mismatch) ++st.osl_mismatch_count;
  if (!options_.slos.empty() && meets_slos(options_.slos, rv)) ++st.good_request_count;
  add_chunk_lists(r, &st);
}

void SummaryAccumulator::merge(SummaryAccumulator&& other) {
  State& a = *state_;
  State& b = *other.state_;
  for (size_t i = 0; i < kNumRecordSlots; ++i) a.columns[i].append(std::move(b.columns[i]));
  merge_chunk_lists(&a, &b);
  a.added += b.added;
  a.request_count += b.request_count;
  a.error_request_count += b.error_request_count;
  a.cancelled_request_count += b.cancelled_request_count;
  a.good_request_count += b.good_request_count;
  a.usage_discrepancy_count += b.usage_discrepancy_count;
  a.osl_mismatch_count += b.osl_mismatch_count;
  a.min_start_ns = std::min(a.min_start_ns, b.min_start_ns);
  a.max_end_ns = std::max(a.max_end_ns, b.max_end_ns);
  a.any_min_start_ns = std::min(a.any_min_start_ns, b.any_min_start_ns);
  a.any_max_end_ns = std::max(a.any_max_end_ns, b.any_max_end_ns);
  append(&a.intervals, std::move(b.intervals));
  a.sweep.merge(std::move(b.sweep));
  a.errors.merge(std::move(b.errors));
  *other.state_ = State();
  choose_slots(other.options_, other.state_);
}

Summary SummaryAccumulator::finish() const& {
  State copy = *state_;
  return build_summary(copy, options_);
}

Summary SummaryAccumulator::finish() && { return build_summary(*state_, options_); }

size_t SummaryAccumulator::size() const { return static_cast<size_t>(state_->added); }

size_t SummaryAccumulator::memory_bytes() const {
  const State& st = *state_;
  size_t bytes = sizeof(State);
  for (const auto& col : st.columns) bytes += col.memory_bytes();
  bytes += st.intervals.capacity() * sizeof(st.intervals[0]);
  bytes += st.sweep.memory_bytes();
  for (const auto& cl : st.chunk_lists) bytes += cl.series.memory_bytes();
  bytes += st.errors.memory_bytes();
  return bytes;
}

}  // namespace servebench::metrics
