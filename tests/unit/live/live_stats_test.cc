// LiveStats and SeqlockCell: counts, rates, window vs overall percentiles, errors by kind,
// progress and ETA under a fake clock; seqlock copies stay consistent under a racing writer.
#include "live/live_stats.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "live/seqlock.h"

namespace servebench::live {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kS = 1'000'000'000;

// A streamed chat record: sent at start, first token after ttft, `tokens` chunks 10 ms apart.
record::RequestRecord streamed(int64_t start_ns, int64_t ttft_ns, int tokens) {
  record::RequestRecord r;
  r.streaming = true;
  r.intended_ns = start_ns;
  r.credit_issued_ns = start_ns;
  r.request_start_ns = start_ns;
  r.first_byte_ns = start_ns + ttft_ns;
  for (int i = 0; i < tokens; ++i) {
    record::Chunk c;
    c.recv_ns = start_ns + ttft_ns + i * 10 * kMs;
    c.kind = record::ChunkKind::kContent;
    c.tokens = 1;
    r.chunks.push_back(c);
  }
  r.end_ns = r.chunks.back().recv_ns;
  r.response_complete_ns = r.end_ns;
  r.input_tokens = 100;
  r.output_tokens = tokens;
  r.reasoning_tokens = 0;
  return r;
}

record::RequestRecord failed(int64_t start_ns, record::ErrorKind kind) {
  record::RequestRecord r;
  r.intended_ns = r.request_start_ns = start_ns;
  r.end_ns = start_ns + 5 * kMs;
  r.error = kind;
  return r;
}

TEST(SeqlockCell, StoresAndLoads) {
  struct V {
    int64_t a;
    double b;
    int32_t c;
  };
  SeqlockCell<V> cell;
  EXPECT_EQ(cell.load().a, 0);
  cell.store({7, 2.5, -3});
  const V v = cell.load();
  EXPECT_EQ(v.a, 7);
  EXPECT_EQ(v.b, 2.5);
  EXPECT_EQ(v.c, -3);
}

TEST(SeqlockCell, ReadersNeverSeeATornValue) {
  struct V {
    int64_t w[8];
  };
  SeqlockCell<V> cell;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int64_t i = 1; i <= 200'000; ++i) {
      V v;
      for (auto& x : v.w) x = i;
      cell.store(v);
    }
    done = true;
  });
  int64_t reads = 0, last = 0;
  while (!done.load() || reads == 0) {
    const V v = cell.load();
    for (const auto x : v.w) ASSERT_EQ(x, v.w[0]);
    ASSERT_GE(v.w[0], last);  // one writer: values never go back
    last = v.w[0];
    ++reads;
  }
  writer.join();
  EXPECT_EQ(cell.load().w[7], 200'000);
}

TEST(LiveStats, CountsRatesAndPercentiles) {
  core::FakeClock clock;
  clock.set_ns(1 * kS);
  LiveStats stats({/*expected_requests=*/10, 0, /*window_ns=*/5 * kS}, clock);
  stats.set_phase(LivePhase::kProfiling, 1 * kS);
  std::vector<record::RequestRecord> batch;
  // Old requests (TTFT 100 ms) outside the window by the time of publish, new ones (TTFT 20 ms)
  // inside it.
  for (int i = 0; i < 4; ++i) batch.push_back(streamed(1 * kS + i * kMs, 100 * kMs, 5));
  for (int i = 0; i < 4; ++i) batch.push_back(streamed(9 * kS + i * kMs, 20 * kMs, 5));
  batch.push_back(failed(9 * kS, record::ErrorKind::kHttpStatus));
  batch.push_back(failed(9 * kS, record::ErrorKind::kTimeout));
  stats.add(batch);
  stats.set_issued(12);
  clock.set_ns(11 * kS);
  stats.publish();
  const LiveSnapshot s = stats.snapshot();
  EXPECT_EQ(s.phase, LivePhase::kProfiling);
  EXPECT_EQ(s.completed, 10);
  EXPECT_EQ(s.ok, 8);
  EXPECT_EQ(s.failed, 2);
  EXPECT_EQ(s.in_flight(), 2);
  EXPECT_EQ(s.output_tokens, 40);
  EXPECT_EQ(s.errors[static_cast<size_t>(record::ErrorKind::kHttpStatus)], 1);
  EXPECT_EQ(s.errors[static_cast<size_t>(record::ErrorKind::kTimeout)], 1);
  // Window: the 4 recent successes and the 2 failures (schedule lag counts every request).
  EXPECT_EQ(s.ttft.window.count, 4);
  EXPECT_NEAR(s.ttft.window.p50_ns, 20 * kMs, 1);
  EXPECT_EQ(s.ttft.overall.count, 8);
  EXPECT_NEAR(s.ttft.overall.p99_ns, 100 * kMs, 100 * kMs * 1e-3);
  EXPECT_NEAR(s.itl.window.p50_ns, 10 * kMs, 1);
  EXPECT_NEAR(s.window_request_rate, 6.0 / 5.0, 1e-9);  // 6 completions in a 5 s window
  EXPECT_NEAR(s.overall_request_rate, 10.0 / 10.0, 1e-9);
  EXPECT_NEAR(s.window_token_rate, 20.0 / 5.0, 1e-9);
  EXPECT_DOUBLE_EQ(s.progress(), 1.0);
}

