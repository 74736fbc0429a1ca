// Outage detection (unreachable.h): the warning says when the server became unreachable, and
// the failing rule holds for a server that died mid-run but not for a blip.
#include "load/unreachable.h"

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

using record::ErrorKind;
using record::RequestRecord;

constexpr int64_t kMs = 1'000'000;

RequestRecord sent(int64_t start_ms, ErrorKind error = ErrorKind::kNone, int32_t url = 0) {
  RequestRecord r;
  r.intended_ns = start_ms * kMs;
  r.request_start_ns = start_ms * kMs;
  r.end_ns = start_ms * kMs + (error == ErrorKind::kNone ? 20 * kMs : 50'000);
  r.url_index = url;
  r.error = error;
  if (error != ErrorKind::kNone) r.error_message = "connect: Connection refused";
  if (error == ErrorKind::kNone) r.first_byte_ns = r.end_ns - kMs, r.response_bytes = 100;
  return r;
}

// `ok_ms` of successes every 10 ms from t=0, then refusals every `gap_ms` until `end_ms`.
std::vector<RequestRecord> died_at(int64_t ok_ms, int64_t gap_ms, int64_t end_ms) {
  std::vector<RequestRecord> v;
  for (int64_t t = 0; t < ok_ms; t += 10) v.push_back(sent(t));
  for (int64_t t = ok_ms; t < end_ms; t += gap_ms) v.push_back(sent(t, ErrorKind::kConnect));
  return v;
}

TEST(Unreachable, ConnectionLevelFailures) {
  EXPECT_TRUE(is_connection_failure(sent(0, ErrorKind::kConnect)));
  EXPECT_TRUE(is_connection_failure(sent(0, ErrorKind::kTls)));
  RequestRecord reset = sent(0, ErrorKind::kStreamReset);
  EXPECT_TRUE(is_connection_failure(reset));  // closed before any byte
  reset.response_bytes = 10;
  reset.first_byte_ns = 1;
  EXPECT_FALSE(is_connection_failure(reset));  // the server answered, then broke
  EXPECT_FALSE(is_connection_failure(sent(0, ErrorKind::kHttpStatus)));
  EXPECT_FALSE(is_connection_failure(sent(0, ErrorKind::kTimeout)));
  EXPECT_FALSE(is_connection_failure(sent(0)));
}

TEST(Unreachable, ServerKilledMidRunWarnsWithTheInstantAndFails) {
  const auto report = find_outages(died_at(1'020, 250, 5'000));
  ASSERT_EQ(report.outages.size(), 1u);
  EXPECT_TRUE(report.outages[0].trailing);
  EXPECT_EQ(report.outages[0].errors, 16);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("server unreachable from 1.02 s"), std::string::npos)
      << report.warnings[0];
  EXPECT_NE(report.warnings[0].find("16 connection error(s)"), std::string::npos);
  EXPECT_NE(report.warnings[0].find("Connection refused"), std::string::npos);
  EXPECT_TRUE(report.fail_run);
}

TEST(Unreachable, BriefRefusalAtTheVeryEndWarnsButPasses) {
  auto records = died_at(5'000, 1, 5'004);  // 4 refusals in the last 4 ms of 5 s
  const auto report = find_outages(records);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_FALSE(report.fail_run);
}

TEST(Unreachable, TooFewErrorsDoNotFail) {
  // Concurrency 1 against a server that died at 3 s of 5 s, with a long connect timeout:
  // two attempts only (the back-off cannot produce more). Fewer than kFailMinErrors: a warning.
  auto records = died_at(3'000, 1'000, 5'000);
  ASSERT_EQ(records.size(), 302u);
  const auto report = find_outages(records);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_FALSE(report.fail_run);
}

TEST(Unreachable, RecoveredOutageIsAWarningOnly) {
  auto records = died_at(1'000, 5, 2'000);  // 200 refusals
  for (int64_t t = 2'000; t < 5'000; t += 10) records.push_back(sent(t));
  const auto report = find_outages(records);
  ASSERT_EQ(report.outages.size(), 1u);
  EXPECT_FALSE(report.outages[0].trailing);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("from 1.00 s to 2.00 s"), std::string::npos)
      << report.warnings[0];
  EXPECT_FALSE(report.fail_run);
}

TEST(Unreachable, ScatteredFailuresAreNoOutage) {
  std::vector<RequestRecord> records;
  for (int64_t t = 0; t < 5'000; t += 10)
    records.push_back(sent(t, t % 20 ? ErrorKind::kNone : ErrorKind::kConnect));
  records.push_back(sent(5'000));
  const auto report = find_outages(records);
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_FALSE(report.fail_run);
}

TEST(Unreachable, EachUrlIsJudgedOnItsOwn) {
  std::vector<RequestRecord> records;
  for (int64_t t = 0; t < 5'000; t += 10) {
    records.push_back(sent(t, ErrorKind::kNone, 0));
    records.push_back(sent(t + 3, t < 1'000 ? ErrorKind::kNone : ErrorKind::kConnect, 1));
  }
  const auto report = find_outages(records);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("server (--url #2) unreachable from 1.00 s"), std::string::npos)
      << report.warnings[0];
  EXPECT_TRUE(report.fail_run);
}

// Out of descriptors is the client's problem: no "server unreachable" for it (a run at
// --concurrency 5000 under `ulimit -n 1024` said so before).
TEST(Unreachable, ClientResourceFailuresSayNothingAboutTheServer) {
  auto records = died_at(1'000, 1, 5'000);
  for (auto& r : records)
    if (!r.ok()) r.error_message = "socket: Too many open files";
  EXPECT_TRUE(is_client_resource_failure(records.back()));
  EXPECT_TRUE(is_connection_failure(records.back()));  // the slot still backs off
  const auto report = find_outages(records);
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_FALSE(report.fail_run);
}

TEST(Unreachable, WarmupAndDroppedRecordsAreIgnored) {
  auto records = died_at(1'000, 10, 5'000);
  for (auto& r : records) {
    if (r.ok()) continue;
    r.phase = record::Phase::kWarmup;
  }
  EXPECT_TRUE(find_outages(records).warnings.empty());
  RequestRecord cancelled = sent(6'000, ErrorKind::kCancelled);
  cancelled.cancel_reason = record::CancelReason::kInterrupt;
  records = died_at(1'000, 10, 5'000);
  records.push_back(cancelled);
  EXPECT_TRUE(find_outages(records).fail_run);  // the Ctrl-C cancellation does not end the outage
  EXPECT_TRUE(find_outages({}).warnings.empty());
}

}  // namespace
}  // namespace servebench::load
