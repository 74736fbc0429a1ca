// servebench profile: secrets never reach artifacts or logs; --use-server-token-count takes
// ISL/OSL from the server's usage.
#include <algorithm>
#include <map>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

TEST(ProfileSecrets, ApiKeyAndAuthorizationHeaderNeverReachArtifactsOrLogs) {
  const std::string dir = make_temp_dir("secrets");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "--isl", "16", "-u", mock.url(),
                             "--streaming", "--request-count", "4", "--api-key", "sk-SECRET-ONE", "-H",
                             "Authorization: Bearer sk-SECRET-TWO", "-H", "X-Api-Key: sk-SECRET-THREE",
                             "--export-level", "raw"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.find("sk-SECRET"), std::string::npos) << r.stderr_text;
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(r.artifact_root)) {
    if (!e.is_regular_file()) continue;
    ++files;
    EXPECT_EQ(read_file(e.path().string()).find("sk-SECRET"), std::string::npos) << e.path();
  }
  EXPECT_GE(files, 4);
  // ... while the server did get the key.
  EXPECT_EQ(read_jsonl(dir + "/rec.jsonl").size(), 4u);
}

TEST(ProfileTokens, ServerTokenCountReplacesClientCounts) {
  const std::string dir = make_temp_dir("server-tokens");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ground-truth", dir + "/gt.jsonl"}));
  // The client counts with builtin (o200k BPE), the mock counts words: they differ, and with
  // --use-server-token-count the records must carry the mock's numbers.
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "builtin", "--isl", "64", "-u", mock.url(),
                             "--streaming", "--request-count", "12", "--osl", "20", "--use-server-token-count",
                             "--num-dataset-entries", "12"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::map<std::string, Json> truth;
  for (const auto& g : read_jsonl(dir + "/gt.jsonl")) truth[g["x_request_id"].get<std::string>()] = g;
  int checked = 0;
  for (const auto& rec : r.records()) {
    const auto& g = truth.at(rec["metadata"]["x_request_id"].get<std::string>());
    EXPECT_EQ(rec["metrics"]["input_sequence_length"]["value"].get<double>(), g["prompt_tokens"].get<double>());
    EXPECT_EQ(rec["metrics"]["output_sequence_length"]["value"].get<double>(), g["completion_tokens"].get<double>());
    ++checked;
  }
  EXPECT_EQ(checked, 12);

  // Control: without the flag the client's own counts differ from the server's.
  const std::string dir2 = make_temp_dir("client-tokens");
  Server mock2;
  ASSERT_TRUE(mock2.start_mock({"--ground-truth", dir2 + "/gt.jsonl"}));
  auto c = run_profile(dir2, {"-m", "mock-model", "--tokenizer", "builtin", "--isl", "64", "-u", mock2.url(),
                              "--streaming", "--request-count", "12", "--osl", "20", "--num-dataset-entries", "12"});
  mock2.stop();
  ASSERT_EQ(c.exit_code, 0) << c.stderr_text;
  truth.clear();
  for (const auto& g : read_jsonl(dir2 + "/gt.jsonl")) truth[g["x_request_id"].get<std::string>()] = g;
  int differ = 0;
  for (const auto& rec : c.records()) {
    const auto& g = truth.at(rec["metadata"]["x_request_id"].get<std::string>());
    EXPECT_EQ(rec["metrics"]["input_sequence_length"]["value"].get<double>(), 64) << "exact-length prompts";
    differ += rec["metrics"]["input_sequence_length"]["value"].get<double>() != g["prompt_tokens"].get<double>();
  }
  EXPECT_GT(differ, 0);
}

}  // namespace
}  // namespace servebench::itest
