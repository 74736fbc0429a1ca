// The `responses` and `messages` endpoint types end to end: servebench-mock's /v1/responses and
// /v1/messages routes on their own, then `servebench profile` against them, streamed and not,
// single requests and multi-turn sessions.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "integration/mock/mock_harness.h"
#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

namespace mt = mock::testing;

// The event names of an SSE body, in order.
std::vector<std::string> event_names(const std::string& body) {
  std::vector<std::string> names;
  size_t pos = 0;
  while ((pos = body.find("event: ", pos)) != std::string::npos) {
    const size_t nl = body.find('\n', pos);
    names.push_back(body.substr(pos + 7, nl - pos - 7));
    pos = nl;
  }
  return names;
}

TEST(MockChatlike, ResponsesRouteStreamsOpenAiEventsAndAnswersWholeBodies) {
  auto mock = mt::MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  const std::string req =
      R"({"model":"m","instructions":"be brief","max_output_tokens":4,"ignore_eos":true,)"
      R"("input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"one two three"}]}])";
  auto whole = mt::post_json(mock->port(), "/v1/responses", req + "}");
  ASSERT_EQ(whole.status, 200) << whole.body;
  Json j = Json::parse(whole.body);
  EXPECT_EQ(j["object"], "response");
  EXPECT_EQ(j["status"], "incomplete");  // the 4 tokens ran out
  EXPECT_EQ(j["usage"]["input_tokens"], 5);
  EXPECT_EQ(j["usage"]["output_tokens"], 4);
  EXPECT_EQ(j["output"][0]["content"][0]["type"], "output_text");

  auto streamed = mt::post_json(mock->port(), "/v1/responses", req + R"(,"stream":true})");
  ASSERT_EQ(streamed.status, 200);
  EXPECT_EQ(streamed.headers["content-type"].rfind("text/event-stream", 0), 0u);
  const auto names = event_names(streamed.body);
  ASSERT_GE(names.size(), 8u) << streamed.body;
  EXPECT_EQ(names.front(), "response.created");
  EXPECT_EQ(std::count(names.begin(), names.end(), "response.output_text.delta"), 4);
  EXPECT_EQ(names.back(), "response.incomplete");
  EXPECT_EQ(streamed.body.find("[DONE]"), std::string::npos);

  auto bad = mt::post_json(mock->port(), "/v1/responses", R"({"model":"m"})");
  EXPECT_EQ(bad.status, 400);
}

TEST(MockChatlike, MessagesRouteStreamsAnthropicEvents) {
  auto mock = mt::MockProcess::start({"--reasoning-tokens", "2"});
  ASSERT_NE(mock, nullptr);
  const std::string req = R"({"model":"m","system":"be brief","max_tokens":5,"ignore_eos":true,)"
                          R"("messages":[{"role":"user","content":"one two three"}])";
  auto whole = mt::post_json(mock->port(), "/v1/messages", req + "}");
  ASSERT_EQ(whole.status, 200) << whole.body;
  Json j = Json::parse(whole.body);
  EXPECT_EQ(j["type"], "message");
  EXPECT_EQ(j["content"][0]["type"], "thinking");
  EXPECT_EQ(j["content"][1]["type"], "text");
  EXPECT_EQ(j["stop_reason"], "max_tokens");
  EXPECT_EQ(j["usage"]["input_tokens"], 5);

  auto streamed = mt::post_json(mock->port(), "/v1/messages", req + R"(,"stream":true})");
  ASSERT_EQ(streamed.status, 200);
  const auto names = event_names(streamed.body);
  ASSERT_GE(names.size(), 8u) << streamed.body;
  EXPECT_EQ(names[0], "message_start");
  EXPECT_EQ(names[1], "ping");
  EXPECT_EQ(names.back(), "message_stop");
  EXPECT_EQ(std::count(names.begin(), names.end(), "content_block_start"), 2);

  auto no_max = mt::post_json(mock->port(), "/v1/messages",
                              R"({"messages":[{"role":"user","content":"x"}]})");
  EXPECT_EQ(no_max.status, 400);
  EXPECT_NE(no_max.body.find("max_tokens"), std::string::npos);
}

const std::vector<std::string> kBase = {"-m", "mock-model", "--tokenizer", "simple", "--isl", "12"};

