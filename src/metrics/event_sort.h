// Sorting the sweep rows' step events (sweep_rows.cc): (time, delta) pairs ordered by time, then
// decrements before increments, then by delta, so the running sums do not depend on the order
// of the records. A run of 100,000 requests has a few hundred thousand events per curve, and a
// comparison sort of them was the largest part of building the curves; this is a bucket sort:
// one counting pass places each event in one of n/4 buckets of equal time width, then each
// bucket is sorted with the comparator (insertion sort; std::sort for a crowded one). Events
// are moved whole, so times and deltas come back bit for bit.
//
// Thread safety: pure function.
#pragma once

#include <vector>

namespace servebench::metrics {

struct SweepEvent {
  double t;      // ns, never NaN
  double delta;  // the step's change
};

// Orders `events` as described above (the result equals a std::sort with that comparator).
// `scratch` is working space; it is left holding some other allocation of events (reuse it for
// the next call: both vectors keep their capacity).
void sort_sweep_events(std::vector<SweepEvent>* events, std::vector<SweepEvent>* scratch);
inline void sort_sweep_events(std::vector<SweepEvent>* events) {
  std::vector<SweepEvent> scratch;
  sort_sweep_events(events, &scratch);
}

}  // namespace servebench::metrics
