#include "metrics/summary_accumulator.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "metrics/metric_info.h"
#include "metrics/summary_state.h"

namespace servebench::metrics {

using record::RequestRecord;

struct SummaryAccumulator::State : SummaryState {
  using SummaryState::SummaryState;
};

namespace {

void choose_slots(const SummaryOptions& o, SummaryState* st) {
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
  const MetricInfo* icl = find_metric("inter_chunk_latency");
  const MetricInfo* per_token = find_metric("per_token_inter_token_latency");
  st->icl_enabled = o.inter_chunk_latency && icl->applies_to(o.capabilities);
  st->per_token_enabled = st->icl_enabled && per_token->applies_to(o.capabilities);
}

void push_slots(const std::vector<SummaryState::SlotFn>& slots, const RecordFacts& f,
                SummaryState* st, RecordValues* values) {
  for (const SummaryState::SlotFn& s : slots) {
    const size_t i = static_cast<size_t>(s.slot);
    const double v = s.value(f);
    values->v[i] = v;
    if (!std::isnan(v)) st->columns[i].push_back(v);
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

void add_chunk_series(const RequestRecord& r, SummaryState* st) {
  if (!st->icl_enabled) return;
  if (st->per_token_enabled && !st->per_token_separate && !per_token_itl_equals_icl(r)) {
    // Every earlier sample had one token per chunk: per-token ITL so far is the ICL series.
    st->per_token = st->icl;
    st->per_token_separate = true;
  }
  for_each_inter_chunk_latency(r, [st](double gap) { st->icl.add(gap); });
  if (st->per_token_separate) {
    for_each_per_token_itl(r, [st](double v, size_t n) { st->per_token.add(v, n); });
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
    : options_(std::move(options)), state_(new State(options_)) {
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
      auto& col = state_->columns[static_cast<size_t>(s.slot)];
      col.reserve(col.size() + records);
    }
  }
  state_->intervals.reserve(state_->intervals.size() + records);
}

void SummaryAccumulator::add(const RequestRecord& r) {
  State& st = *state_;
  ++st.added;
  const RecordFacts f = record_facts(r, options_.capabilities);
  RecordValues rv;
  rv.v.fill(NAN);
  push_slots(st.all_outcome_slots, f, &st, &rv);
  if (r.request_start_ns > 0) {
    st.intervals.emplace_back(r.request_start_ns, std::max(r.end_ns, r.request_start_ns));
  }
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
  add_chunk_series(r, &st);
}

void SummaryAccumulator::merge(SummaryAccumulator&& other) {
  State& a = *state_;
  State& b = *other.state_;
  for (size_t i = 0; i < kNumRecordSlots; ++i) append(&a.columns[i], std::move(b.columns[i]));
  if (a.per_token_separate || b.per_token_separate) {
    if (!a.per_token_separate) a.per_token = a.icl;
    if (!b.per_token_separate) b.per_token = b.icl;
    a.per_token_separate = true;
    a.per_token.merge(std::move(b.per_token));
  }
  a.icl.merge(std::move(b.icl));
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
  a.errors.merge(std::move(b.errors));
  *other.state_ = State(other.options_);
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
  for (const auto& col : st.columns) bytes += col.capacity() * sizeof(double);
  bytes += st.intervals.capacity() * sizeof(st.intervals[0]);
  bytes += st.icl.memory_bytes() + st.per_token.memory_bytes() + st.errors.memory_bytes();
  return bytes;
}

}  // namespace servebench::metrics
