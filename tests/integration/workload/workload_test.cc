#include <algorithm>
#include <fstream>
#include <map>
#include <set>

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
  // AIPerf 0.13's anchored replay lag: schedule_lag's percentiles minus its minimum.
  const auto& lag = summary.at("servebench").at("schedule_lag");
  for (const char* p : {"p50", "p90", "p99"}) {
    const auto& row = summary.at(std::string("replay_sched_lag_") + p);
    EXPECT_EQ(row.at("unit"), "ms");
    EXPECT_NEAR(row.at("avg").get<double>(),
                lag.at(p).get<double>() - lag.at("min").get<double>(), 1e-9) << p;
    EXPECT_GE(row.at("avg").get<double>(), 0);
  }
  EXPECT_EQ(summary.at("replay_sched_degraded").at("avg").get<double>(), 0);
  EXPECT_FALSE(summary.contains("timeslices"));
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
  EXPECT_FALSE(r.summary().contains("replay_sched_lag_p50")) << "only fixed-schedule runs";
}

// Groups the mock's request records by session (X-Correlation-ID), in arrival order.
std::map<std::string, std::vector<Json>> by_session(const std::vector<Json>& rec) {
  std::map<std::string, std::vector<Json>> out;
  for (const auto& q : rec) out[q.at("x_correlation_id").get<std::string>()].push_back(q);
  for (auto& [id, v] : out)
    std::sort(v.begin(), v.end(), [](const Json& a, const Json& b) {
      return a.at("received_steady_ns").get<int64_t>() < b.at("received_steady_ns").get<int64_t>();
    });
  return out;
}

// Synthetic multi-turn sessions: each turn carries the whole history, every earlier reply as the
// server gave it (the mock counts the assistant message's tokens: they equal the output it
// sent), turn delays are kept, and a session's turns share one X-Correlation-ID and one worker.
TEST(Workload, SessionsCarryLiveHistoryAndTurnDelays) {
  const std::string dir = make_temp_dir("sessions");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin", "--ttft-ms", "2", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "builtin", "-u", mock.url(), "--streaming", "--isl",
                             "40", "--osl", "6", "--session-turns-mean", "3", "--num-sessions", "5",
                             "--session-turn-delay-mean", "30", "--concurrency", "2", "--workers-max", "2",
                             "--shared-system-prompt-length", "12", "--random-seed", "3", "--export-level", "raw"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto rec = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(rec.size(), 15u);  // 5 sessions x 3 turns, no --request-count
  auto sessions = by_session(rec);
  ASSERT_EQ(sessions.size(), 5u);
  for (const auto& [id, turns] : sessions) {
    ASSERT_EQ(turns.size(), 3u) << id;
    for (size_t t = 0; t < turns.size(); ++t) {
      const auto& q = turns[t];
      // system + (user, assistant) per earlier turn + this user turn.
      ASSERT_EQ(q.at("num_messages").get<size_t>(), 2 + 2 * t) << q.dump();
      const auto& tokens = q.at("message_prompt_tokens");
      EXPECT_EQ(tokens.at(0).get<int64_t>(), 12);  // the shared system prompt, exact
      for (size_t k = 0; k < t; ++k) {
        EXPECT_EQ(q.at("roles").at(1 + 2 * k), "user");
        EXPECT_EQ(q.at("roles").at(2 + 2 * k), "assistant");
        EXPECT_EQ(tokens.at(1 + 2 * k).get<int64_t>(), 40);  // earlier user turns, as sent
        // The live reply of turn k, as long as the mock made it.
        EXPECT_EQ(tokens.at(2 + 2 * k).get<int64_t>(), turns[k].at("output_tokens").get<int64_t>()) << q.dump();
      }
      EXPECT_EQ(tokens.at(1 + 2 * t).get<int64_t>(), 40);
      if (t > 0) {  // the turn delay (30 ms, no stddev) after the previous reply arrived
        const int64_t gap = q.at("received_steady_ns").get<int64_t>() - turns[t - 1].at("received_steady_ns").get<int64_t>();
        EXPECT_GE(gap, 30'000'000) << id;
      }
    }
  }
  // Our records: ISL grows with the history, one worker per session, ids as the server saw them.
  std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> ours;  // id -> (turn, isl)
  std::map<std::string, std::set<std::string>> workers;
  for (const auto& x : r.records()) {
    const auto& m = x.at("metadata");
    const std::string id = m.at("x_correlation_id");
    ours[id].push_back({m.at("turn_index").get<int64_t>(), x.at("metrics").at("input_sequence_length").at("value").get<int64_t>()});
    workers[id].insert(m.at("worker_id").get<std::string>());
    EXPECT_TRUE(sessions.count(id)) << id;
  }
  ASSERT_EQ(ours.size(), 5u);
  for (auto& [id, v] : ours) {
    std::sort(v.begin(), v.end());
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].second, 52);  // 12 + 40: each message counted on its own, exact
    EXPECT_GT(v[1].second, v[0].second + 40);
    EXPECT_GT(v[2].second, v[1].second + 40);
    EXPECT_EQ(workers[id].size(), 1u) << id;
  }
  // The raw export keeps each body as sent, history included.
  auto raw = read_jsonl(r.artifact_dir + "/profile_export_raw.jsonl");
  ASSERT_EQ(raw.size(), 15u);
  for (const auto& x : raw) {
    const auto turn = x.at("metadata").at("turn_index").get<size_t>();
    EXPECT_EQ(x.at("payload").at("messages").size(), 2 + 2 * turn);
  }
}

