// LiveStats: the running figures of a benchmark for the terminal dashboard and the live API,
// built beside the run without touching its workers.
//
// Writers: add() folds each token-counted batch in (the record-processing thread, through
// RunHooks::records); set_issued() stores the runner's issued count (the load monitor's thread,
// RunHooks::progress); set_phase() and publish() from the run's hooks or a timer. publish()
// computes the window and overall percentiles and stores one LiveSnapshot in a seqlock.
// Readers (dashboard, API server) call snapshot(): a lock-free copy, never blocking a writer.
//
// Window figures cover the last `window_ns` of completions (by completion time); overall ones
// cover the whole profiling phase (bounded-error histograms, metrics/log_histogram.h). Warm-up
// requests count toward progress of the warm-up phase only.
//
// Thread safety: add, set_phase and publish take an internal mutex shared by those writers only
// (the record-processing and monitor threads); set_issued and snapshot are lock-free.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "core/clock.h"
#include "live/seqlock.h"
#include "metrics/log_histogram.h"
#include "record/request_record.h"

namespace servebench::live {

enum class LivePhase : int32_t { kSetup, kWarmup, kProfiling, kDraining, kDone };
const char* live_phase_name(LivePhase p);

inline constexpr size_t kErrorKinds = static_cast<size_t>(record::ErrorKind::kOther) + 1;

struct LiveQuantiles {
  double p50_ns = 0, p99_ns = 0;
  int64_t count = 0;  // samples behind them (0: no data, p50/p99 meaningless)
};

struct LiveMetric {
  LiveQuantiles window, overall;
};

// One consistent view. Plain data (seqlock-published).
struct LiveSnapshot {
  int64_t published_ns = 0;  // steady ns
  LivePhase phase = LivePhase::kSetup;
  int64_t profiling_start_ns = 0;  // 0 until the profiling phase starts
  int64_t expected_requests = -1;  // profiling requests planned; -1 = unknown (duration)
  int64_t duration_ns = 0;         // --benchmark-duration; 0 = none
  int64_t issued = 0;              // all phases
  int64_t warmup_completed = 0;
  int64_t completed = 0;  // profiling: ok + failed (run-dropped cancellations excluded)
  int64_t ok = 0, failed = 0;
  int64_t output_tokens = 0;  // profiling, successful requests
  int64_t input_tokens = 0;
  double window_request_rate = 0, window_token_rate = 0;    // per second
  double overall_request_rate = 0, overall_token_rate = 0;  // since profiling start
  LiveMetric ttft, itl, latency, schedule_lag;
  std::array<int64_t, kErrorKinds> errors{};  // by record::ErrorKind
  double cpu_percent = 0;                     // process CPU over the last publish interval
  double cpu_per_request_us = 0;              // process CPU since profiling start / completed

  int64_t in_flight() const {
    const int64_t n = issued - completed - warmup_completed;
    return n > 0 ? n : 0;
  }
  // 0..1 of the profiling phase: completed / expected requests when the count is known (also
  // after the load, so an interrupted run stays below 1), else elapsed / duration, 1 once the
  // load ended; -1 = unknown.
  double progress() const;
  // Seconds to the end of the profiling phase, from progress(); -1 = unknown.
  double eta_s() const;
};

// The window keeps at most this many completions (the newest), so a publish sorts a bounded
// amount however high the rate: 10 s at up to ~6,500 req/s is exact, beyond that the window
// is the last 65,536 completions.
inline constexpr size_t kMaxWindowSamples = 65536;

struct LiveOptions {
  int64_t expected_requests = -1;
  int64_t duration_ns = 0;
  int64_t window_ns = 10'000'000'000;
};

class LiveStats {
 public:
  LiveStats(LiveOptions options, const core::Clock& clock);
  LiveStats(const LiveStats&) = delete;
  LiveStats& operator=(const LiveStats&) = delete;

  void add(const std::vector<record::RequestRecord>& batch);
  // Never goes back (the runner reports 0 once its workers stopped). One calling thread.
  void set_issued(int64_t issued) {
    if (issued > issued_.load(std::memory_order_relaxed))
      issued_.store(issued, std::memory_order_relaxed);
  }
  // `start_ns`: the profiling phase's start when entering kProfiling (else ignored).
  void set_phase(LivePhase phase, int64_t start_ns = 0);
  void publish();
  LiveSnapshot snapshot() const;

 private:
  struct Sample {
    int64_t end_ns;
    double ttft, itl, latency, lag;  // NaN where absent
    int64_t output_tokens;
  };
  void add_one(const record::RequestRecord& r);

  const LiveOptions options_;
  const core::Clock& clock_;
  std::atomic<int64_t> issued_{0};
  std::mutex mu_;  // writers only
  LiveSnapshot state_;
  std::deque<Sample> window_;
  metrics::LogHistogram ttft_, itl_, latency_, lag_;
  int64_t last_cpu_ns_ = 0, last_wall_ns_ = 0, start_cpu_ns_ = 0;
  SeqlockCell<LiveSnapshot> cell_;
};

// Process CPU time (user + system) in ns.
int64_t process_cpu_ns();

}  // namespace servebench::live
