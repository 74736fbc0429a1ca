#include "compare/compare.h"

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace servebench::compare {
namespace {

using report_html::RunFiles;

// A run whose TTFT samples are `base + exponential(5)` ms (n requests) and whose summary JSON
// row holds their exact avg/p50/p90/p99, as the real file would.
RunFiles make_run(double base, size_t n, uint64_t seed, const std::string& model = "m",
                  const std::string& load = "concurrency 8") {
  RunFiles r;
  r.meta.model = model;
  r.meta.endpoint_type = "chat";
  r.meta.streaming = true;
  r.meta.load_mode = load;
  r.has_records = true;
  core::Rng rng(seed);
  const int col = report_html::column_index("time_to_first_token");
  for (auto& v : r.columns.values) v.assign(n, NAN);
  std::vector<double> s;
  for (size_t i = 0; i < n; ++i) {
    const double x = base + rng.exponential(5.0);
    r.columns.values[col][i] = x;
    s.push_back(x);
  }
  std::sort(s.begin(), s.end());
  auto pct = [&](double q) {
    const double h = q / 100 * (n - 1);
    const size_t lo = static_cast<size_t>(h);
    return s[lo] + (h - lo) * (s[std::min(lo + 1, n - 1)] - s[lo]);
  };
  double sum = 0;
  for (double x : s) sum += x;
  report_html::MetricRow row;
  row.tag = "time_to_first_token";
  row.header = "Time to First Token";
  row.unit = "ms";
  row.stats = {{"avg", sum / n}, {"p50", pct(50)}, {"p90", pct(90)}, {"p99", pct(99)}};
  r.meta.metrics.push_back(row);
  report_html::MetricRow thr;
  thr.tag = "request_throughput";
  thr.unit = "requests/sec";
  thr.stats = {{"avg", 1000.0 / base}};
  r.meta.metrics.push_back(thr);
  return r;
}

const Row& row_of(const Comparison& c, const std::string& tag, const std::string& stat) {
  for (const Row& r : c.rows) {
    if (r.tag == tag && r.stat == stat) return r;
  }
  ADD_FAILURE() << "no row " << tag << "." << stat;
  static Row none;
  return none;
}

TEST(ParseGate, Forms) {
  auto g = parse_gate("time_to_first_token.p99:5%");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->tag, "time_to_first_token");
  EXPECT_EQ(g->stat, "p99");
  EXPECT_EQ(g->threshold_pct, 5);
  g = parse_gate("request_latency");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->stat, "");
  EXPECT_EQ(g->threshold_pct, 0);
  EXPECT_EQ(parse_gate("request_latency:2.5")->threshold_pct, 2.5);
  for (const char* bad : {"ttft:abc", "ttft:-3%", ":5%", "ttft:"}) {
    auto e = parse_gate(bad);
    ASSERT_FALSE(e.has_value()) << bad;
    EXPECT_NE(e.error().message.find(bad), std::string::npos);
  }
}

TEST(Compare, SlowerRunIsWorseWithAnIntervalAroundTheTruth) {
  const std::vector<RunFiles> runs = {make_run(20, 2000, 1), make_run(30, 2000, 2)};
  const Comparison c = compare_runs(runs, {"a", "b"}, {});
  for (const char* stat : {"avg", "p50", "p90", "p99"}) {
    const Row& r = row_of(c, "time_to_first_token", stat);
    ASSERT_EQ(r.versus.size(), 1u);
    const Versus& v = r.versus[0];
    EXPECT_TRUE(v.has_interval);
    EXPECT_EQ(v.verdict, Verdict::kWorse) << stat;
    EXPECT_LT(v.low, 10);  // the true shift
    EXPECT_GT(v.high, 10);
    EXPECT_NEAR(v.diff, r.values[1] - r.values[0], 1e-12);
  }
  // Throughput is one number per run: compared, not tested.
  const Row& t = row_of(c, "request_throughput", "avg");
  EXPECT_FALSE(t.versus[0].has_interval);
  EXPECT_EQ(t.versus[0].verdict, Verdict::kNotTested);
  EXPECT_NEAR(t.versus[0].diff_pct, -100.0 / 3, 1e-9);
}

TEST(Compare, FasterRunIsBetterAndSameRunIsNoDifference) {
  const std::vector<RunFiles> runs = {make_run(30, 1500, 1), make_run(20, 1500, 2),
                                      make_run(30, 1500, 3)};
  const Comparison c = compare_runs(runs, {"a", "b", "c"}, {});
  const Row& r = row_of(c, "time_to_first_token", "p50");
  ASSERT_EQ(r.versus.size(), 2u);
  EXPECT_EQ(r.versus[0].verdict, Verdict::kBetter);
  EXPECT_EQ(r.versus[1].verdict, Verdict::kNoDifference);
}

