// --public-dataset sharegpt end to end: a fake Hugging Face hub on loopback serves the dataset
// file, servebench downloads it into the hub cache layout and replays it against servebench-mock
// as AIPerf does (every exchange a turn with live history, max tokens = the recorded reply's
// length, a conversation with one filtered exchange dropped whole); a second run reads the
// cache offline; a mistyped name exits 2 at once.
#include <cstdlib>

#include "integration/profile/harness.h"
#include "unit/transport/test_http_server.h"

namespace servebench::itest {
namespace {

const char* kHubPath =
    "/datasets/anon8231489123/ShareGPT_Vicuna_unfiltered/resolve/main/ShareGPT_V3_unfiltered_cleaned_split.json";

// Prompts and replies of plain words: the mock's builtin tokenizer counts what we count.
const char* kShareGpt = R"([
 {"id": "a", "conversations": [
   {"from": "human", "value": "tell me a story about the sea and the ships"},
   {"from": "gpt", "value": "once upon a time a ship sailed"},
   {"from": "human", "value": "and then what happened to the ship"},
   {"from": "gpt", "value": "it came home safe with all of its crew and cargo"}]},
 {"id": "b", "conversations": [
   {"from": "human", "value": "name three colours of the rainbow please"},
   {"from": "gpt", "value": "red green and blue are three"}]},
 {"id": "dropped", "conversations": [
   {"from": "human", "value": "describe the zebra in five long words"},
   {"from": "gpt", "value": "striped fast wild proud animal"},
   {"from": "human", "value": "ok"},
   {"from": "gpt", "value": "fine then have a nice day"}]},
 {"id": "lonely", "conversations": [{"from": "human", "value": "nobody answered this one"}]}
])";

struct HubEnv {
  explicit HubEnv(const std::string& cache, const std::string& endpoint) {
    ::setenv("HF_HUB_CACHE", cache.c_str(), 1);
    ::setenv("HF_ENDPOINT", endpoint.c_str(), 1);
    ::unsetenv("HF_HUB_OFFLINE");
  }
  ~HubEnv() {
    for (const char* v : {"HF_HUB_CACHE", "HF_ENDPOINT", "HF_HUB_OFFLINE"}) ::unsetenv(v);
  }
};

TEST(PublicDataset, ShareGptIsDownloadedIntoTheHubCacheAndReplayedAsAiperfDoes) {
  const std::string dir = make_temp_dir("public");
  testing::TestHttpServer hub([](testing::TestHttpServer::Conn& c, const testing::TestHttpServer::Request& r) {
    if (r.path == kHubPath)
      testing::TestHttpServer::respond_fixed(c, kShareGpt);
    else
      testing::TestHttpServer::respond_fixed(c, "{\"error\":\"not found\"}", 404);
  });
  HubEnv env(dir + "/hub", "http://127.0.0.1:" + std::to_string(hub.port()));
  const std::vector<std::string> head = {"-m", "mock-model", "--tokenizer", "builtin"};
  const std::vector<std::string> args = {"--public-dataset", "sharegpt", "--concurrency", "1",
                                         "--request-count", "3"};
  MockRun run = run_with_recording_mock(dir, {"--tokenizer", "builtin"}, head, args, 30);
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  EXPECT_EQ(hub.requests().size(), 1u);
  EXPECT_TRUE(fs::exists(dir + "/hub/datasets--anon8231489123--ShareGPT_Vicuna_unfiltered/snapshots/main/"
                               "ShareGPT_V3_unfiltered_cleaned_split.json"));
  ASSERT_EQ(run.server.size(), 3u);
  // Session a: two turns, the second with the live reply in its history; then session b.
  EXPECT_EQ(run.server[0].at("prompt_tokens"), 10);
  EXPECT_EQ(run.server[0].at("max_tokens"), 7);
  EXPECT_EQ(run.server[1].at("num_messages"), 3);
  EXPECT_EQ(run.server[1].at("message_prompt_tokens").back(), 7);
  EXPECT_EQ(run.server[1].at("max_tokens"), 11);
  EXPECT_EQ(run.server[0].at("x_correlation_id"), run.server[1].at("x_correlation_id"));
  EXPECT_EQ(run.server[2].at("num_messages"), 1);
  EXPECT_EQ(run.server[2].at("prompt_tokens"), 7);
  EXPECT_EQ(run.server[2].at("max_tokens"), 6);
  EXPECT_NE(run.server[2].at("x_correlation_id"), run.server[0].at("x_correlation_id"));
  EXPECT_EQ(read_file(run.r.artifact_dir + "/inputs.json").find("zebra"), std::string::npos)
      << "the conversation with a filtered exchange is dropped whole";

  // Offline, from the cache: no request reaches the hub.
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  const std::string dir2 = make_temp_dir("public-offline");
  MockRun again = run_with_recording_mock(dir2, {"--tokenizer", "builtin"}, head, args, 30);
  ASSERT_EQ(again.r.exit_code, 0) << again.r.stderr_text;
  EXPECT_EQ(again.server.size(), 3u);
  EXPECT_EQ(hub.requests().size(), 1u);
}

TEST(PublicDataset, UnknownNameExitsTwoWithOneLineAtOnce) {
  const std::string dir = make_temp_dir("public-typo");
  auto r = run_profile(dir, {"-m", "mock-model", "-u", "http://127.0.0.1:9", "--public-dataset", "sharegtp"}, 10);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_LT(r.wall_s, 1.0);
  EXPECT_NE(r.stderr_text.find("--public-dataset 'sharegtp' is not a public dataset; use one of: sharegpt"),
            std::string::npos)
      << r.stderr_text;
}

}  // namespace
}  // namespace servebench::itest
