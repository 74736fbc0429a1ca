// Self-test analysis on hand-made records and ground truth with known lags and errors.
#include "experiment/selftest.h"

#include <gtest/gtest.h>

#include <string>

namespace servebench::experiment {
namespace {

std::string record(const std::string& id, int64_t intended, int64_t start, double ttft_ms) {
  return "{\"metadata\":{\"x_request_id\":\"" + id + "\",\"intended_ns\":" +
         std::to_string(intended) + ",\"request_start_ns\":" + std::to_string(start) +
         "},\"metrics\":{\"time_to_first_token\":{\"value\":" + std::to_string(ttft_ms) +
         ",\"unit\":\"ms\"}}}\n";
}

// The mock's clocks: wall = steady + 1e12 here.
std::string truth(const std::string& id, int64_t first_token_wall) {
  const int64_t offset = 1'000'000'000'000;
  const int64_t recv_wall = first_token_wall - 5'000'000;
  return "{\"x_request_id\":\"" + id + "\",\"received_wall_ns\":" + std::to_string(recv_wall) +
         ",\"received_steady_ns\":" + std::to_string(recv_wall - offset) +
         ",\"first_token_steady_ns\":" + std::to_string(first_token_wall - offset) +
         ",\"chunks\":[{},{},{}]}\n";
}

TEST(Selftest, LagAndTimingError) {
  const int64_t t0 = 2'000'000'000'000;
  // Request a: sent 0.5 ms late; client first token 20 ms after send; mock wrote it 19.8 ms
  // after that send → error 0.2 ms. Request b: on time, error 0.1 ms.
  const std::string recs = record("a", t0, t0 + 500'000, 20.0) +
                           record("b", t0 + 10'000'000, t0 + 10'000'000, 30.0);
  const std::string tr = truth("a", t0 + 500'000 + 19'800'000) +
                         truth("b", t0 + 10'000'000 + 29'900'000);
  const SelftestReport r = analyze_selftest(recs, tr, 2'000'000, 1.0, 1.0);
  EXPECT_EQ(r.requests, 2);
  EXPECT_EQ(r.matched, 2);
  EXPECT_EQ(r.sse_events, 6);
  EXPECT_NEAR(r.schedule_lag.max, 0.5, 1e-6);
  EXPECT_NEAR(r.schedule_lag.p50, 0.0, 1e-6);
  EXPECT_NEAR(r.ttft_error.max, 0.2, 1e-3);
  EXPECT_NEAR(r.ttft_error.p50, 0.1, 1e-3);
  EXPECT_DOUBLE_EQ(r.cpu_us_per_request, 1000);
  EXPECT_EQ(r.verdict.rfind("ok:", 0), 0u) << r.verdict;
  const SelftestReport strict = analyze_selftest(recs, tr, 2'000'000, 0.1, 1.0);
  EXPECT_EQ(strict.verdict.rfind("client-limited", 0), 0u) << strict.verdict;
  const SelftestReport none = analyze_selftest(recs, "", 0, 1, 1);
  EXPECT_EQ(none.matched, 0);
}

}  // namespace
}  // namespace servebench::experiment

namespace servebench::experiment {
namespace {

std::string timed(int64_t start, int64_t end) {
  return "{\"metadata\":{\"x_request_id\":\"r\",\"request_start_ns\":" + std::to_string(start) +
         ",\"request_end_ns\":" + std::to_string(end) + "}}\n";
}

TEST(Selftest, HeadroomIsTheCoresOverTheCoresTheClientKeptBusy) {
  // 100 requests over exactly 1 s (first send .. last end) = 100 req/s; 2 ms of CPU for the run
  // = 20 us per request, so the client kept 100 × 20e-6 = 0.002 cores busy: 2 cores give 1000x.
  std::string recs;
  const int64_t t0 = 5'000'000'000;
  for (int i = 0; i < 100; ++i) recs += timed(t0 + i * 9'000'000, t0 + i * 9'000'000 + 100'000'000);
  recs += timed(t0 + 500'000'000, t0 + 1'000'000'000);  // the 100th ends last, at t0 + 1 s
  const SelftestReport r = analyze_selftest(recs, "", 2'020'000, 1, 1, 2);
  EXPECT_EQ(r.requests, 101);
  EXPECT_NEAR(r.request_rate, 101.0, 1e-9);
  EXPECT_NEAR(r.cpu_us_per_request, 20.0, 1e-9);
  EXPECT_NEAR(r.client_cores, 101.0 * 20e-6, 1e-12);
  EXPECT_NEAR(r.headroom, 2 / (101.0 * 20e-6), 1e-6);
  EXPECT_EQ(r.cores, 2);
  EXPECT_NE(selftest_text(r).find("headroom            990.1x"), std::string::npos) << selftest_text(r);
  EXPECT_NE(selftest_json(r).find("\"headroom\""), std::string::npos);
  // No CPU or no timed request: unknown, not infinite.
  EXPECT_EQ(analyze_selftest(recs, "", 0, 1, 1, 2).headroom, 0);
  EXPECT_NE(selftest_text(analyze_selftest("", "", 5, 1, 1)).find("unknown"), std::string::npos);
}

}  // namespace
}  // namespace servebench::experiment
