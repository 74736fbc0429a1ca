// The data report.html embeds, from the golden run of tests/data/golden/
// (profile_export_aiperf.json and profile_export.jsonl, written by the export golden tests):
// checked fact by fact against those files here, then pinned as a golden file
// (tests/data/golden/report_data.json, indented for review). Regenerate after an intended
// change with
//   SERVEBENCH_UPDATE_GOLDEN=1 build/bin/report_html_test --gtest_filter='ReportData*'
// and review the diff.
#include "report_html/report_data.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/records_reader.h"
#include "record/request_record.h"
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

// The timeline's arrays are written as text; they must read byte for byte as nlohmann's dump of
// the same values (integral doubles as "5.0", shortest digits, null for a missing first token),
// with and without downsampling and with error kinds in first-seen order.
TEST(ReportData, TimelineTextIsWhatTheJsonLibraryWrites) {
  std::mt19937_64 rng(5);
  RunFiles run;
  run.has_records = true;
  RequestColumns& c = run.columns;
  const int64_t origin = 1'700'000'000'000'000'000;
  for (int i = 0; i < 5000; ++i) {
    const int64_t s = origin + static_cast<int64_t>(rng() % 4'000'000'000ULL);
    c.start_ns.push_back(s);
    c.intended_ns.push_back(0);
    c.first_ns.push_back(i % 7 == 0 ? 0 : s + static_cast<int64_t>(rng() % 90'000'000));
    // Whole milliseconds now and then: integral doubles.
    c.end_ns.push_back(s + (i % 5 == 0 ? 1'000'000 * static_cast<int64_t>(rng() % 900)
                                       : static_cast<int64_t>(rng() % 900'000'000)));
    c.error.push_back(static_cast<uint8_t>(i % 11 == 0 ? 3 : i % 13 == 0 ? 1 : 0));
    c.dropped.push_back(0);
  }
  for (auto& col : c.values) col.assign(c.size(), 1.0);
  for (size_t max_requests : {size_t{100'000}, size_t{999}}) {
    const std::string text = report_data_json(run, "", max_requests);
    const size_t at = text.find("\"requests\":");
    ASSERT_NE(at, std::string::npos);
    const size_t n = c.size();
    const size_t stride = n <= max_requests ? 1 : (n + max_requests - 1) / max_requests;
    Json start = Json::array(), first = Json::array(), dur = Json::array(), err = Json::array();
    Json kinds = Json::array({"ok"});
    std::vector<int> index(256, -1);
    index[0] = 0;
    const int64_t o = c.origin_ns();
    const auto ms = [](int64_t ns) { return std::round(static_cast<double>(ns) / 1e6 * 100.0) / 100.0; };
    for (size_t i = 0; i < n; i += stride) {
      start.push_back(ms(c.start_ns[i] - o));
      first.push_back(c.first_ns[i] > 0 ? Json(ms(c.first_ns[i] - c.start_ns[i])) : Json());
      dur.push_back(ms(std::max<int64_t>(c.end_ns[i] - c.start_ns[i], 0)));
      if (index[c.error[i]] < 0) {
        index[c.error[i]] = static_cast<int>(kinds.size());
        kinds.push_back(record::error_kind_name(static_cast<record::ErrorKind>(c.error[i])));
      }
      err.push_back(index[c.error[i]]);
    }
    const Json want{{"total", n}, {"kept", start.size()}, {"stride", stride}, {"kinds", kinds},
                    {"start_ms", start}, {"first_ms", first}, {"dur_ms", dur}, {"error", err}};
    const std::string want_text = "\"requests\":" + want.dump();
    EXPECT_EQ(text.substr(at, want_text.size()), want_text) << max_requests;
    EXPECT_EQ(Json::parse(text).dump(), text);  // the whole document as dump() writes it
  }
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
