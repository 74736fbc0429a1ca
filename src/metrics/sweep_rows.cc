#include "metrics/sweep_rows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "metrics/sweep_curves.h"
#include "metrics/weighted_quantiles.h"

namespace servebench::metrics {
namespace {

using sweep::Curve;
using sweep::Cursor;
using sweep::Step;

constexpr double kPerSec = 1e9;  // tokens/ns → tokens/sec

using Seg = WeightedSegment;  // (value, duration)

// Buffers the rows of one window reuse: a row's segments (up to one per step, ~16 bytes per
// request) and an active row's grid. Fresh ones per row were most of the end of a run's page
// faults.
struct RowScratch {
  std::vector<Seg> seg;
  std::vector<double> grid;
};

// Duration-weighted statistics of (value, duration) segments; `total` is the weight of the
// whole (the window, or the active time). The segments may be reordered.
Stats weighted(std::vector<Seg>& seg, double total, double scale) {
  Stats st;
  st.p.fill(NAN);
  st.sum = NAN;
  if (seg.empty() || !(total > 0)) {
    st.avg = st.min = st.max = st.std = 0;
    for (size_t i : {4, 6, 7, 8}) st.p[i] = 0;
    return st;
  }
  double area = 0, dur_sum = 0;
  double lo = seg.front().first, hi = lo;
  for (const auto& [v, d] : seg) {
    area += v * d;
    dur_sum += d;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const double avg = area / total;
  double var = 0;
  for (const auto& [v, d] : seg) var += d * (v - avg) * (v - avg);
  // p50, p90, p95, p99 at kPercentiles' indexes 4, 6, 7, 8.
  const double q[] = {0.50, 0.90, 0.95, 0.99};
  double value[4] = {lo, lo, lo, lo};  // a constant curve (an idle span's zeros) needs no selection
  if (lo != hi) weighted_quantiles(&seg, dur_sum, q, value, 4);
  const size_t idx[] = {4, 6, 7, 8};
  for (size_t i = 0; i < 4; ++i) st.p[idx[i]] = value[i] * scale;
  st.avg = avg * scale;
  st.min = lo * scale;
  st.max = hi * scale;
  st.std = std::sqrt(var / total) * scale;
  return st;
}

// The curve clipped to [ws, we], weighted over the whole window (AIPerf's
// compute_time_weighted_stats). The steps before ws are skipped by binary search.
Stats time_weighted(const Step& s, double ws, double we, double scale, RowScratch* scratch) {
  std::vector<Seg>& seg = scratch->seg;
  seg.clear();
  if (!s.ts.empty()) {
    const size_t first =
        static_cast<size_t>(std::upper_bound(s.ts.begin(), s.ts.end(), ws) - s.ts.begin());
    double prev_t = ws, prev_v = first == 0 ? 0.0 : s.vals[first - 1];
    seg.reserve(s.ts.size() - first + 1);  // at most one segment per step, plus the tail
    for (size_t i = first; i < s.ts.size(); ++i) {
      if (s.ts[i] >= we) break;
      if (s.ts[i] > prev_t) seg.emplace_back(prev_v, s.ts[i] - prev_t);
      prev_t = s.ts[i];
      prev_v = s.vals[i];
    }
    if (we > prev_t) seg.emplace_back(prev_v, we - prev_t);
  }
  return weighted(seg, we - ws, scale);
}

// The rate curve over the parts of [ws, we] where `mask` is positive, weighted by that time.
Stats active_weighted(const Step& rate, const Step& mask, double ws, double we, double scale,
                      RowScratch* scratch) {
  std::vector<Seg>& seg = scratch->seg;
  seg.clear();
  double active = 0;
  if (!rate.ts.empty() && !mask.ts.empty() && we > ws) {
    std::vector<double>& grid = scratch->grid;
    grid.assign(1, ws);
    merged_times(rate, mask, ws, we, &grid);
    grid.push_back(we);
    Cursor r(rate, ws), m(mask, ws);
    seg.reserve(grid.size() - 1);  // at most one segment per grid interval
    for (size_t i = 0; i + 1 < grid.size(); ++i) {
      const double d = grid[i + 1] - grid[i];
      const double mv = m.at(grid[i]), rv = r.at(grid[i]);
      if (d <= 0 || !(mv > 0)) continue;
      seg.emplace_back(rv, d);
      active += d;
    }
  }
  return weighted(seg, active, scale);
}

MetricInfo row(std::string_view tag, std::string_view header, std::string_view unit,
               ConsoleGroup group = ConsoleGroup::kEffective) {
  MetricInfo m{tag, header, unit, 1, MetricKind::kDerived, 0, 0};
  m.group = group;
  return m;
}

const MetricInfo kEffConc = row("effective_concurrency", "Effective Concurrency", "requests");
const MetricInfo kEffDecode =
    row("effective_decode_throughput", "Effective Decode Throughput", "tokens/sec");
const MetricInfo kEffPrefill =
    row("effective_prefill_throughput", "Effective Prefill Throughput", "tokens/sec");
const MetricInfo kEffDecodeConc =
    row("effective_decode_concurrency", "Effective Decode Concurrency", "requests");
const MetricInfo kEffPrefillConc =
    row("effective_prefill_concurrency", "Effective Prefill Concurrency", "requests");
const MetricInfo kEffTotal =
    row("effective_total_throughput", "Effective Total Throughput", "tokens/sec");
const MetricInfo kEffDecodeUser = row("effective_decode_throughput_per_user",
                                      "Effective Decode Throughput Per User", "tokens/sec/user");
const MetricInfo kEffPrefillUser = row("effective_prefill_throughput_per_user",
                                       "Effective Prefill Throughput Per User", "tokens/sec/user");
const MetricInfo kTokens = row("tokens_in_flight", "Tokens In Flight", "tokens");
// AIPerf's MetricConsoleGroup.ACTIVE, in the order of SweepLineCurves._compute_active_variants.
const MetricInfo kActDecode = row("active_decode_throughput", "Active Decode Throughput",
                                  "tokens/sec", ConsoleGroup::kActive);
const MetricInfo kActPrefill = row("active_prefill_throughput", "Active Prefill Throughput",
                                   "tokens/sec", ConsoleGroup::kActive);
const MetricInfo kActDecodeUser =
    row("active_decode_throughput_per_user", "Active Decode Throughput Per User",
        "tokens/sec/user", ConsoleGroup::kActive);
const MetricInfo kActPrefillUser =
    row("active_prefill_throughput_per_user", "Active Prefill Throughput Per User",
        "tokens/sec/user", ConsoleGroup::kActive);
const MetricInfo kActTotal = row("active_total_throughput", "Active Total Throughput",
                                 "tokens/sec", ConsoleGroup::kActive);

const MetricInfo* const kRows[] = {&kEffConc,        &kEffDecode,     &kEffPrefill,
                                   &kEffDecodeConc,  &kEffPrefillConc, &kEffTotal,
                                   &kEffDecodeUser,  &kEffPrefillUser, &kTokens,
                                   &kActDecode,      &kActPrefill,     &kActDecodeUser,
                                   &kActPrefillUser, &kActTotal};

void push(const MetricInfo& info, const Stats& st, std::vector<MetricResult>* out) {
  MetricResult m;
  m.info = &info;
  m.distribution = true;
  m.stats = st;
  out->push_back(m);
}

// A row: its curve, time-weighted over the window, or with `mask` weighted over the time the
// mask is positive (the active rows).
struct RowSpec {
  const MetricInfo* info;
  Curve curve;
  Curve mask;
  bool active;
  double scale;
};

// In kRows order.
const RowSpec kSpecs[] = {
    {&kEffConc, Curve::kConc, Curve::kConc, false, 1},
    {&kEffDecode, Curve::kDecode, Curve::kDecode, false, kPerSec},
    {&kEffPrefill, Curve::kPrefill, Curve::kPrefill, false, kPerSec},
    {&kEffDecodeConc, Curve::kDecodeConc, Curve::kDecodeConc, false, 1},
    {&kEffPrefillConc, Curve::kPrefillConc, Curve::kPrefillConc, false, 1},
    {&kEffTotal, Curve::kTotal, Curve::kTotal, false, kPerSec},
    {&kEffDecodeUser, Curve::kDecodeUser, Curve::kDecodeUser, false, kPerSec},
    {&kEffPrefillUser, Curve::kPrefillUser, Curve::kPrefillUser, false, kPerSec},
    {&kTokens, Curve::kTokens, Curve::kTokens, false, 1},
    {&kActDecode, Curve::kDecode, Curve::kDecodeConc, true, kPerSec},
    {&kActPrefill, Curve::kPrefill, Curve::kPrefillConc, true, kPerSec},
    {&kActDecodeUser, Curve::kDecodeUser, Curve::kDecodeConc, true, kPerSec},
    {&kActPrefillUser, Curve::kPrefillUser, Curve::kPrefillConc, true, kPerSec},
    {&kActTotal, Curve::kTotal, Curve::kConc, true, kPerSec},
};
constexpr size_t kNumRows = std::size(kSpecs);
static_assert(kNumRows == std::size(kRows));

using Curves = std::array<Step, sweep::kNumCurves>;

Step& at(Curves& c, Curve k) { return c[static_cast<size_t>(k)]; }
const Step& at(const Curves& c, Curve k) { return c[static_cast<size_t>(k)]; }

Stats row_stats(const RowSpec& s, const Curves& c, double ws, double we, RowScratch* scratch) {
  return s.active ? active_weighted(at(c, s.curve), at(c, s.mask), ws, we, s.scale, scratch)
                  : time_weighted(at(c, s.curve), ws, we, s.scale, scratch);
}

// Builds the curves of `group` into `c`: a per-user curve right after its rate and
// concurrency, which the group lists first.
void build_group(const SweepData& data, int64_t origin, std::initializer_list<Curve> group,
                 sweep::EventScratch* events, Curves* c) {
  for (Curve k : group) {
    if (k == Curve::kDecodeUser) {
      at(*c, k) = sweep::divide(at(*c, Curve::kDecode), at(*c, Curve::kDecodeConc));
    } else if (k == Curve::kPrefillUser) {
      at(*c, k) = sweep::divide(at(*c, Curve::kPrefill), at(*c, Curve::kPrefillConc));
    } else {
      at(*c, k) = sweep::build_curve(data, origin, k, events);
    }
  }
}

// Every row reads curves of one group only; a group's curves are freed before the next is
// built.
const std::initializer_list<Curve> kGroups[] = {
    {Curve::kDecode, Curve::kDecodeConc, Curve::kDecodeUser},
    {Curve::kPrefill, Curve::kPrefillConc, Curve::kPrefillUser},
    {Curve::kConc, Curve::kTotal},
    {Curve::kTokens},
};

bool in_group(std::initializer_list<Curve> group, Curve k) {
  return std::find(group.begin(), group.end(), k) != group.end();
}

}  // namespace


void SweepData::add(const record::RequestRecord& r, const RecordFacts& f) {
  if (r.request_start_ns <= 0 || r.end_ns <= 0) return;
  SweepRecord s;
  s.start_ns = r.request_start_ns;
  s.end_ns = r.end_ns;
  const bool ok = r.ok();
  s.first_ns = ok && f.streamed_content() ? f.first_ns : 0;
  s.isl = ok && f.has_isl ? static_cast<double>(r.input_tokens) : NAN;
  s.osl = ok && f.has_osl ? f.osl : NAN;
  if (per_chunk) {
    s.gap_begin = gaps.size();
    for_each_inter_chunk_latency(r, [this](double gap) { gaps.push_back(gap); });
    s.gap_count = static_cast<uint32_t>(gaps.size() - s.gap_begin);
    if (gaps.size() > gap_limit) {
      per_chunk = false;
      gaps = std::vector<double>();
    }
  }
  records.push_back(s);
}

void SweepData::merge(SweepData&& o) {
  per_chunk = per_chunk && o.per_chunk && gaps.size() + o.gaps.size() <= gap_limit;
  const size_t offset = gaps.size();
  for (SweepRecord& s : o.records) s.gap_begin += offset;
  // Into an empty side (the run's merge of its one processor slot) the vectors move: a copy
  // would hold both at once.
  if (records.empty()) {
    records = std::move(o.records);
  } else {
    records.insert(records.end(), o.records.begin(), o.records.end());
  }
  if (per_chunk && gaps.empty()) {
    gaps = std::move(o.gaps);
  } else if (per_chunk) {
    gaps.insert(gaps.end(), o.gaps.begin(), o.gaps.end());
  } else {
    gaps = std::vector<double>();
  }
  o.records = std::vector<SweepRecord>();
  o.gaps = std::vector<double>();
}

size_t SweepData::memory_bytes() const {
  return records.capacity() * sizeof(SweepRecord) + gaps.capacity() * sizeof(double);
}

struct SweepCurves::Impl {
  Curves c;
  int64_t origin_ns = 0;
  bool has_records = false;
};

SweepCurves::SweepCurves(const SweepData& data, int64_t origin_ns) : impl_(new Impl) {
  Impl& m = *impl_;
  m.origin_ns = origin_ns;
  m.has_records = !data.records.empty();
  if (!m.has_records) return;
  sweep::EventScratch events;
  for (const auto& group : kGroups) build_group(data, origin_ns, group, &events, &m.c);
}

SweepCurves::~SweepCurves() = default;
SweepCurves::SweepCurves(SweepCurves&&) noexcept = default;
SweepCurves& SweepCurves::operator=(SweepCurves&&) noexcept = default;

bool SweepCurves::has_records() const { return impl_->has_records; }

void SweepCurves::append_rows(int64_t window_start_ns, int64_t window_end_ns,
                              std::vector<MetricResult>* out) const {
  const Impl& m = *impl_;
  if (!m.has_records || window_end_ns <= window_start_ns) return;
  const double ws = static_cast<double>(window_start_ns - m.origin_ns);
  const double we = static_cast<double>(window_end_ns - m.origin_ns);
  RowScratch scratch;
  for (const RowSpec& s : kSpecs) push(*s.info, row_stats(s, m.c, ws, we, &scratch), out);
}

bool is_sweep_row(const MetricInfo& info) {
  for (const MetricInfo* row : kRows) {
    if (row == &info) return true;
  }
  return false;
}

// The rows of one window, one curve group at a time (SweepCurves would hold all nine curves).
void append_sweep_rows(const SweepData& data, int64_t window_start_ns, int64_t window_end_ns,
                       std::vector<MetricResult>* out) {
  if (data.records.empty() || window_end_ns <= window_start_ns) return;
  const double we = static_cast<double>(window_end_ns - window_start_ns);
  std::array<Stats, kNumRows> stats;
  sweep::EventScratch events;
  RowScratch scratch;
  Curves c;
  for (const auto& group : kGroups) {
    build_group(data, window_start_ns, group, &events, &c);
    for (size_t i = 0; i < kNumRows; ++i) {
      if (in_group(group, kSpecs[i].curve)) stats[i] = row_stats(kSpecs[i], c, 0, we, &scratch);
    }
    for (Curve k : group) at(c, k) = Step();
  }
  for (size_t i = 0; i < kNumRows; ++i) push(*kSpecs[i].info, stats[i], out);
}

}  // namespace servebench::metrics
