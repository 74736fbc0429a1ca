// Agentic replay end to end: servebench profile --scenario inferencex-agentx-mvp against
// servebench-mock, whose --record-requests file shows every request (prompt tokens, arrival
// time, X-Correlation-ID: "<run>-w<lane>" for a lane's warm-up, "<run>-s<session>" for profiling
// sessions, "-c<k>" appended for sub-agents). examples/agentic/agentx holds three traces of six
// turns recorded 0.2 s apart; turn k of trace j asks for 1000 j + 100 (k + 2) input tokens, so a
// request's prompt size names its trace and turn (the cache-bust marker adds a few tokens).
#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

constexpr int64_t kTtftMs = 60;

struct Req {
  std::string session;  // correlation id without the run prefix ("w0000000001", "s0000000003")
  bool child = false;
  int trace = -1;
  int turn = -1;
  int64_t at_ms = 0;
  std::string body;
};

struct Replay {
  RunResult r;
  std::vector<Req> reqs;  // arrival order
};

Replay replay(const std::string& dir, std::vector<std::string> args) {
  Replay out;
  Server mock;
  if (!mock.start_mock({"--tokenizer", "builtin", "--ttft-ms", std::to_string(kTtftMs), "--record-requests",
                        dir + "/rec.jsonl", "--record-bodies"})) {
    ADD_FAILURE() << "servebench-mock did not start";
    return out;
  }
  std::vector<std::string> all = {"-m", "m-big", "--tokenizer", "builtin", "-u", mock.url(), "--input-file",
                                  SB_AGENTX_DIR, "--scenario", "inferencex-agentx-mvp", "--unsafe-override"};
  all.insert(all.end(), args.begin(), args.end());
  out.r = run_profile(dir, all, 60);
  mock.stop();
  auto server = read_jsonl(dir + "/rec.jsonl");
  std::stable_sort(server.begin(), server.end(), [](const Json& a, const Json& b) {
    return a.at("received_steady_ns").get<int64_t>() < b.at("received_steady_ns").get<int64_t>();
  });
  for (const auto& q : server) {
    Req r;
    std::string corr = q.at("x_correlation_id").get<std::string>();
    corr = corr.substr(corr.find('-') + 1);
    r.child = corr.find("-c") != std::string::npos;
    r.session = corr.substr(0, corr.find('-'));
    const auto isl = q.at("prompt_tokens").get<int64_t>();
    if (!r.child) {
      r.trace = static_cast<int>(isl / 1000);
      r.turn = static_cast<int>((isl % 1000) / 100) - 2;
    }
    r.at_ms = (q.at("received_steady_ns").get<int64_t>() - server.front().at("received_steady_ns").get<int64_t>()) /
              1'000'000;
    r.body = q.value("body", "");
    out.reqs.push_back(std::move(r));
  }
  return out;
}

std::string marker_of(const std::string& body) {
  const size_t at = body.find("[rid:");
  return at == std::string::npos ? "" : body.substr(at, 18);
}

