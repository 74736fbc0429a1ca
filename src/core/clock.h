// Clock: the single source of time. Every interval is steady-clock nanoseconds; wall time is
// derived from one anchor read at t0 so exports can carry wall-clock timestamps without reading
// the wall clock on the hot path.
//
// Thread safety: SteadyClock is stateless and safe from any thread. FakeClock is for
// single-threaded tests (reads are atomic, so a test thread may advance it while another reads).
#pragma once

#include <atomic>
#include <cstdint>

namespace servebench::core {

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic nanoseconds (CLOCK_MONOTONIC via steady_clock); arbitrary origin.
  virtual int64_t now_ns() const = 0;
  // Wall-clock nanoseconds since the Unix epoch (system_clock). Read rarely: anchors only.
  virtual int64_t wall_ns() const = 0;
};

class SteadyClock final : public Clock {
 public:
  int64_t now_ns() const override;
  int64_t wall_ns() const override;
  // Process-wide instance.
  static const SteadyClock& instance();
};

// A clock tests drive by hand. Starts at steady 0 and the given wall time.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(int64_t start_ns = 0, int64_t wall_origin_ns = 1'700'000'000'000'000'000)
      : now_(start_ns), wall_origin_(wall_origin_ns - start_ns) {}
  int64_t now_ns() const override { return now_.load(std::memory_order_relaxed); }
  int64_t wall_ns() const override { return wall_origin_ + now_ns(); }
  void advance_ns(int64_t d) { now_.fetch_add(d, std::memory_order_relaxed); }
  void set_ns(int64_t t) { now_.store(t, std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> now_;
  int64_t wall_origin_;
};

// Maps steady timestamps to wall time using one pair of readings taken together. The one anchor
// type of the tree (record::RunAnchor names it for records and exports). A steady timestamp of
// 0 means "did not happen" (RequestRecord's convention) and maps to 0.
struct WallAnchor {
  int64_t steady_ns = 0;
  int64_t wall_ns = 0;

  static WallAnchor capture(const Clock& clock);
  int64_t to_wall_ns(int64_t steady) const {
    return steady == 0 ? 0 : wall_ns + (steady - steady_ns);
  }
};

}  // namespace servebench::core
