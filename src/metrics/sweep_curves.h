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

// Working space for building curves, reused between calls: the events and the sort's spare.
struct EventScratch {
  std::vector<SweepEvent> events, spare;
};

// Builds `curve` (not a per-user one) over times relative to `origin` (ns).
Step build_curve(const SweepData& data, int64_t origin, Curve curve, EventScratch* scratch);
// num / den on the union of their step times (0 where den is not positive): the per-user curves.
Step divide(const Step& num, const Step& den);
// Appends the union of two curves' step times in (lo, hi) to `out`, sorted, once each.
void merged_times(const Step& a, const Step& b, double lo, double hi, std::vector<double>* out);

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