std::vector<std::string> args(const std::string& type, std::vector<std::string> extra) {
  std::vector<std::string> a = kBase;
  a.insert(a.end(), {"--endpoint-type", type});
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

struct TypeCase {
  const char* type;
  const char* folder;  // artifact folder part
};
const TypeCase kTypes[] = {{"responses", "mock-model-openai-responses-"},
                           {"messages", "mock-model-openai-messages-"}};

// Streamed: TTFT/ITL and reasoning from the vendor's events; ISL is the server's prompt count;
// the console, JSON and CSV carry the LLM metric set.
TEST(ProfileChatlike, StreamingEndToEnd) {
  for (const TypeCase& t : kTypes) {
    SCOPED_TRACE(t.type);
    const std::string dir = make_temp_dir(std::string("chatlike-stream-") + t.type);
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "8", "--itl-ms", "2", "--reasoning-tokens", "2",
                                 "--record-requests", dir + "/rec.jsonl", "--ground-truth",
                                 dir + "/gt.jsonl"}));
    auto r = run_profile(dir, args(t.type, {"-u", mock.url(), "--streaming", "--osl", "6",
                                            "--extra-inputs", "ignore_eos:true", "--concurrency",
                                            "3", "--request-count", "12", "--random-seed", "5"}));
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_NE(fs::path(r.artifact_dir).filename().string().find(t.folder), std::string::npos)
        << r.artifact_dir;
    const auto sent = read_jsonl(dir + "/rec.jsonl");
    ASSERT_EQ(sent.size(), 12u);
    std::map<std::string, Json> by_id, truth;
    for (const auto& s : sent) by_id[s["x_request_id"].get<std::string>()] = s;
    for (const auto& g : read_jsonl(dir + "/gt.jsonl")) truth[g["x_request_id"].get<std::string>()] = g;
    const auto records = r.records();
    ASSERT_EQ(records.size(), 12u);
    for (const auto& rec : records) {
      const auto& m = rec["metrics"];
      const auto& s = by_id.at(rec["metadata"]["x_request_id"].get<std::string>());
      EXPECT_EQ(m["input_sequence_length"]["value"].get<double>(),
                s["prompt_tokens"].get<double>());
      EXPECT_EQ(m["usage_prompt_tokens"]["value"].get<double>(), s["prompt_tokens"].get<double>());
      EXPECT_EQ(m["output_token_count"]["value"].get<double>(), 4);
      EXPECT_EQ(m["reasoning_token_count"]["value"].get<double>(), 2);
      EXPECT_EQ(m["usage_completion_tokens"]["value"].get<double>(), 6);
      EXPECT_TRUE(m.contains("time_to_first_token")) << rec.dump();
      EXPECT_GE(m["time_to_first_token"]["value"].get<double>(), 8.0);
      EXPECT_TRUE(m.contains("inter_token_latency"));
      // The first token as the mock wrote it (ground truth, wall clock) and as we measured it:
      // never before the write, and not long after it.
      const Json& g = truth.at(rec["metadata"]["x_request_id"].get<std::string>());
      int64_t written_ns = 0, token_events = 0;
      for (const auto& c : g["chunks"]) {
        if (c["kind"] != "content" && c["kind"] != "reasoning") continue;
        if (token_events++ == 0) written_ns = c["wall_ns"].get<int64_t>();
      }
      EXPECT_EQ(token_events, 6);
      const double measured_ns = rec["metadata"]["request_start_ns"].get<double>() +
                                 m["time_to_first_token"]["value"].get<double>() * 1e6;
      EXPECT_GE(measured_ns, static_cast<double>(written_ns) - 1e5);  // 0.1 ms of rounding
      EXPECT_LT(measured_ns, static_cast<double>(written_ns) + 50e6);
    }
    auto summary = r.summary();
    EXPECT_EQ(metric_avg(summary, "request_count"), 12);
    for (const char* tag :
         {"time_to_first_token", "inter_token_latency", "request_latency", "output_sequence_length",
          "input_sequence_length", "output_token_throughput", "reasoning_token_count"}) {
      EXPECT_TRUE(summary.contains(tag)) << tag;
    }
    const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
    EXPECT_NE(console.find("LLM Metrics"), std::string::npos) << console;
    EXPECT_NE(console.find("Time to First Token"), std::string::npos) << console;
    const std::string csv = read_file(r.artifact_dir + "/profile_export_aiperf.csv");
    EXPECT_NE(csv.find("Time to First Token"), std::string::npos);
    EXPECT_NE(csv.find("Inter Token Latency"), std::string::npos);
  }
}