TEST(Compare, SeededIntervalsRepeat) {
  const std::vector<RunFiles> runs = {make_run(20, 500, 1), make_run(21, 500, 2)};
  CompareOptions o;
  o.seed = 7;
  const Row a = row_of(compare_runs(runs, {"a", "b"}, o), "time_to_first_token", "p90");
  const Row b = row_of(compare_runs(runs, {"a", "b"}, o), "time_to_first_token", "p90");
  EXPECT_EQ(a.versus[0].low, b.versus[0].low);
  EXPECT_EQ(a.versus[0].high, b.versus[0].high);
}

TEST(Gates, RegressionBeyondTheThresholdFails) {
  const std::vector<RunFiles> runs = {make_run(20, 2000, 1), make_run(30, 2000, 2)};
  const Comparison c = compare_runs(runs, {"a", "b"}, {});
  // p50 rises from ~23.5 to ~33.5 ms: +40 %. The whole interval is beyond 10 %, not beyond 80 %.
  auto f = failed_gates(c, {*parse_gate("time_to_first_token.p50:10%")});
  ASSERT_TRUE(f.has_value());
  ASSERT_EQ(f->size(), 1u);
  EXPECT_NE((*f)[0].find("time_to_first_token.p50"), std::string::npos);
  f = failed_gates(c, {*parse_gate("time_to_first_token:80%")});
  ASSERT_TRUE(f.has_value());
  EXPECT_TRUE(f->empty());
  // Throughput fell by a third (no interval: the value itself).
  f = failed_gates(c, {*parse_gate("request_throughput:20%")});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->size(), 1u);
  // The improvement direction never fails.
  const Comparison better = compare_runs({runs[1], runs[0]}, {"b", "a"}, {});
  f = failed_gates(better, {*parse_gate("time_to_first_token.p99")});
  ASSERT_TRUE(f.has_value());
  EXPECT_TRUE(f->empty());
}

TEST(Gates, UnknownMetricIsAUsageError) {
  const Comparison c = compare_runs({make_run(20, 100, 1), make_run(20, 100, 2)}, {"a", "b"}, {});
  auto f = failed_gates(c, {*parse_gate("time_to_frist_token.p50")});
  ASSERT_FALSE(f.has_value());
  EXPECT_NE(f.error().message.find("time_to_frist_token"), std::string::npos);
}

TEST(Comparability, WarnsOnModelAndLoadDifferences) {
  const std::vector<RunFiles> runs = {make_run(20, 50, 1), make_run(20, 50, 2, "other", "request_rate 5")};
  const auto w = comparability_warnings(runs, {"a", "b"});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].find("model differs"), std::string::npos);
  EXPECT_NE(w[1].find("load mode differs"), std::string::npos);
  EXPECT_TRUE(comparability_warnings({runs[0], runs[0]}, {"a", "b"}).empty());
}

TEST(Labels, FolderNamesMadeUnique) {
  EXPECT_EQ(run_labels({"x/run_a", "y/run_a/", "run_b"}),
            (std::vector<std::string>{"run_a", "run_a (2)", "run_b"}));
}

TEST(Output, TextAndPageData) {
  const std::vector<RunFiles> runs = {make_run(20, 300, 1), make_run(30, 300, 2)};
  const Comparison c = compare_runs(runs, {"a", "b"}, {});
  const std::string text = comparison_text(c);
  EXPECT_NE(text.find("2000 resamples"), std::string::npos);
  EXPECT_NE(text.find("time_to_first_token (ms)"), std::string::npos);
  EXPECT_NE(text.find("worse"), std::string::npos);
  const auto j = nlohmann::json::parse(compare_data_json(runs, c));
  EXPECT_EQ(j["kind"], "compare");
  EXPECT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["runs"][1]["label"], "b");
  EXPECT_EQ(j["comparison"]["rows"].size(), c.rows.size());
  EXPECT_EQ(j["comparison"]["resamples"], 2000);
}

TEST(Output, LongMetricNamesAreNotCut) {
  const std::vector<RunFiles> runs = {make_run(20, 300, 1), make_run(30, 300, 2)};
  Comparison c = compare_runs(runs, {"a", "b"}, {});
  ASSERT_FALSE(c.rows.empty());
  c.rows[0].tag = "energy_per_output_token_with_a_long_vendor_prefix";
  const std::string text = comparison_text(c);
  for (const auto& r : c.rows)
    EXPECT_NE(text.find(r.tag + " (" + r.unit + ")"), std::string::npos) << r.tag;
  // Every table line starts its "stat" column at the same place: the header's.
  const size_t header = text.find("\nmetric");
  ASSERT_NE(header, std::string::npos);
  const size_t stat_col = text.find("stat", header) - header - 1;
  EXPECT_EQ(stat_col, c.rows[0].tag.size() + c.rows[0].unit.size() + 3 + 1 + 1);
}

}  // namespace
}  // namespace servebench::compare
