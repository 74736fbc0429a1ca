#include "metrics/sweep_rows.h"

#include "metrics/event_sort.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <utility>

namespace servebench::metrics {
namespace {

constexpr double kPerSec = 1e9;  // tokens/ns → tokens/sec

// A step function: vals[i] holds from ts[i] until ts[i + 1]; 0 before ts[0].
struct Step {
  std::vector<double> ts, vals;
};

using Event = SweepEvent;

// Sorts events by time (decrements first at equal times) and sums them up. Ties are broken by
// the delta too, so the sums, and the summary, do not depend on the order of the records. The
// events are sorted in place (their vector is reused for the next curve). Events at the same
// time make one step holding the sum after the last of them: every reader takes the last step
// at or before a time and skips zero-length segments, so the steps in between never show.
Step sweep(std::vector<Event>* events) {
  std::vector<Event>& ev = *events;
  sort_sweep_events(&ev);
  const auto last_at_its_time = [&ev](size_t i) {
    return i + 1 == ev.size() || ev[i + 1].t != ev[i].t;
  };
  size_t steps = 0;
  for (size_t i = 0; i < ev.size(); ++i) steps += last_at_its_time(i);
  Step s;
  s.ts.reserve(steps);
  s.vals.reserve(steps);
  double sum = 0, max_abs = 0;
  for (size_t i = 0; i < ev.size(); ++i) {
    sum += ev[i].delta;
    max_abs = std::max(max_abs, std::abs(sum));
    if (!last_at_its_time(i)) continue;
    s.ts.push_back(ev[i].t);
    s.vals.push_back(sum);
  }
  // Cancellation of large +/- pairs leaves round-off where the quantity is really 0.
  for (double& v : s.vals) {
    if (std::abs(v) < 1e-9 * max_abs) v = 0;
  }
  return s;
}

// Adds [from, to) with weight w when all three are known.
void span(std::vector<Event>* ev, double from, double to, double w) {
  if (std::isnan(from) || std::isnan(to) || std::isnan(w)) return;
  ev->push_back({from, w});
  ev->push_back({to, -w});
}

// Reads a curve's value at t (0 before its first step) at non-decreasing times, in amortized
// O(1) per read: the grids below walk every step time in order, and a binary search per read
// was most of their cost.
class Cursor {
 public:
  // Positioned at `from`: reads at times >= from skip the steps before it by binary search, so
  // a window of a long curve costs O(log steps + steps inside it).
  Cursor(const Step& s, double from)
      : s_(s),
        i_(static_cast<size_t>(std::upper_bound(s.ts.begin(), s.ts.end(), from) - s.ts.begin())) {}
  explicit Cursor(const Step& s) : s_(s) {}
  double at(double t) {
    while (i_ < s_.ts.size() && s_.ts[i_] <= t) ++i_;
    return i_ == 0 ? 0.0 : s_.vals[i_ - 1];
  }