TEST(ProfileChatlike, NonStreamingHasNoStreamingMetrics) {
  for (const TypeCase& t : kTypes) {
    SCOPED_TRACE(t.type);
    const std::string dir = make_temp_dir(std::string("chatlike-whole-") + t.type);
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
    auto r = run_profile(dir, args(t.type, {"-u", mock.url(), "--osl", "5", "--extra-inputs",
                                            "ignore_eos:true", "--request-count", "8"}));
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    for (const auto& rec : r.records()) {
      const auto& m = rec["metrics"];
      EXPECT_EQ(m["output_sequence_length"]["value"].get<double>(), 5) << rec.dump();
      EXPECT_EQ(m["usage_completion_tokens"]["value"].get<double>(), 5);
      EXPECT_FALSE(m.contains("time_to_first_token"));
      EXPECT_FALSE(m.contains("inter_token_latency"));
    }
    auto summary = r.summary();
    EXPECT_TRUE(summary.contains("request_latency"));
    EXPECT_FALSE(summary.contains("time_to_first_token"));
  }
}

// Sessions: the history goes back in each vendor's shape (the mock counts every message), the
// system prompt as instructions/system, and the api key as the type's own header, never written.
TEST(ProfileChatlike, MultiTurnSessionsAndCredentials) {
  const std::string key = "sk-chatlike-secret-4242";
  for (const TypeCase& t : kTypes) {
    SCOPED_TRACE(t.type);
    const std::string dir = make_temp_dir(std::string("chatlike-sessions-") + t.type);
    Server mock;
    ASSERT_TRUE(mock.start_mock(
        {"--ttft-ms", "2", "--itl-ms", "1", "--record-requests", dir + "/rec.jsonl"}));
    auto r = run_profile(
        dir, args(t.type, {"-u", mock.url(), "--streaming", "--osl", "3", "--extra-inputs",
                           "ignore_eos:true", "--session-turns-mean", "3", "--num-sessions", "2",
                           "--shared-system-prompt-length", "4", "--concurrency", "2", "--api-key",
                           key, "--export-level", "raw"}));
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    const auto sent = read_jsonl(dir + "/rec.jsonl");
    ASSERT_EQ(sent.size(), 6u);
    std::map<std::string, std::vector<Json>> by_session;
    for (const auto& s : sent) {
      by_session[s["x_correlation_id"].get<std::string>()].push_back(s);
      EXPECT_EQ(s["auth"], std::string(t.type) == "messages" ? "x-api-key" : "bearer");
      EXPECT_EQ(s["anthropic_version"], std::string(t.type) == "messages" ? "2023-06-01" : "");
    }
    ASSERT_EQ(by_session.size(), 2u);
    for (const auto& [id, turns] : by_session) {
      ASSERT_EQ(turns.size(), 3u);
      // Turn k carries the system prompt, k user turns and k - 1 assistant replies.
      for (size_t k = 0; k < 3; ++k) {
        const auto roles = turns[k]["roles"].get<std::vector<std::string>>();
        ASSERT_EQ(roles.size(), 2 * k + 2) << id;
        EXPECT_EQ(roles[0], "system");
        if (k > 0) {
          EXPECT_EQ(roles[2], "assistant");
          // The reply went back: 3 tokens, as the mock counts them.
          EXPECT_EQ(turns[k]["message_prompt_tokens"][2], 3);
          EXPECT_GT(turns[k]["prompt_tokens"].get<int64_t>(),
                    turns[k - 1]["prompt_tokens"].get<int64_t>());
        }
      }
    }
    for (const auto& e : fs::recursive_directory_iterator(r.artifact_root)) {
      if (!e.is_regular_file()) continue;
      EXPECT_EQ(read_file(e.path().string()).find(key), std::string::npos) << e.path();
    }
  }
}

