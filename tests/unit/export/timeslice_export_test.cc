// AIPerf 0.13's time-weighted sweep rows in the exports: the timeslice files carry them for
// every slice, each over the slice's window of the run's curves, and flag the last slice clipped
// to the run's end (AIPerf's TimesliceMetricsJsonExporter / TimesliceMetricsCsvExporter over
// the results of MetricsAccumulator._compute_timeslices); the console prints the active rows in
// their own "Active" table (ConsoleMetricsExporter.console_groups).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "export/console.h"
#include "export/csv_export.h"
#include "export/slice_accumulator.h"
#include "export/summary_json.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::exporter {
namespace {

using servebench::testing::make_stream_record;
using servebench::testing::StreamSpec;

constexpr int64_t kMs = 1'000'000;

const char* const kSweepTags[] = {"effective_concurrency",
                                  "effective_decode_throughput",
                                  "effective_prefill_throughput",
                                  "effective_decode_concurrency",
                                  "effective_prefill_concurrency",
                                  "effective_total_throughput",
                                  "effective_decode_throughput_per_user",
                                  "effective_prefill_throughput_per_user",
                                  "tokens_in_flight",
                                  "active_decode_throughput",
                                  "active_prefill_throughput",
                                  "active_decode_throughput_per_user",
                                  "active_prefill_throughput_per_user",
                                  "active_total_throughput"};

// overlapping_pair() (record_fixtures.h) in 100 ms slices (tests/unit/metrics/timeslices_test.cc).
std::vector<metrics::TimeSlice> two_slices() {
  SliceAccumulator acc(100 * kMs, {});
  for (const auto& r : servebench::testing::overlapping_pair()) acc.add(r);
  return acc.finish();
}

TEST(TimesliceExportTest, JsonHasTheSweepRowsOfEverySlice) {
  RunContext ctx;
  ctx.anchor = {1000 * kMs, 1'700'000'000'000'000'000};
  const auto j = nlohmann::json::parse(render_timeslices_json(ctx, two_slices()));
  const auto& slices = j["timeslices"];
  ASSERT_EQ(slices.size(), 2u);
  for (const auto& s : slices) {
    for (const char* tag : kSweepTags) {
      ASSERT_TRUE(s.contains(tag)) << tag;
      EXPECT_TRUE(s[tag]["avg"].is_number()) << tag;
      EXPECT_TRUE(s[tag]["p99"].is_number()) << tag;
      EXPECT_TRUE(s[tag]["p1"].is_null()) << tag;  // not a sweep statistic
    }
  }
  // Slice 1 counts A, which started in slice 0, while it is in flight.
  EXPECT_DOUBLE_EQ(slices[1]["effective_concurrency"]["avg"].get<double>(),
                   (2.0 * 50'300'000 + 30'000'000) / 80'300'000);
  EXPECT_DOUBLE_EQ(slices[0]["effective_concurrency"]["avg"].get<double>(), 1);
  // is_complete only on the clipped last slice; its end_ns is the run's end (wall ns).
  EXPECT_FALSE(slices[0].contains("is_complete"));
  EXPECT_EQ(slices[1]["is_complete"], false);
  EXPECT_EQ(slices[1]["end_ns"].get<int64_t>(), 1'700'000'000'000'000'000 + 180'300'000);
  EXPECT_EQ(slices[0]["end_ns"].get<int64_t>(), 1'700'000'000'000'000'000 + 100'000'000);
}

// The CSV's value of (slice, metric header, stat), or NaN when the row is missing.
double csv_value(const std::string& csv, int slice, const std::string& header,
                 const std::string& stat) {
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string cell; std::getline(ls, cell, ',');) f.push_back(cell);
    if (f.size() == 7 && f[0] == std::to_string(slice) && f[3] == header && f[5] == stat) {
      return std::stod(f[6]);
    }
  }
  return NAN;
}

TEST(TimesliceExportTest, CsvHasTheSweepRowsOfEverySlice) {
  const std::string csv = render_timeslices_csv(two_slices(), {});
  for (int slice : {0, 1}) {
    for (const char* header :
         {"Effective Concurrency", "Effective Prefill Throughput", "Tokens In Flight",
          "Active Decode Throughput", "Active Prefill Throughput Per User",
          "Active Total Throughput"}) {
      EXPECT_FALSE(std::isnan(csv_value(csv, slice, header, "avg"))) << slice << header;
      EXPECT_FALSE(std::isnan(csv_value(csv, slice, header, "p50"))) << slice << header;
      EXPECT_TRUE(std::isnan(csv_value(csv, slice, header, "p25"))) << slice << header;
    }
  }
  EXPECT_DOUBLE_EQ(csv_value(csv, 1, "Effective Concurrency", "max"), 2);
  EXPECT_NEAR(csv_value(csv, 1, "Effective Concurrency", "avg"), 130.6 / 80.3, 1e-9);
  // Slice 0, [1000, 1100]: A prefills 100 tokens over [1000, 1050): 1000 tokens/sec on average,
  // 2000 while it prefills.
  EXPECT_NEAR(csv_value(csv, 0, "Effective Prefill Throughput", "avg"), 1000, 1e-6);
  EXPECT_NEAR(csv_value(csv, 0, "Active Prefill Throughput", "avg"), 2000, 1e-6);
}

TEST(ConsoleActiveTableTest, ActiveRowsHaveTheirOwnTableAfterEffective) {
  const std::vector<record::RequestRecord> recs = servebench::testing::overlapping_pair();
  const metrics::Summary s = metrics::summarize({&recs[0], &recs[1]}, {});
  ConsoleInput in;
  in.title = "servebench | LLM Metrics";
  in.summary = &s;
  const std::string out = render_console(in);
  const size_t effective = out.find("servebench | LLM Metrics: Effective\n");
  const size_t active = out.find("servebench | LLM Metrics: Active\n");
  const size_t usage = out.find("servebench | LLM Metrics: Usage\n");
  ASSERT_NE(effective, std::string::npos) << out;
  ASSERT_NE(active, std::string::npos) << out;
  ASSERT_NE(usage, std::string::npos) << out;
  EXPECT_LT(effective, active);
  EXPECT_LT(active, usage);
  // The Active table holds the five rows in AIPerf's order, and only those.
  const std::string table = out.substr(active, usage - active);
  size_t at = 0;
  for (const char* row :
       {"Active Decode Throughput (tokens/sec)", "Active Prefill Throughput (tokens/sec)",
        "Active Decode Throughput Per User", "Active Prefill Throughput Per User",
        "Active Total Throughput (tokens/sec)"}) {
    const size_t next = table.find(row, at);
    ASSERT_NE(next, std::string::npos) << row << "\n" << table;
    at = next;
  }
  EXPECT_EQ(table.find("Effective"), std::string::npos) << table;
  EXPECT_EQ(out.substr(effective, active - effective).find("Active "), std::string::npos);
  // The table alone is empty when no row is there (no records with a start and an end).
  EXPECT_EQ(render_metrics_table("t", metrics::Summary{}, metrics::ConsoleGroup::kActive), "");
}

}  // namespace
}  // namespace servebench::exporter
