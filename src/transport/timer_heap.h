// TimerHeap: the event loop's timers by due time (earliest first; ties in creation order), with
// lazy cancellation whose memory stays bounded.
//
// A cancelled timer's entry is not searched for: it stays in the heap and is dropped when it
// reaches the top. That alone lets the heap grow with every request of a run: each request adds
// a timeout timer due far ahead and cancels it when the response ends, while a periodic timer
// due sooner (the worker's flush tick) always holds the top, so the cancelled entries below it
// never surface (24 bytes per request: ~7 MB after 300,000 requests, without end in a soak).
// So the heap counts its cancelled entries, and when they are more than half of it (and more
// than kMinCompact) drops them all in one pass and rebuilds: O(1) amortized per cancellation,
// and at most about twice the pending timers are held.
//
// Thread safety: none; the owning loop's thread only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace servebench::transport {

class TimerHeap {
 public:
  struct Entry {
    int64_t due_ns;
    uint64_t seq;  // creation order
    uint64_t id;   // TimerSlots id
    bool operator>(const Entry& o) const {
      return due_ns != o.due_ns ? due_ns > o.due_ns : seq > o.seq;
    }
  };
  static constexpr size_t kMinCompact = 64;

  void push(const Entry& e) {
    v_.push_back(e);
    std::push_heap(v_.begin(), v_.end(), std::greater<Entry>{});
  }
  bool empty() const { return v_.empty(); }
  size_t size() const { return v_.size(); }
  const Entry& top() const { return v_.front(); }
  // Removes the top entry; `was_cancelled`: its timer had been cancelled (see cancelled()).
  void pop(bool was_cancelled) {
    std::pop_heap(v_.begin(), v_.end(), std::greater<Entry>{});
    v_.pop_back();
    if (was_cancelled && cancelled_ > 0) --cancelled_;
  }
  // The timer of one entry in the heap was cancelled. `pending(id)` tells whether an entry's
  // timer is still pending, for the compaction.
  template <class Pending>
  void cancelled(const Pending& pending) {
    ++cancelled_;
    if (cancelled_ <= kMinCompact || cancelled_ * 2 <= v_.size()) return;
    std::erase_if(v_, [&pending](const Entry& e) { return !pending(e.id); });
    std::make_heap(v_.begin(), v_.end(), std::greater<Entry>{});
    cancelled_ = 0;
  }
  size_t cancelled_entries() const { return cancelled_; }

 private:
  std::vector<Entry> v_;
  size_t cancelled_ = 0;  // entries whose timer was cancelled, still in v_
};

}  // namespace servebench::transport