// multi_turn files: a leading system turn is hoisted, the other turns go one by one with history.
TEST(Workload, MultiTurnFileSessions) {
  const std::string dir = make_temp_dir("mtfile");
  {
    std::ofstream f(dir + "/conv.jsonl");
    f << R"({"session_id": "a", "turns": [{"role": "system", "text": "be brief"}, {"text": "one two three"}, {"text": "four five"}]})" "\n";
    f << R"({"session_id": "b", "turns": [{"text": "six"}, {"text": "seven eight", "delay": 50}, {"text": "nine"}]})" "\n";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--input-file",
                             dir + "/conv.jsonl", "--osl", "3", "--concurrency", "2"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto sessions = by_session(read_jsonl(dir + "/rec.jsonl"));
  ASSERT_EQ(sessions.size(), 2u);
  size_t two = 0, three = 0;
  for (const auto& [id, turns] : sessions) {
    if (turns.size() == 2) {  // session a: system + its two user turns
      ++two;
      EXPECT_EQ(turns[0].at("roles"), Json::parse(R"(["system","user"])"));
      EXPECT_EQ(turns[1].at("roles"), Json::parse(R"(["system","user","assistant","user"])"));
      EXPECT_EQ(turns[1].at("message_prompt_tokens").at(3).get<int64_t>(), 2);  // "four five"
    } else {
      ++three;
      ASSERT_EQ(turns.size(), 3u);
      EXPECT_EQ(turns[2].at("num_messages").get<int64_t>(), 5);
      const int64_t gap = turns[1].at("received_steady_ns").get<int64_t>() - turns[0].at("received_steady_ns").get<int64_t>();
      EXPECT_GE(gap, 50'000'000);  // the row's delay
    }
  }
  EXPECT_EQ(two, 1u);
  EXPECT_EQ(three, 1u);
  EXPECT_EQ(r.records().size(), 5u);
  // inputs.json: one session per conversation, one payload per turn.
  auto inputs = Json::parse(read_file(r.artifact_dir + "/inputs.json"));
  ASSERT_EQ(inputs.at("data").size(), 2u);
  EXPECT_EQ(inputs.at("data").at(1).at("payloads").size(), 3u);
}

// Mooncake sessions replayed on a fixed schedule: later turns go at their own timestamps (after
// the previous reply), with the history of the session.
TEST(Workload, MooncakeSessionsReplayTurnTimestamps) {
  const std::string dir = make_temp_dir("mcsess");
  {
    std::ofstream f(dir + "/trace.jsonl");
    f << R"({"session_id": "s1", "timestamp": 0, "input_length": 30, "output_length": 4})" "\n";
    f << R"({"session_id": "s2", "timestamp": 20, "input_length": 25, "output_length": 4})" "\n";
    f << R"({"session_id": "s1", "timestamp": 200, "input_length": 10, "output_length": 4})" "\n";
    f << R"({"session_id": "s2", "timestamp": 300, "input_length": 12, "output_length": 4})" "\n";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "builtin", "-u", mock.url(), "--streaming",
                             "--input-file", dir + "/trace.jsonl", "--custom-dataset-type", "mooncake_trace"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto rec = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(rec.size(), 4u);
  auto sessions = by_session(rec);
  ASSERT_EQ(sessions.size(), 2u);
  int64_t t0 = INT64_MAX;
  for (const auto& q : rec) t0 = std::min(t0, q.at("received_steady_ns").get<int64_t>());
  std::vector<std::pair<int64_t, int64_t>> second_turns;  // (offset ms, prompt tokens of the new turn)
  for (const auto& [id, turns] : sessions) {
    ASSERT_EQ(turns.size(), 2u);
    EXPECT_EQ(turns[1].at("num_messages").get<int64_t>(), 3);
    second_turns.push_back({(turns[1].at("received_steady_ns").get<int64_t>() - t0) / 1'000'000,
                            turns[1].at("message_prompt_tokens").at(2).get<int64_t>()});
  }
  std::sort(second_turns.begin(), second_turns.end());
  EXPECT_NEAR(static_cast<double>(second_turns[0].first), 200, 30);
  EXPECT_EQ(second_turns[0].second, 10);
  EXPECT_NEAR(static_cast<double>(second_turns[1].first), 300, 30);
  EXPECT_EQ(second_turns[1].second, 12);
}

// --user-centric-rate: the users share the rate; each user's turns are num_users / rate apart.
TEST(Workload, UserCentricRateSpacesEachUsersTurns) {
  const std::string dir = make_temp_dir("ucr");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--isl", "10",
                             "--osl", "2", "--session-turns-mean", "3", "--user-centric-rate", "40",
                             "--num-users", "4", "--request-count", "24", "--random-seed", "5"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto rec = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(rec.size(), 24u);
  const int64_t gap = 4 * 1'000'000'000LL / 40;  // 100 ms
  std::vector<int64_t> gaps;
  for (const auto& [id, turns] : by_session(rec))
    for (size_t t = 1; t < turns.size(); ++t)
      gaps.push_back(turns[t].at("received_steady_ns").get<int64_t>() - turns[t - 1].at("received_steady_ns").get<int64_t>());
  ASSERT_GT(gaps.size(), 8u);
  // Scheduling noise on a loaded machine moves single sends; the schedule shows in the bulk.
  EXPECT_NEAR(static_cast<double>(median(gaps)), static_cast<double>(gap), 10e6);
  const auto near = std::count_if(gaps.begin(), gaps.end(), [&](int64_t d) { return std::llabs(d - gap) < 20'000'000; });
  EXPECT_GE(near * 10, static_cast<int64_t>(gaps.size()) * 8) << "fewer than 80% of the gaps within 20 ms of 100 ms";
  // The whole run keeps the aggregate rate: 24 requests at 40/s take about 0.6 s.
  int64_t lo = INT64_MAX, hi = 0;
  for (const auto& q : rec) {
    lo = std::min(lo, q.at("received_steady_ns").get<int64_t>());
    hi = std::max(hi, q.at("received_steady_ns").get<int64_t>());
  }
  EXPECT_NEAR(static_cast<double>(hi - lo) / 1e9, 23.0 / 40.0, 0.15);
}

// Cache-bust markers differ per session; warm-up requests carry AIPerf's warm-up marker; the
// prefix pool and the user context are shared / distinct as specified; ISL stays exact.
TEST(Workload, CacheBustWarmupMarkerAndSharedPrompts) {
  const std::string dir = make_temp_dir("markers");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "builtin", "-u", mock.url(), "--isl", "30",
                             "--osl", "2", "--request-count", "6", "--warmup-request-count", "3",
                             "--user-context-prompt-length", "7", "--prefix-prompt-pool-size", "2",
                             "--prefix-prompt-length", "5", "--random-seed", "9", "--export-level", "raw"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto rec = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(rec.size(), 9u);
  // Warm-up goes first: its 3 requests start with "warmup " before the 7-token context.
  std::sort(rec.begin(), rec.end(), [](const Json& a, const Json& b) {
    return a.at("received_steady_ns").get<int64_t>() < b.at("received_steady_ns").get<int64_t>();
  });
  for (size_t i = 0; i < rec.size(); ++i) {
    const auto& t = rec[i].at("message_prompt_tokens");
    ASSERT_EQ(t.size(), 2u);  // user context, then the prompt
    EXPECT_EQ(t.at(1).get<int64_t>(), 35);  // 5-token prefix + 30, exact
    if (i < 3) EXPECT_GT(t.at(0).get<int64_t>(), 7);
    else EXPECT_EQ(t.at(0).get<int64_t>(), 7);
  }
  for (const auto& x : r.records()) {
    if (x.at("metadata").at("benchmark_phase") != "profiling") continue;
    EXPECT_EQ(x.at("metrics").at("input_sequence_length").at("value").get<int64_t>(), 42);
  }
  // Prefixes come from a pool of two; every session has its own user context.
  std::set<std::string> prefixes, contexts;
  for (const auto& x : read_jsonl(r.artifact_dir + "/profile_export_raw.jsonl")) {
    if (x.at("metadata").at("benchmark_phase") != "profiling") continue;
    contexts.insert(x.at("payload").at("messages").at(0).at("content").get<std::string>());
    prefixes.insert(x.at("payload").at("messages").at(1).at("content").get<std::string>().substr(0, 12));
  }
  EXPECT_EQ(contexts.size(), 6u);
  EXPECT_GE(prefixes.size(), 1u);
  EXPECT_LE(prefixes.size(), 2u);

  const std::string dir2 = make_temp_dir("cachebust");
  Server mock2;
  ASSERT_TRUE(mock2.start_mock({"--tokenizer", "builtin", "--record-requests", dir2 + "/rec.jsonl"}));
  auto r2 = run_profile(dir2, {"-m", "mock-model", "--tokenizer", "builtin", "-u", mock2.url(), "--isl", "30",
                               "--osl", "2", "--request-count", "8", "--num-dataset-entries", "2",
                               "--cache-bust", "first_turn_prefix", "--random-seed", "9", "--export-level", "raw"});
  mock2.stop();
  ASSERT_EQ(r2.exit_code, 0) << r2.stderr_text;
  std::set<std::string> markers;
  for (const auto& x : read_jsonl(r2.artifact_dir + "/profile_export_raw.jsonl")) {
    const std::string content = x.at("payload").at("messages").at(0).at("content");
    ASSERT_EQ(content.rfind("[rid:", 0), 0u) << content;
    markers.insert(content.substr(0, 18));
  }
  EXPECT_EQ(markers.size(), 8u);  // two prompts, eight distinct sessions
  // The marker changes the prompt's token count: each request is counted as it was sent, and
  // agrees with the server's count of that very request.
  std::map<std::string, int64_t> ours;
  for (const auto& x : r2.records())
    ours[x.at("metadata").at("x_request_id")] = x.at("metrics").at("input_sequence_length").at("value").get<int64_t>();
  const auto server = read_jsonl(dir2 + "/rec.jsonl");
  ASSERT_EQ(server.size(), 8u);
  for (const auto& q : server)
    EXPECT_EQ(q.at("message_prompt_tokens").at(0).get<int64_t>(), ours.at(q.at("x_request_id").get<std::string>()));
}

// --reset-kv-cache POSTs the reset path before any load; a failing reset sends no load at all.
TEST(Workload, ResetKvCacheBeforeLoad) {
  const std::string dir = make_temp_dir("kvreset");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl"}));
  auto ok = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--isl", "10",
                              "--osl", "2", "--request-count", "3", "--reset-kv-cache"});
  ASSERT_EQ(ok.exit_code, 0) << ok.stderr_text;
  EXPECT_EQ(read_jsonl(dir + "/rec.jsonl").size(), 3u);
  auto bad = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--isl", "10",
                               "--osl", "2", "--request-count", "3", "--reset-kv-cache-path", "/flush_cache"});
  mock.stop();
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.stderr_text.find("flush_cache answered HTTP 404"), std::string::npos) << bad.stderr_text;
  EXPECT_EQ(read_jsonl(dir + "/rec.jsonl").size(), 3u);  // nothing more was sent
}

