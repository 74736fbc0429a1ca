#include <algorithm>
#include <fstream>
#include <map>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

int64_t median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Every synthetic prompt arrives with exactly its target length, as the server counts it with
// the same tokenizer (issue 6: exact by construction, checked in our records and the mock's).
TEST(Workload, SyntheticPromptsArriveWithExactLength) {
  const std::string dir = make_temp_dir("exact-isl");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "builtin", "-u", mock.url(), "--streaming",
                             "--isl", "200", "--isl-stddev", "0", "--osl", "8", "--request-count", "30",
                             "--num-dataset-entries", "30", "--concurrency", "4", "--random-seed", "7",
                             "--export-level", "raw"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto rec = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(rec.size(), 30u);
  for (const auto& q : rec) EXPECT_EQ(q.at("message_prompt_tokens").at(0).get<int64_t>(), 200) << q.dump();
  for (const auto& x : r.records())
    EXPECT_EQ(x.at("metrics").at("input_sequence_length").at("value").get<int64_t>(), 200);
  // The raw export carries each request's body as sent.
  auto raw = read_jsonl(r.artifact_dir + "/profile_export_raw.jsonl");
  ASSERT_EQ(raw.size(), 30u);
  for (const auto& x : raw) {
    ASSERT_TRUE(x.at("payload").is_object()) << x.dump();
    EXPECT_EQ(x.at("payload").at("model"), "mock-model");
    EXPECT_EQ(x.at("payload").at("max_completion_tokens"), 8);
    EXPECT_FALSE(x.at("payload").at("messages").at(0).at("content").get<std::string>().empty());
  }
}

// A mooncake trace with timestamps replays on its schedule; length-only rows (with hash_id
// blocks) arrive with exactly input_length tokens.
TEST(Workload, MooncakeTraceFixedScheduleAndExactLengths) {
  const std::string dir = make_temp_dir("mooncake");
  {
    std::ofstream f(dir + "/trace.jsonl");
    for (int i = 0; i < 30; ++i) {
      f << "{\"timestamp\": " << 500 + 20 * i << ", \"input_length\": " << 130 + 3 * i
        << ", \"output_length\": 6" << (i % 2 ? ", \"hash_ids\": [11, 12]" : "") << "}\n";
    }
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "builtin", "-u", mock.url(), "--streaming",
                             "--input-file", dir + "/trace.jsonl", "--isl-block-size", "64",
                             "--fixed-schedule", "--fixed-schedule-auto-offset"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto rec = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(rec.size(), 30u);  // every row once, no --request-count needed
  std::multiset<int64_t> want, got;
  for (int i = 0; i < 30; ++i) want.insert(130 + 3 * i);
  std::vector<int64_t> received;
  for (const auto& q : rec) {
    got.insert(q.at("message_prompt_tokens").at(0).get<int64_t>());
    EXPECT_EQ(q.at("max_tokens").get<int64_t>(), 6);
    received.push_back(q.at("received_steady_ns").get<int64_t>());
  }
  EXPECT_EQ(got, want);
  std::sort(received.begin(), received.end());
  std::vector<int64_t> gaps;
  for (size_t i = 1; i < received.size(); ++i) gaps.push_back(received[i] - received[i - 1]);
  EXPECT_NEAR(static_cast<double>(median(gaps)), 20e6, 2e6);
  EXPECT_NEAR(static_cast<double>(received.back() - received.front()), 29 * 20e6, 10e6);
  // Replay lag is reported (schedule lag of the fixed schedule).
  auto summary = r.summary();
  ASSERT_TRUE(summary.at("servebench").contains("schedule_lag"));
  EXPECT_EQ(summary.at("servebench").at("schedule_lag").at("count").get<int64_t>(), 30);
}

TEST(Workload, TimestampsAreIgnoredWithNoFixedSchedule) {
  const std::string dir = make_temp_dir("nofs");
  {
    std::ofstream f(dir + "/trace.jsonl");
    for (int i = 0; i < 6; ++i) f << "{\"timestamp\": " << 1000 * i << ", \"text_input\": \"hello there\"}\n";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--input-file",
                             dir + "/trace.jsonl", "--no-fixed-schedule", "--concurrency", "2"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_LT(r.wall_s, 4.0);  // the 5 s of timestamps were not waited for
  EXPECT_EQ(r.records().size(), 6u);
}

TEST(Workload, BadFilesAreOneLineUsageErrors) {
  const std::string dir = make_temp_dir("badfile");
  {
    std::ofstream(dir + "/bad.jsonl") << "{\"text\": \"ok\"}\n{\"text\": 5}\n";
    std::ofstream(dir + "/multi.jsonl") << "{\"session_id\": \"s\", \"turns\": [{\"text\": \"a\"}, {\"text\": \"b\"}]}\n";
  }
  auto bad = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--input-file", dir + "/bad.jsonl"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.stderr_text.find("bad.jsonl:2: field 'text'"), std::string::npos) << bad.stderr_text;
  auto missing = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--input-file", dir + "/nope.jsonl"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.stderr_text.find("nope.jsonl"), std::string::npos);
  auto multi = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--input-file", dir + "/multi.jsonl"});
  EXPECT_EQ(multi.exit_code, 2);
  EXPECT_NE(multi.stderr_text.find("not supported yet"), std::string::npos) << multi.stderr_text;
  auto rule = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--fixed-schedule"});
  EXPECT_EQ(rule.exit_code, 2);
  EXPECT_NE(rule.stderr_text.find("--fixed-schedule needs --input-file"), std::string::npos) << rule.stderr_text;
  for (const auto* run : {&bad, &missing, &multi, &rule}) EXPECT_LT(run->wall_s, 1.5);
}

}  // namespace
}  // namespace servebench::itest
