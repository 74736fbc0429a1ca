// servebench report DIR: a profile run against the mock, then its summary recomputed from
// profile_export.jsonl alone must equal what the run wrote: profile_export_aiperf.json value for
// value (exact statistics, warm-up, error summary, gates, servebench extras), the CSV and the
// console text byte for byte.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

Proc run_report(const std::string& scratch, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {bin_dir() + "/servebench", "report"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(scratch, argv);
}


// Runs a profile, keeps its summary files, rewrites them with `report` and compares.
void expect_report_reproduces(const std::string& tag, const std::vector<std::string>& mock_args,
                              const std::vector<std::string>& profile_args, int want_exit,
                              const std::vector<std::string>& must_have = {}) {
  const std::string dir = make_temp_dir(tag);
  Server mock;
  ASSERT_TRUE(mock.start_mock(mock_args));
  std::vector<std::string> args = {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url()};
  args.insert(args.end(), profile_args.begin(), profile_args.end());
  auto run = run_profile(dir, args, 60);
  mock.stop();
  ASSERT_EQ(run.exit_code, want_exit) << run.stderr_text;
  ASSERT_FALSE(run.artifact_dir.empty());
  const std::string json_path = run.artifact_dir + "/profile_export_aiperf.json";
  const std::string csv_path = run.artifact_dir + "/profile_export_aiperf.csv";
  const std::string console_path = run.artifact_dir + "/profile_export_console.txt";
  const std::string json_before = read_file(json_path), csv_before = read_file(csv_path),
                    console_before = read_file(console_path);
  const Json before = Json::parse(json_before);
  ASSERT_GT(before["request_count"]["avg"].get<double>(), 0);
  for (const auto& key : must_have) EXPECT_TRUE(before.contains(key)) << key;
  // Remove them: report must write them, not leave the old ones in place.
  fs::remove(json_path);
  fs::remove(csv_path);
  fs::remove(console_path);
  {
    std::ofstream(json_path) << json_before;  // the run metadata report reads
  }
  auto rep = run_report(dir, {run.artifact_dir});
  EXPECT_EQ(rep.exit_code, want_exit) << rep.err;
  ASSERT_TRUE(fs::exists(csv_path));
  const Json after = Json::parse(read_file(json_path));
  EXPECT_EQ(after, before) << "diff: " << Json::diff(before, after).dump(1);
  EXPECT_EQ(read_file(csv_path), csv_before);
  EXPECT_EQ(read_file(console_path), console_before);
  EXPECT_EQ(rep.out, console_before) << "the table is printed";
  // --quiet prints nothing and writes the same files.
  auto quiet = run_report(dir, {run.artifact_dir, "--quiet"});
  EXPECT_EQ(quiet.exit_code, want_exit);
  EXPECT_TRUE(quiet.out.empty());
  EXPECT_EQ(Json::parse(read_file(json_path)), before);
}

TEST(Report, StreamedRunWithReasoningErrorsWarmupAndGatesIsReproduced) {
  expect_report_reproduces(
      "streamed", {"--ttft-ms", "3", "--itl-ms", "1", "--reasoning-tokens", "3", "--tokens-per-chunk", "2",
                   "--error-rate", "10", "--error-kind", "http500", "--seed", "5"},
      {"--streaming", "--concurrency", "4", "--request-count", "80", "--osl", "12", "--isl", "20",
       "--warmup-request-count", "6", "--random-seed", "9", "--goodput", "time_to_first_token:50",
       "--fail-on", "request_error_rate>90", "--slice-duration", "0.05", "--export-level", "raw",
       "--request-cancellation-rate", "10", "--request-cancellation-delay", "0.004"},
      0);
}

TEST(Report, NonStreamedRunWithServerCountsAndAFailingGateIsReproduced) {
  expect_report_reproduces("body", {"--ttft-ms", "2", "--itl-ms", "0"},
                           {"--concurrency", "3", "--request-count", "40", "--osl", "9", "--isl", "16",
                            "--use-server-token-count", "--fail-on", "request_latency.p50>0"},
                           1);
}

// A fixed-schedule trace: the replay_sched_lag_* rows are written and recomputed by report.
TEST(Report, FixedScheduleTraceWithReplayLagRowsIsReproduced) {
  const std::string trace = make_temp_dir("report-trace") + "/trace.jsonl";
  {
    std::ofstream f(trace);
    for (int i = 0; i < 20; ++i)
      f << "{\"timestamp\": " << 10 * i << ", \"input_length\": 40, \"output_length\": 4}\n";
  }
  expect_report_reproduces("trace", {"--ttft-ms", "2", "--itl-ms", "1"},
                           {"--streaming", "--input-file", trace, "--fixed-schedule",
                            "--slice-duration", "0.05"},
                           0, {"replay_sched_lag_p50", "replay_sched_lag_p99", "replay_sched_degraded"});
}

TEST(Report, MissingOrBadFilesAreUsageErrors) {
  const std::string dir = make_temp_dir("bad");
  auto none = run_report(dir, {dir + "/nothing-here"});
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_NE(none.err.find("profile_export_aiperf.json"), std::string::npos) << none.err;
  std::ofstream(dir + "/profile_export_aiperf.json") << "{\"input_config\": {}}";
  auto no_jsonl = run_report(dir, {dir});
  EXPECT_EQ(no_jsonl.exit_code, 2) << no_jsonl.err;
  EXPECT_NE(no_jsonl.err.find("profile_export.jsonl"), std::string::npos) << no_jsonl.err;
  std::ofstream(dir + "/profile_export.jsonl") << "{\"metadata\":{}}\nnot json\n";
  auto bad = run_report(dir, {dir});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("profile_export.jsonl:2"), std::string::npos) << bad.err;
  EXPECT_EQ(run_report(dir, {}).exit_code, 2);
}

// Records are written as they complete: half-way through a 3 s run the JSONL already holds
// lines, and they are in completion order with every request present at the end.
TEST(StreamedRecords, LinesAppearWhileTheRunGoesOn) {
  const std::string dir = make_temp_dir("live");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
  const std::vector<std::string> argv = {
      bin_dir() + "/servebench", "profile", "-m", "mock-model", "--tokenizer", "simple", "-u",
      mock.url(), "--streaming", "--request-rate", "20", "--request-count", "60", "--osl", "4",
      "--artifact-dir", dir + "/art", "-q"};
  pid_t pid = spawn(argv, -1, -1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  size_t lines_mid_run = 0;
  if (fs::exists(dir + "/art")) {
    for (const auto& sub : fs::directory_iterator(dir + "/art")) {
      const std::string text = read_file(sub.path().string() + "/profile_export.jsonl");
      lines_mid_run += static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  mock.stop();
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_GT(lines_mid_run, 5u) << "no line was written during the run";
  EXPECT_LT(lines_mid_run, 60u) << "the run was over before the check";
  size_t total = 0;
  for (const auto& sub : fs::directory_iterator(dir + "/art")) {
    std::set<int64_t> indices;
    for (const auto& line : read_jsonl(sub.path().string() + "/profile_export.jsonl")) {
      indices.insert(line["servebench"]["request_index"].get<int64_t>());
      ++total;
    }
    EXPECT_EQ(indices.size(), 60u);
  }
  EXPECT_EQ(total, 60u);
}

}  // namespace
}  // namespace servebench::itest