// --random-seed fixes what is sent: two runs give byte-identical inputs.json (sessions, shared
// prompts, a sequence distribution and the shuffle included); another seed gives other prompts.
TEST(Workload, SameSeedSameInputsJson) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  auto run = [&](const std::string& tag, const std::string& seed) {
    const std::string dir = make_temp_dir(tag);
    auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "builtin", "-u", mock.url(), "--session-turns-mean",
                               "2", "--session-turns-stddev", "1", "--num-sessions", "6", "--seq-dist",
                               "20,4:50;30,4:50", "--shared-system-prompt-length", "8",
                               "--user-context-prompt-length", "6", "--prefix-prompt-pool-size", "2",
                               "--prefix-prompt-length", "4", "--random-seed", seed});
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return read_file(r.artifact_dir + "/inputs.json");
  };
  const std::string a = run("seed-a", "11"), b = run("seed-b", "11"), c = run("seed-c", "12");
  mock.stop();
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// Sessions under a request rate with a concurrency ceiling: a session waiting for its next turn
// holds its slot, and that turn still goes (continuations are not held by the ceiling).
TEST(Workload, SessionsUnderRateAndCeilingComplete) {
  const std::string dir = make_temp_dir("rateceil");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--isl", "10", "--osl",
                             "2", "--session-turns-mean", "4", "--num-sessions", "6", "--request-rate", "200",
                             "--concurrency", "2", "--session-turn-delay-mean", "20", "--random-seed", "1"},
                       20);
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(read_jsonl(dir + "/rec.jsonl").size(), 24u);
  EXPECT_LT(r.wall_s, 5.0);
  for (const auto& [id, turns] : by_session(read_jsonl(dir + "/rec.jsonl"))) EXPECT_EQ(turns.size(), 4u) << id;
}

