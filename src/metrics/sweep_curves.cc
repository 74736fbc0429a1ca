#include "metrics/sweep_curves.h"

#include <cmath>
#include <limits>

namespace servebench::metrics::sweep {
namespace {

using Event = SweepEvent;

// Sorts events by time (decrements first at equal times) and sums them up. Ties are broken by
// the delta too, so the sums, and the summary, do not depend on the order of the records. The
// scratch vectors are reused for the next curve. Events at the same time make one step holding
// the sum after the last of them: every reader takes the last step at or before a time and skips
// zero-length segments, so the steps in between never show.
Step sweep(EventScratch* scratch) {
  sort_sweep_events(&scratch->events, &scratch->spare);
  const std::vector<Event>& ev = scratch->events;
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

}  // namespace

Step build_curve(const SweepData& data, int64_t origin, Curve curve, EventScratch* scratch) {
  const bool per_chunk = data.per_chunk && !data.gaps.empty();
  const double* gaps = data.gaps.data();
  std::vector<Event>& ev = scratch->events;
  ev.clear();
  for (const SweepRecord& r : data.records) {
    const Times t = times_of(r, origin);
    const double gen = t.end - t.first, pf = t.first - t.start;
    const bool prefills = pf > 0 && !std::isnan(r.isl);  // false when either is NaN
    const bool uniform = gen > 0 && r.osl >= 1;
    switch (curve) {
      case Curve::kConc: span(&ev, t.start, t.end, 1); break;
      case Curve::kDecodeConc: span(&ev, t.first, t.end, 1); break;
      case Curve::kPrefillConc: span(&ev, t.start, t.first, 1); break;
      case Curve::kDecode:
        if (per_chunk) {
          chunk_decode(t, r, gaps + r.gap_begin, &ev);
        } else if (uniform) {
          span(&ev, t.first, t.end, (r.osl - 1) / gen);
        }
        break;
      case Curve::kPrefill:
        if (prefills) span(&ev, t.start, t.first, r.isl / pf);
        break;
      case Curve::kTotal:  // prefill plus the request-level decode curve, as in AIPerf
        if (uniform) span(&ev, t.first, t.end, (r.osl - 1) / gen);
        if (prefills) span(&ev, t.start, t.first, r.isl / pf);
        break;
      case Curve::kTokens:
        if (per_chunk) {
          chunk_tokens(t, r, gaps + r.gap_begin, &ev);
          break;
        }
        if (prefills) span(&ev, t.start, t.end, r.isl);
        if (gen > 0 && !std::isnan(r.osl)) span(&ev, t.first, t.end, r.osl);
        break;
      case Curve::kDecodeUser:
      case Curve::kPrefillUser: return {};  // divide() of two built curves
    }
  }
  return sweep(scratch);
}

// The union of two curves' step times (each sorted by sweep()) in (lo, hi), sorted, once each,
// appended to `out`: a linear merge, not a sort of the concatenation.
void merged_times(const Step& a, const Step& b, double lo, double hi, std::vector<double>* out) {
  auto inside = [&](const Step& s) {
    return std::make_pair(std::upper_bound(s.ts.begin(), s.ts.end(), lo),
                          std::lower_bound(s.ts.begin(), s.ts.end(), hi));
  };
  const auto [a0, a1] = inside(a);
  const auto [b0, b1] = inside(b);
  const size_t from = out->size();
  out->resize(from + static_cast<size_t>((a1 - a0) + (b1 - b0)));
  const auto first = out->begin() + static_cast<std::ptrdiff_t>(from);
  out->erase(std::unique(first, std::merge(a0, a1, b0, b1, first)), out->end());
}

Step divide(const Step& num, const Step& den) {
  Step out;
  if (num.ts.empty() || den.ts.empty()) return out;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> grid;
  merged_times(num, den, -inf, inf, &grid);
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


}  // namespace servebench::metrics::sweep