TEST(AgenticReplay, LanesWarmTheirStartTurnThenReplayTheRestInOrderAndRecycle) {
  const std::string dir = make_temp_dir("agentx");
  auto run = replay(dir, {"--concurrency", "3", "--benchmark-duration", "2.5", "--benchmark-grace-period", "5",
                          "--trajectory-start-min-ratio", "0.3", "--trajectory-start-max-ratio", "0.6",
                          "--burst-phase-starts", "--random-seed", "11"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  std::map<std::string, std::vector<const Req*>> sessions;
  std::vector<const Req*> warm;
  int64_t last_warm_ms = 0;
  for (const auto& q : run.reqs) {
    if (q.child) continue;
    if (q.session[0] == 'w') {
      warm.push_back(&q);
      last_warm_ms = std::max(last_warm_ms, q.at_ms);
    } else {
      sessions[q.session].push_back(&q);
    }
  }
  // One priming request per lane, all in flight together (burst), each at its sampled start
  // turn: t* in [0.3, 0.6] of the 1 s trace, so the turn recorded at 0.2, 0.4 or 0.6 s.
  ASSERT_EQ(warm.size(), 3u);
  std::map<int, int> start_turn;  // lane → k
  std::set<int> traces;
  for (const Req* w : warm) {
    EXPECT_GE(w->turn, 1) << w->session;
    EXPECT_LE(w->turn, 3) << w->session;
    EXPECT_LT(w->at_ms, kTtftMs) << "lanes not in flight together";
    const int lane = std::stoi(w->session.substr(1), nullptr, 16);
    EXPECT_EQ(w->trace, lane);  // lane i plays trace i
    start_turn[lane] = w->turn;
    traces.insert(w->trace);
  }
  EXPECT_EQ(traces.size(), 3u);
  // Profiling starts after the warm-up barrier: every priming reply is in.
  ASSERT_GE(sessions.size(), 4u) << "no recycled trace";
  for (const auto& [id, reqs] : sessions) EXPECT_GE(reqs.front()->at_ms, last_warm_ms + kTtftMs - 5) << id;
  for (const auto& [id, reqs] : sessions) {
    const int number = std::stoi(id.substr(1), nullptr, 16);
    // Lanes resume after their warmed turn; later sessions replay whole traces (file order).
    const int first = number < 3 ? start_turn[number] + 1 : 0;
    const int trace = number < 3 ? number : (number - 3) % 3;
    EXPECT_EQ(reqs.front()->turn, first) << id;
    for (size_t i = 0; i < reqs.size(); ++i) {
      EXPECT_EQ(reqs[i]->trace, trace) << id;
      EXPECT_EQ(reqs[i]->turn, first + static_cast<int>(i)) << id << " order within the trajectory";
      if (i > 0) {
        EXPECT_GE(reqs[i]->at_ms, reqs[i - 1]->at_ms + kTtftMs - 5) << id;
      }
    }
  }
  // A lane's continuation carries its warm-up's cache-bust marker; other plays their own.
  for (const Req* w : warm) {
    const auto& cont = sessions["s" + w->session.substr(1)];
    ASSERT_FALSE(cont.empty()) << w->session;
    EXPECT_FALSE(marker_of(w->body).empty());
    EXPECT_EQ(marker_of(cont.front()->body), marker_of(w->body));
  }
  std::set<std::string> markers;
  for (const auto& [id, reqs] : sessions) markers.insert(marker_of(reqs.front()->body));
  EXPECT_EQ(markers.size(), sessions.size());
  // The scenario's stamp: --unsafe-override with a short duration is not a valid submission.
  const Json summary = run.r.summary();
  EXPECT_EQ(summary.at("scenario").at("name"), "inferencex-agentx-mvp");
  EXPECT_EQ(summary.at("submission_valid"), false);
  EXPECT_EQ(summary.at("submission_invalid_reasons"), Json::array({"unsafe_override"}));
}

TEST(AgenticReplay, MoreLanesThanTracesNeedsDatasetWrap) {
  const std::string dir = make_temp_dir("agentxwrap");
  auto run = replay(dir, {"--concurrency", "4", "--benchmark-duration", "1"});
  EXPECT_EQ(run.r.exit_code, 2) << run.r.stderr_text;
  EXPECT_NE(run.r.stderr_text.find("--allow-dataset-wrap"), std::string::npos) << run.r.stderr_text;
  EXPECT_TRUE(run.reqs.empty());
  const std::string dir2 = make_temp_dir("agentxwrap2");
  auto wrapped = replay(dir2, {"--concurrency", "4", "--benchmark-duration", "1", "--allow-dataset-wrap",
                               "--burst-phase-starts"});
  ASSERT_EQ(wrapped.r.exit_code, 0) << wrapped.r.stderr_text;
  int warm = 0;
  for (const auto& q : wrapped.reqs) warm += q.session[0] == 'w' && !q.child;
  EXPECT_EQ(warm, 4);
}

TEST(AgenticReplay, ScenarioRefusesOtherFormats) {
  const std::string dir = make_temp_dir("agentxfmt");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin"}));
  auto r = run_profile(dir, {"-m", "m", "--tokenizer", "builtin", "-u", mock.url(), "--input-file",
                             std::string(SB_AGENTX_DIR) + "/../dag.jsonl", "--scenario", "inferencex-agentx-mvp",
                             "--unsafe-override", "--benchmark-duration", "1"});
  mock.stop();
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("weka_trace"), std::string::npos) << r.stderr_text;
}

// --system-idle-gap-cap-seconds: a 30 s recorded pause while nothing is in flight shrinks to the
// cap. One lane replays a trace whose turns start at 0, 0.2, 30.2 and 30.4 s from turn 0.
TEST(AgenticReplay, SystemIdleGapCapShortensAPauseWhenNothingIsInFlight) {
  const std::string dir = make_temp_dir("agentxidle");
  const std::string trace = dir + "/idle.json";
  {
    std::ofstream f(trace);
    f << R"({"id":"idle","models":["m"],"block_size":64,"hash_id_scope":"local","requests":[)"
      << R"({"t":0,"type":"n","model":"m","in":200,"out":4,"api_time":0.05},)"
      << R"({"t":0.2,"type":"n","model":"m","in":300,"out":4,"api_time":0.05},)"
      << R"({"t":30.2,"type":"n","model":"m","in":400,"out":4,"api_time":0.05},)"
      << R"({"t":30.4,"type":"n","model":"m","in":500,"out":4,"api_time":0.05}]})";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin", "--ttft-ms", std::to_string(kTtftMs), "--record-requests",
                               dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "m", "--tokenizer", "builtin", "-u", mock.url(), "--input-file", trace,
                             "--scenario", "inferencex-agentx-mvp", "--unsafe-override", "--benchmark-duration", "3",
                             "--concurrency", "1", "--trajectory-start-min-ratio", "0", "--trajectory-start-max-ratio",
                             "0", "--system-idle-gap-cap-seconds", "0.3"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto server = read_jsonl(dir + "/rec.jsonl");
  std::stable_sort(server.begin(), server.end(), [](const Json& a, const Json& b) {
    return a.at("received_steady_ns").get<int64_t>() < b.at("received_steady_ns").get<int64_t>();
  });
  std::vector<int64_t> at_ms;  // the first play: warm-up turn 0, then turns 1, 2, 3
  for (const auto& q : server) {
    at_ms.push_back(q.at("received_steady_ns").get<int64_t>() / 1'000'000);
    if (at_ms.size() == 4) break;
  }
  ASSERT_EQ(at_ms.size(), 4u) << "the 30 s pause was not shortened";
  EXPECT_EQ(server[2].at("prompt_tokens").get<int64_t>() / 100, 4);  // turn 2 (400 tokens + marker)
  // Turn 2 waits the cap (0.3 s) after turn 1's reply, not the recorded 29.95 s.
  const int64_t gap = at_ms[2] - at_ms[1];
  EXPECT_GE(gap, kTtftMs + 250) << gap;
  EXPECT_LT(gap, kTtftMs + 1500) << gap;
}

// --ignore-trace-delays: a trace recorded 20 s apart goes back to back (no fixed schedule).
TEST(AgenticReplay, IgnoreTraceDelaysSendsRecordedTurnsBackToBack) {
  const std::string dir = make_temp_dir("ignoredelays");
  const std::string trace = dir + "/slow.json";
  {
    std::ofstream f(trace);
    f << R"({"id":"slow","models":["m"],"block_size":64,"hash_id_scope":"local","requests":[)"
      << R"({"t":0,"type":"n","model":"m","in":200,"out":4},{"t":20,"type":"n","model":"m","in":300,"out":4},)"
      << R"({"t":40,"type":"n","model":"m","in":400,"out":4}]})";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "m", "--tokenizer", "builtin", "-u", mock.url(), "--input-file", trace,
                             "--ignore-trace-delays"},
                       15);
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_FALSE(r.timed_out);
  EXPECT_LT(r.wall_s, 10);  // the recorded schedule alone would take 40 s
  const auto server = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(server.size(), 3u);
  std::vector<int64_t> isl;
  for (const auto& q : server) isl.push_back(q.at("prompt_tokens").get<int64_t>());
  std::sort(isl.begin(), isl.end());
  EXPECT_EQ(isl, (std::vector<int64_t>{200, 300, 400}));
}

// theoretical_prefix_cache_hit end to end on examples/agentic/weka_trace.json, by hand (blocks
// of 64 tokens; a hit is a leading block an earlier request of the trace produced, in t order):
// parent 0/4 (t 0), 4/6 (t 0.1); a1 0/3 (t 0.2), a2 0/2 (t 0.2), a1 3/4 (t 0.3); parent 6/8
// (t 0.4): 13 of 27 blocks.
TEST(AgenticReplay, WekaTheoreticalPrefixCacheHitIsReported) {
  const std::string dir = make_temp_dir("wekahit");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tokenizer", "builtin"}));
  auto r = run_profile(dir, {"-m", "m-big", "-m", "m-small", "--tokenizer", "builtin", "-u", mock.url(),
                             "--input-file", std::string(SB_AGENTX_DIR) + "/../weka_trace.json"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json summary = r.summary();
  ASSERT_TRUE(summary.contains("theoretical_prefix_cache_hit")) << summary.dump().substr(0, 400);
  EXPECT_NEAR(metric_avg(summary, "theoretical_prefix_cache_hit"), 100.0 * 13 / 27, 1e-6);
  EXPECT_EQ(summary.at("theoretical_prefix_cache_hit").at("unit"), "%");
  EXPECT_FALSE(summary.contains("submission_valid"));  // no scenario, no stamp
}

}  // namespace
}  // namespace servebench::itest

namespace servebench::itest {
namespace {

int64_t max_tokens_of(const std::string& body) {
  const Json j = Json::parse(body);
  if (j.contains("max_completion_tokens")) return j.at("max_completion_tokens").get<int64_t>();
  if (j.contains("max_tokens")) return j.at("max_tokens").get<int64_t>();
  return -1;
}

TEST(AgenticReplay, CacheWarmupPlaysLanesOnWithOneTokenRepliesForItsDuration) {
  const std::string dir = make_temp_dir("agentx-pressure");
  auto run = replay(dir, {"--concurrency", "2", "--benchmark-duration", "1", "--benchmark-grace-period", "5",
                          "--agentic-cache-warmup-duration", "1.5", "--burst-phase-starts", "--random-seed", "5"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  std::map<std::string, std::vector<const Req*>> warm, prof;
  int64_t last_warm_ms = 0;
  for (const auto& q : run.reqs) {
    if (q.child) continue;
    (q.session[0] == 'w' ? warm : prof)[q.session].push_back(&q);
    if (q.session[0] == 'w') last_warm_ms = std::max(last_warm_ms, q.at_ms);
  }
  ASSERT_GE(warm.size(), 3u) << "no lane went on to a pressure copy";
  std::map<int, int> priming_turn;
  for (const auto& [id, reqs] : warm) {
    const int number = std::stoi(id.substr(1), nullptr, 16);
    if (number < 2) priming_turn[number] = reqs.front()->turn;
    // Lanes go on from their priming turn; later sessions play whole traces in file order.
    const int first = number < 2 ? reqs.front()->turn : 0;
    for (size_t i = 0; i < reqs.size(); ++i) {
      EXPECT_EQ(reqs[i]->turn, first + static_cast<int>(i)) << id;
      if (number >= 2) {
        EXPECT_EQ(reqs[i]->trace, (number - 2) % 3) << id;
      }
      // Every pressure request asks for one token; a lane's priming request is sent as recorded.
      if (number >= 2 || i > 0) {
        EXPECT_EQ(max_tokens_of(reqs[i]->body), 1) << id << " turn " << i;
      } else {
        EXPECT_NE(max_tokens_of(reqs[i]->body), 1) << id;
      }
    }
  }
  ASSERT_EQ(priming_turn.size(), 2u);
  std::map<int, int> last_warm_turn;
  for (const auto& [lane, k] : priming_turn)
    last_warm_turn[lane] = warm["w" + std::string(9, '0') + std::to_string(lane)].back()->turn;
  // Sends stop when the duration ends (burst: no spread), then every reply drains before profiling.
  EXPECT_GE(last_warm_ms, 1000);
  EXPECT_LE(last_warm_ms, 1500 + 300);
  ASSERT_FALSE(prof.empty());
  for (const auto& [id, reqs] : prof) {
    EXPECT_GE(reqs.front()->at_ms, last_warm_ms + kTtftMs - 5) << id;
    for (const Req* q : reqs) EXPECT_NE(max_tokens_of(q->body), 1) << id;
  }
  // Profiling hands each lane over where its warm-up stopped: after its last warm-up turn (a
  // lane that played its trajectory to the end in the warm-up has nothing left).
  for (const auto& [lane, last] : last_warm_turn) {
    const auto it = prof.find("s" + std::string(9, '0') + std::to_string(lane));
    if (last == 5) {
      EXPECT_TRUE(it == prof.end()) << lane;
    } else {
      ASSERT_TRUE(it != prof.end()) << lane;
      EXPECT_EQ(it->second.front()->turn, last + 1) << lane;
    }
  }
}

TEST(AgenticReplay, CacheWarmupHandsEachLaneOverWhereItStopped) {
  // A short pressure phase: each lane gets through a turn or two past its priming turn, and its
  // profiling continuation resumes right after the last one that completed.
  const std::string dir = make_temp_dir("agentx-handoff");
  auto run = replay(dir, {"--concurrency", "3", "--benchmark-duration", "1", "--benchmark-grace-period", "5",
                          "--agentic-cache-warmup-duration", "0.1", "--burst-phase-starts",
                          "--trajectory-start-min-ratio", "0.2", "--trajectory-start-max-ratio", "0.3",
                          "--random-seed", "3"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  std::map<std::string, std::vector<const Req*>> warm, prof;
  for (const auto& q : run.reqs) {
    if (!q.child) (q.session[0] == 'w' ? warm : prof)[q.session].push_back(&q);
  }
  int handed_over = 0;
  for (int lane = 0; lane < 3; ++lane) {
    const std::string id = std::string(9, '0') + std::to_string(lane);
    ASSERT_TRUE(warm.count("w" + id)) << lane;
    const auto& w = warm["w" + id];
    EXPECT_GE(w.size(), 2u) << "lane " << lane << " did not go on past its priming turn";
    if (w.back()->turn == 5) continue;
    ASSERT_TRUE(prof.count("s" + id)) << lane;
    const auto& p = prof["s" + id];
    EXPECT_EQ(p.front()->turn, w.back()->turn + 1) << lane;
    EXPECT_EQ(p.front()->trace, w.back()->trace) << lane;
    EXPECT_EQ(marker_of(p.front()->body), marker_of(w.front()->body)) << lane;
    ++handed_over;
  }
  EXPECT_GE(handed_over, 1) << "every lane finished its trajectory in the warm-up: the test proves nothing";
}

TEST(AgenticReplay, CacheWarmupNeedsTheScenario) {
  const std::string dir = make_temp_dir("agentx-pressure-alone");
  auto r = run_profile(dir, {"-m", "m", "-u", "http://127.0.0.1:9", "--input-file", SB_AGENTX_DIR,
                             "--agentic-cache-warmup-duration", "5"}, 10);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--agentic-cache-warmup-duration applies only to agentic replay"), std::string::npos)
      << r.stderr_text;
}

}  // namespace
}  // namespace servebench::itest