TEST(LiveStats, WarmupIsNotProfilingAndDroppedRequestsDoNotCount) {
  core::FakeClock clock;
  LiveStats stats({5, 0, 10 * kS}, clock);
  stats.set_phase(LivePhase::kWarmup);
  auto w = streamed(0, 10 * kMs, 3);
  w.phase = record::Phase::kWarmup;
  auto dropped = failed(0, record::ErrorKind::kCancelled);
  dropped.cancel_reason = record::CancelReason::kGrace;
  stats.add({w, dropped});
  stats.set_issued(2);
  stats.publish();
  const LiveSnapshot s = stats.snapshot();
  EXPECT_EQ(s.warmup_completed, 1);
  EXPECT_EQ(s.completed, 0);
  EXPECT_EQ(s.in_flight(), 1);
  EXPECT_EQ(s.ttft.overall.count, 0);
  stats.set_issued(0);  // the runner's count after its workers stopped: ignored
  stats.add({streamed(0, 10 * kMs, 3), streamed(0, 10 * kMs, 3)});
  stats.publish();
  EXPECT_EQ(stats.snapshot().issued, 3);  // never below what completed
  EXPECT_EQ(stats.snapshot().in_flight(), 0);
  EXPECT_DOUBLE_EQ(s.progress(), 0.0);
}

TEST(LiveStats, WindowIsCappedAndItsRateCoversWhatItHolds) {
  core::FakeClock clock;
  LiveStats stats({-1, 0, 100 * kS}, clock);
  stats.set_phase(LivePhase::kProfiling, 1);
  // kMaxWindowSamples + 1000 completions, one per ms: the window keeps the newest.
  std::vector<record::RequestRecord> batch;
  const int64_t n = static_cast<int64_t>(kMaxWindowSamples) + 1000;
  for (int64_t i = 0; i < n; ++i) {
    auto r = failed((i + 1) * kMs, record::ErrorKind::kTimeout);  // a start at 0 = never sent
    r.end_ns = (i + 1) * kMs;
    batch.push_back(std::move(r));
  }
  stats.add(batch);
  clock.set_ns(n * kMs);
  stats.publish();
  const LiveSnapshot s = stats.snapshot();
  EXPECT_EQ(s.completed, n);
  EXPECT_EQ(s.schedule_lag.window.count, static_cast<int64_t>(kMaxWindowSamples));
  EXPECT_EQ(s.schedule_lag.overall.count, n);
  EXPECT_NEAR(s.window_request_rate, 1000.0, 1.0);  // one per ms, whatever the cap
}

TEST(LiveSnapshot, ProgressAndEtaFromRequestsOrDuration) {
  LiveSnapshot s;
  s.phase = LivePhase::kProfiling;
  s.profiling_start_ns = 1 * kS;
  s.published_ns = 5 * kS;
  s.expected_requests = 100;
  s.completed = 25;
  EXPECT_DOUBLE_EQ(s.progress(), 0.25);
  EXPECT_NEAR(s.eta_s(), 12.0, 1e-9);  // 4 s for 25 %: 12 s for the rest
  s.expected_requests = -1;
  s.duration_ns = 8 * kS;
  EXPECT_DOUBLE_EQ(s.progress(), 0.5);
  EXPECT_NEAR(s.eta_s(), 4.0, 1e-9);
  s.duration_ns = 0;
  EXPECT_LT(s.progress(), 0);
  EXPECT_LT(s.eta_s(), 0);
  s.phase = LivePhase::kDone;
  EXPECT_DOUBLE_EQ(s.progress(), 1.0);
  s.expected_requests = 100;  // interrupted at 25 of 100: still 25 %
  EXPECT_DOUBLE_EQ(s.progress(), 0.25);
}

}  // namespace
}  // namespace servebench::live
