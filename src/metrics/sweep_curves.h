// Internal to sb_metrics: the step functions behind the sweep rows (sweep_rows.h) and how each
// is built from a SweepData. A curve is built alone (its events collected, sorted and summed in
// reused buffers), so a caller can hold only the curves it is reading: the end of a long run then
// never holds every curve, their events and the sort buffers at once.
//
// Thread safety: pure functions; a Step is a value (const Steps may be read from several threads).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "metrics/event_sort.h"
#include "metrics/sweep_rows.h"

namespace servebench::metrics::sweep {

// A step function: vals[i] holds from ts[i] until ts[i + 1]; 0 before ts[0]. Times are ns
// relative to the origin the curve was built at; at most one step per time.
struct Step {
  std::vector<double> ts, vals;
};

// The curves: requests in flight, in decode and in prefill; decode, prefill and total token
// rates (tokens/ns); tokens in flight; and the per-user rates (rate / requests in the span).
enum class Curve : uint8_t {
  kConc, kDecodeConc, kPrefillConc, kDecode, kPrefill, kTotal, kTokens, kDecodeUser, kPrefillUser
};
inline constexpr size_t kNumCurves = 9;

// The records of a SweepData ordered by start, by first token (those with one) and by end
// time, shared by the curves built from them (sweep_merge.cc).
struct TimeOrders {
  bool built = false;
  std::vector<uint32_t> by_start, by_first, by_end;
};

// Working space for building the curves of one SweepData, reused between calls: the events, the
// sort's spare and the time orders.
struct EventScratch {
  std::vector<SweepEvent> events, spare;
  TimeOrders orders;
};

// Builds `curve` (not a per-user one) over times relative to `origin` (ns). A curve whose events
// all sit at the records' start, first-token and end times is merged from the shared time orders
// (build_curve_merged); one that follows the chunks is sorted (build_curve_sorted). Both give
// the same steps, bit for bit.
Step build_curve(const SweepData& data, int64_t origin, Curve curve, EventScratch* scratch);
// Every event collected and sorted: the chunk curves, and the reference for the merged ones.
Step build_curve_sorted(const SweepData& data, int64_t origin, Curve curve,
                        EventScratch* scratch);
// The events of a request-level curve in time order by merging the time orders, with the events
// at one time ordered by delta as sorting would order them (sweep_merge.cc).
Step build_curve_merged(const SweepData& data, int64_t origin, Curve curve,
                        EventScratch* scratch);
// Sums events sorted by (time, delta) into steps: events at the same time make one step holding
// the sum after the last of them (every reader takes the last step at or before a time and
// skips zero-length segments, so the steps in between never show). Ties are broken by the delta
// too, so the sums, and the summary, do not depend on the order of the records.
Step sum_steps(const std::vector<SweepEvent>& events);
// num / den on the union of their step times (0 where den is not positive): the per-user curves.
Step divide(const Step& num, const Step& den);
// The union of two curves' step times in (lo, hi), sorted, once each.
std::vector<double> merged_times(const Step& a, const Step& b, double lo, double hi);

// Reads a curve's value at t (0 before its first step) at non-decreasing times, in amortized
// O(1) per read: divide() and the active rows walk every step time in order, and a binary
// search per read was most of their cost.
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

}  // namespace servebench::metrics::sweep
