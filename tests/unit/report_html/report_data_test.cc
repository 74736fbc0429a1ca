// The data report.html embeds, from the golden run of tests/data/golden/
// (profile_export_aiperf.json and profile_export.jsonl, written by the export golden tests):
// checked fact by fact against those files here, then pinned as a golden file
// (tests/data/golden/report_data.json, indented for review). Regenerate after an intended
// change with
//   SERVEBENCH_UPDATE_GOLDEN=1 build/bin/report_html_test --gtest_filter='ReportData*'
// and review the diff.
#include "report_html/report_data.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/records_reader.h"
#include "report_html/report_html.h"
#include "report_html/distributions.h"
#include "report_html/time_series.h"

namespace servebench::report_html {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

std::string golden_dir() {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  return std::string(src ? src : SERVEBENCH_TEST_SOURCE_DIR) + "/tests/data/golden";
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Json golden_data() {
  auto text = build_report_data({golden_dir(), ""});
  EXPECT_TRUE(text.has_value()) << (text ? "" : text.error().message);
  return text ? Json::parse(*text) : Json();
}

TEST(ReportData, MetricsTableIsTheSummaryJsonUnchanged) {
  const Json data = golden_data();
  const Json doc = Json::parse(read(golden_dir() + "/profile_export_aiperf.json"));
  size_t rows = 0;
  for (const auto& row : data["metrics"]) {
    const std::string tag = row["tag"];
    const Json& src = row["servebench"].get<bool>() ? doc["servebench"][tag] : doc[tag];
    ASSERT_TRUE(src.is_object()) << tag;
    EXPECT_EQ(row["unit"], src["unit"]) << tag;
    for (const auto& [stat, v] : src.items()) {
      if (stat == "unit") continue;
      if (v.is_null()) {
        EXPECT_FALSE(row["stats"].contains(stat)) << tag << "." << stat;
      } else {
        EXPECT_EQ(row["stats"][stat].get<double>(), v.get<double>()) << tag << "." << stat;
      }
    }
    ++rows;
  }
  size_t want = 0;
  for (const auto& [k, v] : doc.items()) want += v.is_object() && v.contains("avg") ? 1 : 0;
  for (const auto& [k, v] : doc["servebench"].items()) want += v.is_object() && v.contains("avg") ? 1 : 0;
  EXPECT_EQ(rows, want);
  EXPECT_EQ(data["metrics"][0]["tag"], "adj_time_to_first_token");  // file order kept
  EXPECT_EQ(data["metrics"][1]["header"], "Time to First Token");
}

TEST(ReportData, PanelsHoldEveryProfilingRequest) {
  const Json data = golden_data();
  const Json doc = Json::parse(read(golden_dir() + "/profile_export_aiperf.json"));
  // The JSONL's profiling records: request_count successes + error_request_count failures +
  // the cancelled one the run dropped.
  const double total = doc["request_count"]["avg"].get<double>() +
                       doc["error_request_count"]["avg"].get<double>() +
                       doc["servebench"]["cancelled_request_count"].get<double>();
  EXPECT_EQ(data["requests"]["total"].get<double>(), total);
  EXPECT_EQ(data["requests"]["kept"], data["requests"]["total"]);
  EXPECT_EQ(data["requests"]["start_ms"].size(), data["requests"]["kept"].get<size_t>());
  // Histograms count exactly the summary's samples.
  for (const auto& d : data["distributions"]) {
    int64_t sum = 0;
    for (const auto& k : d["hist"]["counts"]) sum += k.get<int64_t>();
    EXPECT_EQ(sum, doc[d["tag"].get<std::string>()]["count"].get<int64_t>()) << d["tag"];
    EXPECT_EQ(d["count"].get<int64_t>(), sum);
    EXPECT_EQ(d["cdf"]["y"].back().get<double>(), 1.0);
  }
  EXPECT_EQ(data["distributions"].size(), 5u);
  // Warnings at the top: the golden run is client-limited and has an OSL mismatch.
  ASSERT_GE(data["warnings"].size(), 2u);
  EXPECT_NE(data["warnings"][0].get<std::string>().find("Client-limited"), std::string::npos);
  EXPECT_NE(data["warnings"][1].get<std::string>().find("OSL mismatch"), std::string::npos);
  // Secrets stay redacted as the JSON had them.
  EXPECT_EQ(data["config"]["api_key"], "<redacted>");
}

TEST(ReportData, Golden) {
  const std::string actual = golden_data().dump(1) + "\n";
  const std::string path = golden_dir() + "/report_data.json";
  const char* update = std::getenv("SERVEBENCH_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "updated " << path;
  }
  ASSERT_TRUE(fs::exists(path)) << "missing " << path << " (SERVEBENCH_UPDATE_GOLDEN=1 creates it)";
  EXPECT_EQ(actual, read(path)) << "report data changed; if intended, regenerate with "
                                   "SERVEBENCH_UPDATE_GOLDEN=1 and review the diff";
}

TEST(ReportData, DownsamplesTheTimelineButNotTheDistributions) {
  auto run = read_run_files(golden_dir(), "");
  ASSERT_TRUE(run.has_value());
  const Json full = Json::parse(report_data_json(*run, "", 100));
  const Json thin = Json::parse(report_data_json(*run, "", 3));
  const size_t n = full["requests"]["total"];
  const size_t stride = (n + 2) / 3;
  EXPECT_EQ(thin["requests"]["stride"].get<size_t>(), stride);
  EXPECT_EQ(thin["requests"]["kept"].get<size_t>(), (n + stride - 1) / stride);
  EXPECT_EQ(thin["requests"]["start_ms"][1], full["requests"]["start_ms"][stride]);
  EXPECT_EQ(thin["distributions"], full["distributions"]);
  EXPECT_EQ(thin["series"], full["series"]);
}

TEST(ReportData, SummaryOnlyFolderStillReports) {
  const fs::path dir = fs::temp_directory_path() / "sb-report-summary-only";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(golden_dir() + "/profile_export_aiperf.json", dir / "profile_export_aiperf.json");
  auto written = write_report({dir.string(), ""});
  ASSERT_TRUE(written.has_value()) << written.error().message;
  EXPECT_EQ(written->requests, 0u);
  const std::string page = read(written->path);
  EXPECT_NE(page.find("\"has_records\":false"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "report.html.tmp"));
  fs::remove_all(dir);
}

TEST(ReportData, PrefixedRunsGetAPrefixedPage) {
  const fs::path dir = fs::temp_directory_path() / "sb-report-prefix";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(golden_dir() + "/profile_export_aiperf.json", dir / "bench.json");
  fs::copy_file(golden_dir() + "/profile_export.jsonl", dir / "bench.jsonl");
  auto written = write_report({dir.string(), "bench"});
  ASSERT_TRUE(written.has_value()) << written.error().message;
  EXPECT_EQ(written->path, (dir / "bench_report.html").string());
  EXPECT_EQ(written->requests, 9u);
  EXPECT_EQ(written->requests_kept, 9u);
  EXPECT_GT(written->bytes, 1000u);
  EXPECT_FALSE(fs::exists(dir / "report.html"));
  fs::remove_all(dir);
}

// Records arrive in completion order, not start order: the panels must not depend on it.
TEST(ReportData, DistributionsAndSeriesDoNotDependOnRecordOrder) {
  auto records = exporter::read_records(golden_dir() + "/profile_export.jsonl");
  ASSERT_TRUE(records.has_value());
  RequestColumns in_order;
  for (const auto& r : *records) add_record(r, &in_order);
  std::mt19937 gen(7);
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(records->begin(), records->end(), gen);
    RequestColumns shuffled;
    for (const auto& r : *records) add_record(r, &shuffled);
    const TimeSeries a = make_time_series(in_order), b = make_time_series(shuffled);
    EXPECT_EQ(a.t_s, b.t_s);
    EXPECT_EQ(a.sends_per_s, b.sends_per_s);
    EXPECT_EQ(a.completions_per_s, b.completions_per_s);
    EXPECT_EQ(a.output_tokens_per_s, b.output_tokens_per_s);
    EXPECT_EQ(a.errors, b.errors);
    for (size_t i = 0; i < a.concurrency.size(); ++i) {
      EXPECT_NEAR(a.concurrency[i], b.concurrency[i], 1e-9);
    }
    for (size_t m = 0; m < kNumColumnMetrics; ++m) {
      EXPECT_EQ(make_histogram(in_order.values[m]).counts, make_histogram(shuffled.values[m]).counts);
      EXPECT_EQ(make_cdf(in_order.values[m]).x, make_cdf(shuffled.values[m]).x);
    }
  }
}

TEST(ReportData, MissingSummaryIsNotFound) {
  auto data = build_report_data({"/nonexistent/run", ""});
  ASSERT_FALSE(data.has_value());
  EXPECT_TRUE(data.error().is_usage());
  EXPECT_NE(data.error().message.find("profile_export_aiperf.json"), std::string::npos);
}

}  // namespace
}  // namespace servebench::report_html