// single_turn rows sharing a session_id go one after another (each after the previous reply) as
// one session, but without history (AIPerf).
TEST(Workload, SingleTurnSessionRowsAreOrderedWithoutHistory) {
  const std::string dir = make_temp_dir("stsess");
  {
    std::ofstream f(dir + "/rows.jsonl");
    f << R"({"session_id": "a", "text": "one two three"})" "\n";
    f << R"({"session_id": "a", "text": "four five"})" "\n";
    f << R"({"session_id": "a", "text": "six"})" "\n";
    f << R"({"session_id": "b", "text": "seven eight"})" "\n";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "40", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--input-file",
                             dir + "/rows.jsonl", "--osl", "2", "--concurrency", "4"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto sessions = by_session(read_jsonl(dir + "/rec.jsonl"));
  ASSERT_EQ(sessions.size(), 2u);
  bool saw_three = false;
  for (const auto& [id, turns] : sessions) {
    for (const auto& q : turns) EXPECT_EQ(q.at("num_messages").get<int64_t>(), 1) << q.dump();  // no history
    if (turns.size() != 3) continue;
    saw_three = true;
    EXPECT_EQ(turns[0].at("message_prompt_tokens").at(0).get<int64_t>(), 3);  // file order
    EXPECT_EQ(turns[1].at("message_prompt_tokens").at(0).get<int64_t>(), 2);
    for (size_t t = 1; t < 3; ++t)  // each after the previous reply (TTFT 40 ms)
      EXPECT_GE(turns[t].at("received_steady_ns").get<int64_t>() - turns[t - 1].at("received_steady_ns").get<int64_t>(),
                40'000'000);
  }
  EXPECT_TRUE(saw_three);
}

// --concurrency caps the users in flight under --user-centric-rate (AIPerf).
TEST(Workload, UserCentricRateHonoursAConcurrencyCeiling) {
  const std::string dir = make_temp_dir("ucrcap");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--isl", "10", "--osl",
                             "2", "--session-turns-mean", "2", "--user-centric-rate", "100", "--num-users", "4",
                             "--concurrency", "1", "--num-sessions", "4", "--random-seed", "2"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  // One session at a time: sessions' [first, last] request intervals do not overlap.
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const auto& [id, turns] : by_session(read_jsonl(dir + "/rec.jsonl")))
    spans.push_back({turns.front().at("received_steady_ns").get<int64_t>(), turns.back().at("received_steady_ns").get<int64_t>()});
  ASSERT_GE(spans.size(), 3u);
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) EXPECT_GT(spans[i].first, spans[i - 1].second);
}