// The run modes a chat-like type takes: cache-bust markers in the first turn, warm-up requests
// apart from the profiled ones, and a fixed schedule from an input file.
TEST(ProfileChatlike, CacheBustWarmupAndFixedSchedule) {
  for (const TypeCase& t : kTypes) {
    SCOPED_TRACE(t.type);
    const std::string dir = make_temp_dir(std::string("chatlike-modes-") + t.type);
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--itl-ms", "1", "--record-requests",
                                 dir + "/rec.jsonl", "--record-bodies"}));
    auto r = run_profile(
        dir,
        args(t.type, {"-u", mock.url(), "--streaming", "--osl", "2", "--cache-bust",
                      "first_turn_prefix", "--warmup-request-count", "2", "--request-count", "4"}));
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    size_t profiled = 0;
    for (const auto& rec : r.records())
      profiled += rec["metadata"]["benchmark_phase"] == "profiling";
    EXPECT_EQ(profiled, 4u);
    const auto sent = read_jsonl(dir + "/rec.jsonl");
    ASSERT_EQ(sent.size(), 6u);  // warm-up included
    std::set<std::string> bodies;
    for (const auto& s : sent) {
      const std::string body = s["body"].get<std::string>();
      EXPECT_NE(body.find("[rid:"), std::string::npos) << body;
      bodies.insert(body);
    }
    // One marker per conversation (warm-up may replay a conversation the profiling phase sends).
    EXPECT_GE(bodies.size(), 4u);

    const std::string file = dir + "/schedule.jsonl";
    {
      std::ofstream f(file);
      f << R"({"timestamp": 0, "text": "hello there world", "output_length": 3})"
        << "\n"
        << R"({"timestamp": 60, "text": "second one here", "output_length": 3})"
        << "\n";
    }
    fs::create_directories(dir + "/fixed");
    auto fixed = run_profile(
        dir + "/fixed", args(t.type, {"-u", mock.url(), "--streaming", "--input-file", file,
                                      "--custom-dataset-type", "single_turn", "--fixed-schedule"}));
    mock.stop();
    ASSERT_EQ(fixed.exit_code, 0) << fixed.stderr_text;
    const auto recs = fixed.records();
    ASSERT_EQ(recs.size(), 2u);
    const int64_t gap_ns = recs[1]["metadata"]["request_start_ns"].get<int64_t>() -
                           recs[0]["metadata"]["request_start_ns"].get<int64_t>();
    EXPECT_GE(gap_ns, 55'000'000) << "the second request waits for its timestamp";
  }
}

TEST(ProfileChatlike, ServerErrorEventsAreRecordedNotFatal) {
  for (const TypeCase& t : kTypes) {
    SCOPED_TRACE(t.type);
    const std::string dir = make_temp_dir(std::string("chatlike-errors-") + t.type);
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--itl-ms", "1", "--error-rate", "50",
                                 "--error-kind", "error-event", "--seed", "3"}));
    auto r = run_profile(dir, args(t.type, {"-u", mock.url(), "--streaming", "--osl", "4",
                                            "--request-count", "20", "--concurrency", "2"}));
    mock.stop();
    ASSERT_FALSE(r.artifact_dir.empty()) << r.stderr_text;
    size_t failed = 0;
    for (const auto& rec : r.records()) {
      if (!rec.contains("error") || rec["error"].is_null()) continue;
      ++failed;
      EXPECT_NE(rec["error"].dump().find("mock injected error event"), std::string::npos)
          << rec["error"].dump();
    }
    EXPECT_GT(failed, 0u);
    EXPECT_LT(failed, 20u);
  }
}

// Every fault kind of the mock (HTTP 500/429, reset, malformed event, error event), streamed and
// not: each failure is a recorded error of its kind, the rest succeed, the run ends normally.
TEST(ProfileChatlike, MixedFaultsAreRecordedByKind) {
  for (const TypeCase& t : kTypes) {
    for (bool stream : {true, false}) {
      SCOPED_TRACE(std::string(t.type) + (stream ? " streamed" : " whole"));
      const std::string dir = make_temp_dir(std::string("chatlike-mixed-") + t.type);
      Server mock;
      ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--itl-ms", "1", "--error-rate", "60",
                                   "--error-kind", "mixed", "--seed", "5", "--ground-truth",
                                   dir + "/gt.jsonl"}));
      std::vector<std::string> a = {"-u", mock.url(), "--osl", "4", "--request-count", "30",
                                    "--concurrency", "3"};
      if (stream) a.push_back("--streaming");
      auto r = run_profile(dir, args(t.type, a));
      mock.stop();
      ASSERT_FALSE(r.artifact_dir.empty()) << r.stderr_text;
      EXPECT_FALSE(r.timed_out);
      std::map<std::string, std::string> outcome;
      for (const auto& g : read_jsonl(dir + "/gt.jsonl"))
        outcome[g["x_request_id"].get<std::string>()] = g["outcome"].get<std::string>();
      std::set<std::string> kinds;
      size_t ok = 0;
      for (const auto& rec : r.records()) {
        const std::string& o = outcome[rec["metadata"]["x_request_id"].get<std::string>()];
        if (rec["error"].is_null()) {
          ++ok;
          EXPECT_EQ(o, "ok");
          continue;
        }
        EXPECT_NE(o, "ok") << rec["error"].dump();
        kinds.insert(rec["error"]["type"].get<std::string>());
      }
      EXPECT_GT(ok, 0u);
      EXPECT_GE(kinds.size(), 3u) << "several fault kinds, each recorded as its own error type";
    }
  }
}

}  // namespace
}  // namespace servebench::itest