 private:
  const Step& s_;
  size_t i_ = 0;
};

// The union of two curves' step times (each sorted by sweep()) in (lo, hi), sorted, once each:
// a linear merge, not a sort of the concatenation.
std::vector<double> merged_times(const Step& a, const Step& b, double lo, double hi) {
  auto inside = [&](const Step& s) {
    return std::make_pair(std::upper_bound(s.ts.begin(), s.ts.end(), lo),
                          std::lower_bound(s.ts.begin(), s.ts.end(), hi));
  };
  const auto [a0, a1] = inside(a);
  const auto [b0, b1] = inside(b);
  std::vector<double> grid;
  grid.reserve(static_cast<size_t>((a1 - a0) + (b1 - b0)));
  std::merge(a0, a1, b0, b1, std::back_inserter(grid));
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  return grid;
}

Step divide(const Step& num, const Step& den) {
  Step out;
  if (num.ts.empty() || den.ts.empty()) return out;
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> grid = merged_times(num, den, -inf, inf);
  Cursor n(num), d(den);
  out.ts.reserve(grid.size());
  out.vals.reserve(grid.size());
  for (double t : grid) {
    const double dv = d.at(t), nv = n.at(t);
    out.ts.push_back(t);
    out.vals.push_back(dv > 0 ? nv / dv : 0.0);
  }
  return out;
}

using Seg = std::pair<double, double>;  // (value, duration)

// For each of the n ascending shares q[i], the first value, in value order, whose cumulative
// duration share reaches q[i] (what a sort and a running sum would give), found by recursive
// selection in expected O(size) rather than a sort. Everything before `lo` weighs `acc` and no
// value there exceeds one in [lo, hi); shares past the last segment (round-off) get `top`.
void shares(Seg* lo, Seg* hi, double acc, double dur_sum, const double* q, double* out,
            size_t n, double top) {
  const auto by_value = [](const Seg& a, const Seg& b) { return a.first < b.first; };
  while (n > 0) {
    if (lo == hi) {
      std::fill(out, out + n, top);
      return;
    }
    if (hi - lo == 1) {
      std::fill(out, out + n, lo->first);
      return;
    }
    Seg* mid = lo + (hi - lo - 1) / 2;
    std::nth_element(lo, mid, hi, by_value);
    double left = acc;
    for (const Seg* s = lo; s <= mid; ++s) left += s->second;
    size_t k = 0;
    while (k < n && left / dur_sum >= q[k]) ++k;
    if (k > 0) shares(lo, mid + 1, acc, dur_sum, q, out, k, mid->first);
    lo = mid + 1;
    acc = left;
    q += k;
    out += k;
    n -= k;
  }
}

// Duration-weighted statistics of (value, duration) segments; `total` is the weight of the
// whole (the window, or the active time).
Stats weighted(std::vector<Seg> seg, double total, double scale) {
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
  double value[4];
  shares(seg.data(), seg.data() + seg.size(), 0, dur_sum, q, value, 4, hi);
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
Stats time_weighted(const Step& s, double ws, double we, double scale) {
  std::vector<Seg> seg;
  if (!s.ts.empty()) {
    const size_t first =
        static_cast<size_t>(std::upper_bound(s.ts.begin(), s.ts.end(), ws) - s.ts.begin());
    double prev_t = ws, prev_v = first == 0 ? 0.0 : s.vals[first - 1];
    for (size_t i = first; i < s.ts.size(); ++i) {
      if (s.ts[i] >= we) break;
      if (s.ts[i] > prev_t) seg.emplace_back(prev_v, s.ts[i] - prev_t);
      prev_t = s.ts[i];
      prev_v = s.vals[i];
    }
    if (we > prev_t) seg.emplace_back(prev_v, we - prev_t);
  }
  return weighted(std::move(seg), we - ws, scale);
}

// The rate curve over the parts of [ws, we] where `mask` is positive, weighted by that time.
Stats active_weighted(const Step& rate, const Step& mask, double ws, double we, double scale) {
  std::vector<Seg> seg;
  double active = 0;
  if (!rate.ts.empty() && !mask.ts.empty() && we > ws) {
    std::vector<double> grid = merged_times(rate, mask, ws, we);
    grid.insert(grid.begin(), ws);
    grid.push_back(we);
    Cursor r(rate, ws), m(mask, ws);
    for (size_t i = 0; i + 1 < grid.size(); ++i) {
      const double d = grid[i + 1] - grid[i];
      const double mv = m.at(grid[i]), rv = r.at(grid[i]);
      if (d <= 0 || !(mv > 0)) continue;
      seg.emplace_back(rv, d);
      active += d;
    }
  }
  return weighted(std::move(seg), active, scale);
}

struct Curves {
  Step conc, decode_conc, prefill_conc, decode, prefill, total, tokens;
};

// One record's times relative to the window start.
struct Times {
  double start, first, end;  // first: NaN without a first token
};

// Decode rate per inter-chunk gap: (OSL - 1) split over the non-zero gaps.
void chunk_decode(const Times& t, const SweepRecord& r, const double* gaps,
                  std::vector<Event>* dec) {
  if (std::isnan(t.first) || !(r.osl >= 1) || r.gap_count == 0) return;
  uint32_t nonzero = 0;
  for (uint32_t k = 0; k < r.gap_count; ++k) nonzero += gaps[k] > 0;
  if (nonzero == 0) return;
  const double per_gap = (r.osl - 1) / nonzero;
  double at_ns = t.first;
  for (uint32_t k = 0; k < r.gap_count; ++k) {
    if (gaps[k] > 0) span(dec, at_ns, at_ns + gaps[k], per_gap / gaps[k]);
    at_ns += gaps[k];
  }
}

// Tokens in flight with output growing chunk by chunk (AIPerf's per-chunk variant): a record
// without gaps holds only its input.
void chunk_tokens(const Times& t, const SweepRecord& r, const double* gaps,
                  std::vector<Event>* tok) {
  const bool prefills = t.first > t.start && !std::isnan(r.isl);
  const bool grows = !std::isnan(t.first) && r.osl >= 1 && r.gap_count > 0;
  if (prefills) tok->push_back({t.start, r.isl});
  if (grows) {
    tok->push_back({t.first, 1});
    const double per_chunk = (r.osl - 1) / r.gap_count;
    double at_ns = t.first;
    for (uint32_t k = 0; k < r.gap_count; ++k) {
      at_ns += gaps[k];
      // A chunk stamped at the very end still counts before the end's decrement.
      tok->push_back({at_ns < t.end ? at_ns : std::nextafter(t.end, -INFINITY), per_chunk});
    }
  }
  const double held = (prefills ? r.isl : 0) + (grows ? r.osl : 0);
  if (prefills || grows) tok->push_back({t.end, -held});
}

// One record's times relative to `origin` (ns).
Times times_of(const SweepRecord& r, int64_t origin) {
  return {static_cast<double>(r.start_ns - origin),
          r.first_ns != 0 ? static_cast<double>(r.first_ns - origin) : NAN,
          static_cast<double>(r.end_ns - origin)};
}

// Curves over times relative to `origin` (ns), built one at a time: only one curve's events
// (reused vector) are alive beside the finished steps, so the end of a long run does not hold
// every curve's events, their copies and the sort buffers at once.
Curves curves(const SweepData& data, int64_t origin) {
  const bool per_chunk = data.per_chunk && !data.gaps.empty();
  std::vector<Event> ev;
  ev.reserve(2 * data.records.size());
  // Collects fn(t, r, &ev) for every record, then sorts and sums them.
  const auto build = [&](auto fn) {
    ev.clear();
    for (const SweepRecord& r : data.records) fn(times_of(r, origin), r, &ev);
    return sweep(&ev);
  };
  const auto uniform = [](const Times& t, const SweepRecord& r, std::vector<Event>* out) {
    const double gen = t.end - t.first;
    if (gen > 0 && r.osl >= 1) span(out, t.first, t.end, (r.osl - 1) / gen);
  };
  const auto prefill = [](const Times& t, const SweepRecord& r, std::vector<Event>* out) {
    const double pf = t.first - t.start;
    if (pf > 0 && !std::isnan(r.isl)) span(out, t.start, t.first, r.isl / pf);  // NaN: false
  };
  const double* gaps = data.gaps.data();
  Curves c;
  c.conc = build([](const Times& t, const SweepRecord&, std::vector<Event>* out) {
    span(out, t.start, t.end, 1);
  });
  c.decode_conc = build([](const Times& t, const SweepRecord&, std::vector<Event>* out) {
    span(out, t.first, t.end, 1);
  });
  c.prefill_conc = build([](const Times& t, const SweepRecord&, std::vector<Event>* out) {
    span(out, t.start, t.first, 1);
  });
  if (per_chunk) {
    c.decode = build([gaps](const Times& t, const SweepRecord& r, std::vector<Event>* out) {
      chunk_decode(t, r, gaps + r.gap_begin, out);
    });
  } else {
    c.decode = build(uniform);
  }
  c.prefill = build(prefill);
  c.total = build([&](const Times& t, const SweepRecord& r, std::vector<Event>* out) {
    uniform(t, r, out);
    prefill(t, r, out);
  });
  c.tokens = build([&](const Times& t, const SweepRecord& r, std::vector<Event>* out) {
    if (per_chunk) return chunk_tokens(t, r, gaps + r.gap_begin, out);
    const double gen = t.end - t.first, pf = t.first - t.start;
    if (pf > 0 && !std::isnan(r.isl)) span(out, t.start, t.end, r.isl);
    if (gen > 0 && !std::isnan(r.osl)) span(out, t.first, t.end, r.osl);
  });
  return c;
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
  Step decode_user, prefill_user;  // rate ÷ requests in the span (0 while none)
  int64_t origin_ns = 0;
  bool has_records = false;
};

SweepCurves::SweepCurves(const SweepData& data, int64_t origin_ns) : impl_(new Impl) {
  Impl& m = *impl_;
  m.origin_ns = origin_ns;
  m.has_records = !data.records.empty();
  if (!m.has_records) return;
  m.c = curves(data, origin_ns);
  m.decode_user = divide(m.c.decode, m.c.decode_conc);
  m.prefill_user = divide(m.c.prefill, m.c.prefill_conc);
}

SweepCurves::~SweepCurves() = default;
SweepCurves::SweepCurves(SweepCurves&&) noexcept = default;
SweepCurves& SweepCurves::operator=(SweepCurves&&) noexcept = default;

bool SweepCurves::has_records() const { return impl_->has_records; }

void SweepCurves::append_rows(int64_t window_start_ns, int64_t window_end_ns,
                              std::vector<MetricResult>* out) const {
  const Impl& m = *impl_;
  if (!m.has_records || window_end_ns <= window_start_ns) return;
  const Curves& c = m.c;
  const double ws = static_cast<double>(window_start_ns - m.origin_ns);
  const double we = static_cast<double>(window_end_ns - m.origin_ns);
  push(kEffConc, time_weighted(c.conc, ws, we, 1), out);
  push(kEffDecode, time_weighted(c.decode, ws, we, kPerSec), out);
  push(kEffPrefill, time_weighted(c.prefill, ws, we, kPerSec), out);
  push(kEffDecodeConc, time_weighted(c.decode_conc, ws, we, 1), out);
  push(kEffPrefillConc, time_weighted(c.prefill_conc, ws, we, 1), out);
  push(kEffTotal, time_weighted(c.total, ws, we, kPerSec), out);
  push(kEffDecodeUser, time_weighted(m.decode_user, ws, we, kPerSec), out);
  push(kEffPrefillUser, time_weighted(m.prefill_user, ws, we, kPerSec), out);
  push(kTokens, time_weighted(c.tokens, ws, we, 1), out);
  push(kActDecode, active_weighted(c.decode, c.decode_conc, ws, we, kPerSec), out);
  push(kActPrefill, active_weighted(c.prefill, c.prefill_conc, ws, we, kPerSec), out);
  push(kActDecodeUser, active_weighted(m.decode_user, c.decode_conc, ws, we, kPerSec), out);
  push(kActPrefillUser, active_weighted(m.prefill_user, c.prefill_conc, ws, we, kPerSec), out);
  push(kActTotal, active_weighted(c.total, c.conc, ws, we, kPerSec), out);
}

bool is_sweep_row(const MetricInfo& info) {
  for (const MetricInfo* row : kRows) {
    if (row == &info) return true;
  }
  return false;
}

void append_sweep_rows(const SweepData& data, int64_t window_start_ns, int64_t window_end_ns,
                       std::vector<MetricResult>* out) {
  if (data.records.empty() || window_end_ns <= window_start_ns) return;
  SweepCurves(data, window_start_ns).append_rows(window_start_ns, window_end_ns, out);
}

}  // namespace servebench::metrics