TEST(Workload, BadFilesAreOneLineUsageErrors) {
  const std::string dir = make_temp_dir("badfile");
  {
    std::ofstream(dir + "/bad.jsonl") << "{\"text\": \"ok\"}\n{\"text\": 5}\n";
  }
  auto bad = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--input-file", dir + "/bad.jsonl"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.stderr_text.find("bad.jsonl:2: field 'text'"), std::string::npos) << bad.stderr_text;
  auto missing = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--input-file", dir + "/nope.jsonl"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.stderr_text.find("nope.jsonl"), std::string::npos);
  auto both = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--num-sessions", "3", "--request-count", "4"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.stderr_text.find("keep one"), std::string::npos) << both.stderr_text;
  auto users = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--user-centric-rate", "5"});
  EXPECT_EQ(users.exit_code, 2);
  EXPECT_NE(users.stderr_text.find("--num-users"), std::string::npos) << users.stderr_text;
  auto rule = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--fixed-schedule"});
  EXPECT_EQ(rule.exit_code, 2);
  EXPECT_NE(rule.stderr_text.find("--fixed-schedule needs --input-file"), std::string::npos) << rule.stderr_text;
  for (const auto* run : {&bad, &missing, &both, &users, &rule}) EXPECT_LT(run->wall_s, 1.5);
}

}  // namespace
}  // namespace servebench::itest
