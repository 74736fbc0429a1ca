// report.html and compare.html from the real binary: profile writes the report (not with
// --no-report), `servebench report DIR` rebuilds it from the files, and `servebench compare`
// tells a slower server from a faster one with exit codes for gates and bad input.
#include <algorithm>
#include <string>
#include <vector>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

Proc run_cmd(const std::string& scratch, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {bin_dir() + "/servebench"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(scratch, argv);
}


// The JSON inlined in a page (between the sb-data script tags, "<\/" unescaped by the parser).
Json page_data(const std::string& page) {
  const std::string open_tag = "<script id=\"sb-data\" type=\"application/json\">";
  const size_t a = page.find(open_tag);
  const size_t b = page.find("</script>", a);
  if (a == std::string::npos || b == std::string::npos) return Json();
  return Json::parse(page.substr(a + open_tag.size(), b - a - open_tag.size()));
}

RunResult profile(const std::string& dir, const std::string& url, std::vector<std::string> extra) {
  std::vector<std::string> args = {"-m", "mock-model", "--tokenizer", "simple", "-u", url,
                                   "--streaming", "--concurrency", "4", "--request-count", "60"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_profile(dir, args, 60);
}

TEST(ReportHtml, ProfileWritesItAndReportRebuildsIt) {
  const std::string dir = make_temp_dir("report-html");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
  auto run = profile(dir, mock.url(), {});
  mock.stop();
  ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
  const std::string path = run.artifact_dir + "/report.html";
  const std::string page = read_file(path);
  ASSERT_FALSE(page.empty()) << "no report.html in " << run.artifact_dir;
  const Json data = page_data(page);
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["kind"], "report");
  EXPECT_EQ(data["requests"]["total"], 60);
  const Json summary = run.summary();
  for (const auto& row : data["metrics"]) {
    if (row["servebench"].get<bool>()) continue;
    EXPECT_EQ(row["stats"]["avg"], summary[row["tag"].get<std::string>()]["avg"]) << row["tag"];
  }
  // Removed, then rebuilt from the files alone: the same data.
  fs::remove(path);
  auto rebuilt = run_cmd(dir, {"report", run.artifact_dir, "--quiet"});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  EXPECT_EQ(page_data(read_file(path)), data);
  // --no-report on report leaves no page.
  fs::remove(path);
  rebuilt = run_cmd(dir, {"report", run.artifact_dir, "--quiet", "--no-report"});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  EXPECT_FALSE(fs::exists(path));
}

TEST(ReportHtml, NoReportFlagSkipsIt) {
  const std::string dir = make_temp_dir("report-html-off");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1", "--itl-ms", "0"}));
  auto run = profile(dir, mock.url(), {"--no-report"});
  mock.stop();
  ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
  EXPECT_TRUE(fs::exists(run.artifact_dir + "/profile_export_aiperf.json"));
  EXPECT_FALSE(fs::exists(run.artifact_dir + "/report.html"));
}

TEST(Compare, SlowerServerIsARegressionAndBadInputExitsTwo) {
  const std::string dir = make_temp_dir("compare");
  std::string runs[2];
  const char* ttft[2] = {"5", "25"};
  for (int i = 0; i < 2; ++i) {
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", ttft[i], "--itl-ms", "1"}));
    auto run = profile(dir + "/" + std::to_string(i), mock.url(), {});
    mock.stop();
    ASSERT_EQ(run.exit_code, 0) << run.stderr_text;
    runs[i] = run.artifact_dir;
  }
  const std::string page = dir + "/compare.html";
  auto c = run_cmd(dir, {"compare", runs[0], runs[1], "-o", page, "--resamples", "500",
                         "--fail-on-regression", "time_to_first_token.p50:50%"});
  EXPECT_EQ(c.exit_code, 1) << c.out << c.err;  // 5 ms -> 25 ms
  EXPECT_NE(c.err.find("time_to_first_token.p50"), std::string::npos) << c.err;
  EXPECT_NE(c.out.find("500 resamples"), std::string::npos);
  const Json data = page_data(read_file(page));
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["kind"], "compare");
  EXPECT_EQ(data["runs"].size(), 2u);
  bool worse = false;
  for (const auto& r : data["comparison"]["rows"]) {
    if (r["tag"] == "time_to_first_token" && r["stat"] == "p50") worse = r["versus"][0]["verdict"] == "worse";
  }
  EXPECT_TRUE(worse);
  // The reverse direction is an improvement: no gate fails. (Gates may precede the folders.)
  c = run_cmd(dir, {"compare", "--fail-on-regression", "time_to_first_token.p50",
                    "--fail-on-regression", "request_latency.p99:5%", runs[1], runs[0], "--no-html"});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  // Bad input: one line, exit 2.
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"compare", runs[0]},
        std::vector<std::string>{"compare", runs[0], dir + "/missing"},
        std::vector<std::string>{"compare", runs[0], runs[1], "--fail-on-regression", "ttft:x%"},
        std::vector<std::string>{"compare", runs[0], runs[1], "--fail-on-regression", "nope.p50"}}) {
    c = run_cmd(dir, bad);
    EXPECT_EQ(c.exit_code, 2) << bad.back() << ": " << c.err;
    EXPECT_EQ(std::count(c.err.begin(), c.err.end(), '\n'), 1) << c.err;
  }
}

}  // namespace
}  // namespace servebench::itest
