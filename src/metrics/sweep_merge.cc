// The request-level curves (sweep_curves.h build_curve_merged): every event of such a curve sits
// at a record's start, first-token or end time, so the curve's events come in time order from a
// merge of the three time orders, sorted once for all the curves, instead of a sort of each
// curve's events (two to four per record, seven curves). Events at one time are then ordered by
// delta, as sorting by (time, delta) orders them, so the sums are the same bit for bit.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "metrics/sweep_curves.h"

namespace servebench::metrics::sweep {
namespace {

enum Point : uint8_t { kStart, kFirst, kEnd };

// A record's times relative to the origin (first: NaN without a first token) and lengths, and
// the conditions build_curve_sorted puts on its spans.
struct Facts {
  double start, first, end, isl, osl;
  bool has_first() const { return !std::isnan(first); }
  bool prefills() const { return first - start > 0 && !std::isnan(isl); }
  bool uniform() const { return end - first > 0 && osl >= 1; }
  bool generates() const { return end - first > 0 && !std::isnan(osl); }
  double decode_rate() const { return (osl - 1) / (end - first); }
  double prefill_rate() const { return isl / (first - start); }
};

Facts facts_of(const SweepRecord& r, int64_t origin) {
  return {static_cast<double>(r.start_ns - origin),
          r.first_ns != 0 ? static_cast<double>(r.first_ns - origin) : NAN,
          static_cast<double>(r.end_ns - origin), r.isl, r.osl};
}

// The points a curve has events at.
bool uses(Curve curve, Point p) {
  switch (curve) {
    case Curve::kConc: return p != kFirst;
    case Curve::kDecodeConc:
    case Curve::kDecode: return p != kStart;
    case Curve::kPrefillConc:
    case Curve::kPrefill: return p != kEnd;
    default: return true;
  }
}

// The deltas of `curve`'s events a record has at point `p` (its spans as build_curve_sorted
// adds them: +w at the span's start, -w at its end); returns how many (at most two).
int deltas_at(Curve curve, Point p, const Facts& f, double* out) {
  int n = 0;
  const auto add = [&](bool when, double w) {
    if (when) out[n++] = w;
  };
  switch (curve) {
    case Curve::kConc: add(true, p == kStart ? 1 : -1); break;
    case Curve::kDecodeConc: add(f.has_first(), p == kFirst ? 1 : -1); break;
    case Curve::kPrefillConc: add(f.has_first(), p == kStart ? 1 : -1); break;
    case Curve::kDecode: add(f.uniform(), p == kFirst ? f.decode_rate() : -f.decode_rate()); break;
    case Curve::kPrefill:
      add(f.prefills(), p == kStart ? f.prefill_rate() : -f.prefill_rate());
      break;
    case Curve::kTotal:  // the request-level decode span and the prefill span
      if (p != kStart) add(f.uniform(), p == kFirst ? f.decode_rate() : -f.decode_rate());
      if (p != kEnd) add(f.prefills(), p == kStart ? f.prefill_rate() : -f.prefill_rate());
      break;
    case Curve::kTokens:  // ISL over [start, end), OSL over [first token, end)
      if (p != kFirst) add(f.prefills(), p == kStart ? f.isl : -f.isl);
      if (p != kStart) add(f.generates(), p == kFirst ? f.osl : -f.osl);
      break;
    case Curve::kDecodeUser:
    case Curve::kPrefillUser: break;
  }
  return n;
}

std::vector<uint32_t> order_by(const std::vector<SweepRecord>& recs, int64_t SweepRecord::*time,
                               bool skip_zero) {
  std::vector<std::pair<int64_t, uint32_t>> keyed;
  keyed.reserve(recs.size());
  for (size_t i = 0; i < recs.size(); ++i) {
    const int64_t t = recs[i].*time;
    if (!skip_zero || t != 0) keyed.emplace_back(t, static_cast<uint32_t>(i));
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<uint32_t> order(keyed.size());
  for (size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
  return order;
}

void build_orders(const SweepData& data, TimeOrders* o) {
  if (o->built) return;
  o->by_start = order_by(data.records, &SweepRecord::start_ns, false);
  o->by_first = order_by(data.records, &SweepRecord::first_ns, true);
  o->by_end = order_by(data.records, &SweepRecord::end_ns, false);
  o->built = true;
}

// Orders each run of events at one time by delta (sort_sweep_events' order within a time).
void order_ties(std::vector<SweepEvent>* events) {
  auto& ev = *events;
  for (size_t i = 0; i < ev.size();) {
    size_t j = i + 1;
    while (j < ev.size() && ev[j].t == ev[i].t) ++j;
    if (j - i > 1) {
      std::sort(ev.begin() + static_cast<std::ptrdiff_t>(i), ev.begin() + static_cast<std::ptrdiff_t>(j),
                [](const SweepEvent& a, const SweepEvent& b) { return a.delta < b.delta; });
    }
    i = j;
  }
}

}  // namespace

Step build_curve_merged(const SweepData& data, int64_t origin, Curve curve,
                        EventScratch* scratch) {
  build_orders(data, &scratch->orders);
  const TimeOrders& o = scratch->orders;
  const std::array<const std::vector<uint32_t>*, 3> orders = {&o.by_start, &o.by_first, &o.by_end};
  std::array<size_t, 3> at{};
  constexpr double kNone = std::numeric_limits<double>::infinity();
  const auto head_time = [&](Point p) {
    if (!uses(curve, p) || at[p] == orders[p]->size()) return kNone;
    const SweepRecord& r = data.records[(*orders[p])[at[p]]];
    const int64_t ns = p == kStart ? r.start_ns : p == kFirst ? r.first_ns : r.end_ns;
    return static_cast<double>(ns - origin);
  };
  std::vector<SweepEvent>& ev = scratch->events;
  ev.clear();
  std::array<double, 3> heads = {head_time(kStart), head_time(kFirst), head_time(kEnd)};
  for (;;) {
    const auto p = static_cast<Point>(std::min_element(heads.begin(), heads.end()) - heads.begin());
    if (heads[p] == kNone) break;
    const Facts f = facts_of(data.records[(*orders[p])[at[p]]], origin);
    double deltas[2];
    const int n = deltas_at(curve, p, f, deltas);
    for (int k = 0; k < n; ++k) ev.push_back({heads[p], deltas[k]});
    ++at[p];
    heads[p] = head_time(p);
  }
  order_ties(&ev);
  return sum_steps(ev);
}

}  // namespace servebench::metrics::sweep
