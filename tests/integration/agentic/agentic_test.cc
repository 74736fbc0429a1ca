// Agent traces end to end: servebench profile against servebench-mock, whose --record-requests
// file shows what arrived (prompt tokens counted with the same builtin tokenizer, roles, model,
// X-Correlation-ID: a child's id is its parent's plus "-c<k>", arrival time). The mock holds
// every reply for its --ttft-ms, so two requests that arrive less than that apart were in
// flight together, and a request that arrives after another's arrival + ttft was sent after
// that one's reply began.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

constexpr int64_t kTtftMs = 150;

MockRun run_with_mock(const std::string& dir, std::vector<std::string> args,
                      std::vector<std::string> mock_args = {}) {
  std::vector<std::string> margs = {"--tokenizer", "builtin", "--ttft-ms", std::to_string(kTtftMs)};
  margs.insert(margs.end(), mock_args.begin(), mock_args.end());
  return run_with_recording_mock(dir, margs, {"-m", "m-big", "-m", "m-small", "--tokenizer", "builtin"},
                                 args, 60);
}

int64_t at_ms(const Json& q, const Json& first) {
  return (q.at("received_steady_ns").get<int64_t>() - first.at("received_steady_ns").get<int64_t>()) / 1'000'000;
}

std::string corr(const Json& q) { return q.at("x_correlation_id").get<std::string>(); }
bool is_child(const Json& q, int k) { return corr(q).ends_with("-c" + std::to_string(k)); }

// ---- weka_trace: examples/agentic/weka_trace.json ----
// Parent: in 256, 384, [sub-agents a1 (192, 256) and a2 (128) after turn 1], 512 at t 0.4 s.

TEST(Agentic, WekaTraceReplaysRowsExactlyWithSubagentsJoinedBeforeTheNextTurn) {
  const std::string dir = make_temp_dir("weka");
  auto run = run_with_mock(dir, {"--input-file", std::string(SB_EXAMPLES_DIR) + "/weka_trace.json",
                                 "--custom-dataset-type", "weka_trace", "--streaming"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 6u);
  std::vector<int64_t> parent_isl, c0_isl, c1_isl;
  std::vector<const Json*> parent, c0, c1;
  for (const auto& q : run.server) {
    const auto isl = q.at("prompt_tokens").get<int64_t>();
    if (is_child(q, 0)) {
      c0_isl.push_back(isl);
      c0.push_back(&q);
    } else if (is_child(q, 1)) {
      c1_isl.push_back(isl);
      c1.push_back(&q);
    } else {
      parent_isl.push_back(isl);
      parent.push_back(&q);
      EXPECT_EQ(q.at("model"), "m-big");  // the main model maps to the first --model
    }
  }
  // Per-row ISL exact, in the trace's order.
  EXPECT_EQ(parent_isl, (std::vector<int64_t>{256, 384, 512}));
  EXPECT_EQ(c0_isl, (std::vector<int64_t>{192, 256}));
  EXPECT_EQ(c1_isl, (std::vector<int64_t>{128}));
  ASSERT_EQ(c0.size(), 2u);
  ASSERT_EQ(c1.size(), 1u);
  ASSERT_EQ(parent.size(), 3u);
  EXPECT_EQ(c0[0]->at("model"), "m-small");
  const Json& first = run.server.front();
  // Children start after the anchor (parent turn 1) replied, and are in flight together.
  EXPECT_GE(at_ms(*c0[0], first), at_ms(*parent[1], first) + kTtftMs);
  EXPECT_GE(at_ms(*c1[0], first), at_ms(*parent[1], first) + kTtftMs);
  EXPECT_LT(std::abs(at_ms(*c0[0], first) - at_ms(*c1[0], first)), kTtftMs);
  // The joined parent turn goes after every child's last reply.
  EXPECT_GE(at_ms(*parent[2], first), at_ms(*c0[1], first) + kTtftMs);
  EXPECT_GE(at_ms(*parent[2], first), at_ms(*c1[0], first) + kTtftMs);
  // Timestamps: turn 1 no earlier than its recorded 100 ms.
  EXPECT_GE(at_ms(*parent[1], first), 99);
}

// Requests whose hash_ids share leading blocks share that prompt prefix (the KV-cache reuse the
// trace recorded): turn 1 (blocks 1-6) extends turn 0 (blocks 1-4), so it re-sends turn 0's user
// message (blocks 1-4), then the recorded reply as an assistant message (block 5), then block 6;
// a1's blocks differ.
TEST(Agentic, WekaSharedHashIdsShareThePromptPrefix) {
  const std::string dir = make_temp_dir("wekaprefix");
  auto run = run_with_mock(dir, {"--input-file", std::string(SB_EXAMPLES_DIR) + "/weka_trace.json",
                                 "--custom-dataset-type", "weka_trace"},
                           {"--record-bodies"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  std::vector<Json> parent, child;
  for (const auto& q : run.server)
    (corr(q).find("-c") == std::string::npos ? parent : child).push_back(Json::parse(q.at("body").get<std::string>()));
  ASSERT_EQ(parent.size(), 3u);
  ASSERT_FALSE(child.empty());
  const auto text = [](const Json& body, size_t i) { return body.at("messages").at(i).at("content").get<std::string>(); };
  ASSERT_EQ(parent[1].at("messages").size(), 3u);
  EXPECT_EQ(text(parent[1], 0), text(parent[0], 0));
  EXPECT_EQ(parent[1].at("messages").at(1).at("role"), "assistant");
  EXPECT_EQ(text(parent[2], 0), text(parent[1], 0));
  EXPECT_EQ(text(parent[2], 1), text(parent[1], 1));
  EXPECT_NE(text(child[0], 0).substr(0, 40), text(parent[0], 0).substr(0, 40));
}

// The message plan of dataset/lcp_messages.h on the wire (block size 16): tool + system tokens
// (30) become a 2-block system message; turn 1 extends turn 0 (reply of 16 tokens = 1 block);
// turn 2 shares 3 blocks with turn 1, so turn 1's user message is cut after block 3 and the
// reply (40 tokens, capped at the 2 new blocks) and a 10-token tail follow. Each message and
// each request is exactly as long as the plan says.
TEST(Agentic, WekaTurnsAreMessagesCutAtTheHashLcp) {
  const std::string dir = make_temp_dir("wekalcp");
  const std::string trace = dir + "/lcp.json";
  std::ofstream(trace) << R"({"id":"lcp","models":["big"],"block_size":16,"hash_id_scope":"local",
    "tool_tokens":10,"system_tokens":20,"requests":[
    {"t":0.0,"type":"n","model":"big","in":70,"out":16,"hash_ids":[1,2,3,4],"api_time":0.01},
    {"t":0.05,"type":"n","model":"big","in":100,"out":40,"hash_ids":[1,2,3,4,5,6],"api_time":0.01},
    {"t":0.1,"type":"n","model":"big","in":90,"out":8,"hash_ids":[1,2,3,7,8],"api_time":0.01}]})";
  auto run = run_with_mock(dir, {"--input-file", trace, "--custom-dataset-type", "weka_trace"}, {"--record-bodies"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 3u);
  using Roles = std::vector<std::string>;
  using Counts = std::vector<int64_t>;
  const std::vector<Roles> roles = {{"system", "user"},
                                    {"system", "user", "assistant", "user"},
                                    {"system", "user", "assistant", "user"}};
  const std::vector<Counts> counts = {{32, 38}, {32, 32, 16, 20}, {32, 16, 32, 10}};
  const Counts isl = {70, 100, 90};
  std::vector<Json> body;
  for (size_t i = 0; i < 3; ++i) {
    const Json& q = run.server[i];
    EXPECT_EQ(q.at("roles").get<Roles>(), roles[i]) << i;
    EXPECT_EQ(q.at("message_prompt_tokens").get<Counts>(), counts[i]) << i;
    EXPECT_EQ(q.at("prompt_tokens").get<int64_t>(), isl[i]) << i;
    body.push_back(Json::parse(q.at("body").get<std::string>()));
  }
  const auto text = [&](size_t turn, size_t i) { return body[turn].at("messages").at(i).at("content").get<std::string>(); };
  EXPECT_EQ(text(1, 0), text(0, 0));            // the system message never changes
  EXPECT_EQ(text(2, 0), text(0, 0));
  EXPECT_TRUE(text(0, 1).starts_with(text(1, 1)));  // turn 0's user message less its tail
  EXPECT_TRUE(text(1, 1).starts_with(text(2, 1)));  // cut after block 3
  EXPECT_NE(text(1, 2), text(2, 2));            // a different reply (blocks 5 vs 7, 8)
  // The servebench records carry the same input lengths.
  const auto records = run.r.records();
  ASSERT_EQ(records.size(), 3u);
  Counts sent;
  for (const auto& rec : records) sent.push_back(rec.at("metrics").at("input_sequence_length").at("value").get<int64_t>());
  std::sort(sent.begin(), sent.end());
  EXPECT_EQ(sent, (Counts{70, 90, 100}));
}

// A sub-agent whose recorded calls overlap in time (parallel workers flattened into one list) is
// split into agent chains (weka_chains.h): X alone on the main chain, Y (started before X ended)
// and Z (extends Y) on a worker chain "::sa:a1:fa:000"; both run together after the anchor and
// the parent's next turn waits for both.
TEST(Agentic, WekaOverlappingSubagentCallsRunAsSiblingChains) {
  const std::string dir = make_temp_dir("wekafa");
  const std::string trace = dir + "/fa.json";
  std::ofstream(trace) << R"({"id":"fa","models":["big"],"block_size":64,"hash_id_scope":"local","requests":[
    {"t":0.0,"type":"n","model":"big","in":128,"out":4,"hash_ids":[1,2],"api_time":0.05},
    {"t":0.1,"type":"subagent","agent_id":"a1","models":["small"],"duration_ms":700,"requests":[
      {"t":0.1,"type":"n","model":"small","in":128,"out":4,"hash_ids":[70,71],"api_time":0.3},
      {"t":0.15,"type":"n","model":"small","in":192,"out":4,"hash_ids":[70,71,72],"api_time":0.3},
      {"t":0.5,"type":"n","model":"small","in":256,"out":4,"hash_ids":[70,71,72,73],"api_time":0.1}]},
    {"t":1.0,"type":"n","model":"big","in":192,"out":4,"hash_ids":[1,2,3],"api_time":0.05}]})";
  auto run = run_with_mock(dir, {"--input-file", trace, "--custom-dataset-type", "weka_trace"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 5u);
  std::vector<const Json*> parent, c0, c1;
  for (const auto& q : run.server) (is_child(q, 0) ? c0 : is_child(q, 1) ? c1 : parent).push_back(&q);
  ASSERT_EQ(parent.size(), 2u);
  ASSERT_EQ(c0.size(), 1u);
  ASSERT_EQ(c1.size(), 2u);
  EXPECT_EQ(c0[0]->at("prompt_tokens").get<int64_t>(), 128);
  EXPECT_EQ(c1[0]->at("prompt_tokens").get<int64_t>(), 192);
  EXPECT_EQ(c1[1]->at("prompt_tokens").get<int64_t>(), 256);
  const Json& first = run.server.front();
  EXPECT_LT(std::abs(at_ms(*c0[0], first) - at_ms(*c1[0], first)), kTtftMs);  // in flight together
  EXPECT_GE(at_ms(*c1[1], first), at_ms(*c1[0], first) + kTtftMs);             // Z after Y's reply
  EXPECT_GE(at_ms(*parent[1], first), at_ms(*c1[1], first) + kTtftMs);         // the join
  EXPECT_GE(at_ms(*parent[1], first), at_ms(*c0[0], first) + kTtftMs);
}

// A server that never answers: every request times out and is recorded as failed; children
// still start, their failures release the join, and the run ends (no hang).
TEST(Agentic, FailingChildrenAreRecordedAndReleaseTheJoin) {
  const std::string dir = make_temp_dir("wekafail");
  auto run = run_with_mock(dir,
                           {"--input-file", std::string(SB_EXAMPLES_DIR) + "/weka_trace.json", "--custom-dataset-type",
                            "weka_trace", "--request-timeout-seconds", "0.3"},
                           {"--error-rate", "100", "--error-kind", "stall", "--stall-timeout-ms", "5000"});
  EXPECT_EQ(run.r.exit_code, 3) << run.r.stderr_text;  // every request failed
  ASSERT_EQ(run.server.size(), 6u);
  int children = 0;
  for (const auto& q : run.server) children += is_child(q, 0) || is_child(q, 1);
  EXPECT_EQ(children, 3);
  // The joined parent turn arrives after the children's timeouts.
  EXPECT_EQ(corr(run.server.back()).find("-c"), std::string::npos);
  const auto records = run.r.records();
  ASSERT_EQ(records.size(), 6u);
  for (const auto& rec : records) EXPECT_TRUE(rec.contains("error")) << rec.dump();
}

TEST(Agentic, WekaMaxContextLengthDroppingEveryTraceIsAUsageError) {
  const std::string dir = make_temp_dir("wekamax");
  auto run = run_with_mock(dir, {"--input-file", std::string(SB_EXAMPLES_DIR) + "/weka_trace.json",
                                 "--custom-dataset-type", "weka_trace", "--max-context-length", "100"});
  EXPECT_EQ(run.r.exit_code, 2);
  EXPECT_NE(run.r.stderr_text.find("--max-context-length"), std::string::npos) << run.r.stderr_text;
}

// ---- weka_trace flat agents: examples/agentic/weka_flat_agents.json ----
// Flat requests 128 (t 0), 256 (0.2), 384 (0.8) are one agent; 192 (0.1, before 128's call
// ended) and 320 (0.6, extends it) another: the child "flat::fa:000", spawned after turn 0 and
// joined before 384 (it ended at 0.8 s as recorded).

std::vector<const Json*> of(const MockRun& run, bool child) {
  std::vector<const Json*> out;
  for (const auto& q : run.server)
    if (is_child(q, 0) == child) out.push_back(&q);
  return out;
}

TEST(Agentic, WekaFlatRequestsOfAnotherAgentRunAsAJoinedChild) {
  const std::string dir = make_temp_dir("wekaflat");
  auto run = run_with_mock(dir, {"--input-file", std::string(SB_EXAMPLES_DIR) + "/weka_flat_agents.json",
                                 "--custom-dataset-type", "weka_trace"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 5u);
  const auto root = of(run, false), child = of(run, true);
  ASSERT_EQ(root.size(), 3u);
  ASSERT_EQ(child.size(), 2u);
  std::vector<int64_t> root_isl, child_isl;
  for (const Json* q : root) root_isl.push_back(q->at("prompt_tokens").get<int64_t>());
  for (const Json* q : child) child_isl.push_back(q->at("prompt_tokens").get<int64_t>());
  EXPECT_EQ(root_isl, (std::vector<int64_t>{128, 256, 384}));
  EXPECT_EQ(child_isl, (std::vector<int64_t>{192, 320}));
  // Each agent's turns extend its own previous turn: the child's second call re-sends its first;
  // 384 re-sends 256's three messages (not the child's 320, the request just before it).
  EXPECT_EQ(child[0]->at("roles"), Json::parse(R"(["user"])"));
  EXPECT_EQ(child[1]->at("roles"), Json::parse(R"(["user","assistant","user"])"));
  EXPECT_EQ(root[2]->at("roles"), Json::parse(R"(["user","assistant","user","assistant","user"])"));
  const Json& first = run.server.front();
  EXPECT_GE(at_ms(*child[0], first), at_ms(*root[0], first) + kTtftMs);            // after the anchor
  EXPECT_LT(std::abs(at_ms(*child[0], first) - at_ms(*root[1], first)), kTtftMs);  // beside root turn 1
  EXPECT_GE(at_ms(*root[1], first), 190);                                          // recorded 200 ms
  // The child's second call goes its recorded 500 ms (start to start) after its first replied,
  // so it ends after 384's recorded time: the join holds 384 until the child's reply.
  EXPECT_GE(at_ms(*child[1], first), at_ms(*child[0], first) + kTtftMs + 490);
  EXPECT_GE(at_ms(*root[2], first), at_ms(*child[1], first) + kTtftMs);
}

// The off switch keeps every flat request on the root, in file order, one after another.
TEST(Agentic, WekaFlatSplitOffKeepsOneConversation) {
  const std::string dir = make_temp_dir("wekaflatoff");
  ::setenv("AIPERF_DATASET_WEKA_SPLIT_FLATTENED_AGENTS", "false", 1);
  auto run = run_with_mock(dir, {"--input-file", std::string(SB_EXAMPLES_DIR) + "/weka_flat_agents.json",
                                 "--custom-dataset-type", "weka_trace"});
  ::unsetenv("AIPERF_DATASET_WEKA_SPLIT_FLATTENED_AGENTS");
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 5u);
  std::vector<int64_t> isl;
  for (size_t k = 0; k < run.server.size(); ++k) {
    const Json& q = run.server[k];
    EXPECT_EQ(corr(q).find("-c"), std::string::npos) << corr(q);
    isl.push_back(q.at("prompt_tokens").get<int64_t>());
    if (k > 0) {
      EXPECT_GE(at_ms(q, run.server[k - 1]), kTtftMs) << k;
    }
  }
  EXPECT_EQ(isl, (std::vector<int64_t>{128, 192, 256, 320, 384}));
  const auto env = run.r.summary().at("input_config").at("environment");
  EXPECT_EQ(env.at("AIPERF_DATASET_WEKA_SPLIT_FLATTENED_AGENTS"), "false");
}

// ---- dag_jsonl: examples/agentic/dag.jsonl ----
// lead.0 spawns w1, w2 (joined at lead.1); w2 has 2 turns; lead.1 forks audit (lead's history).

TEST(Agentic, DagSpawnsRunTogetherJoinBeforeTheNextTurnAndForksCarryHistory) {
  const std::string dir = make_temp_dir("dag");
  auto run = run_with_mock(dir, {"--input-file", std::string(SB_EXAMPLES_DIR) + "/dag.jsonl", "--num-sessions",
                                 "1", "--streaming"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 6u);
  std::map<std::string, std::vector<const Json*>> by;
  for (const auto& q : run.server) by[corr(q).substr(corr(q).rfind('-') + 1)].push_back(&q);
  // Root ids end in the session number, children in c0 (w1), c1 (w2), c2 (audit).
  ASSERT_EQ(by["c0"].size(), 1u);
  ASSERT_EQ(by["c1"].size(), 2u);
  ASSERT_EQ(by["c2"].size(), 1u);
  std::vector<const Json*> lead;
  for (const auto& q : run.server)
    if (!corr(q).ends_with("-c0") && !corr(q).ends_with("-c1") && !corr(q).ends_with("-c2")) lead.push_back(&q);
  ASSERT_EQ(lead.size(), 2u);
  const Json& first = run.server.front();
  EXPECT_EQ(lead[0]->at("roles"), Json::parse(R"(["system","user"])"));
  EXPECT_LT(std::abs(at_ms(*by["c0"][0], first) - at_ms(*by["c1"][0], first)), kTtftMs);
  EXPECT_GE(at_ms(*by["c0"][0], first), at_ms(*lead[0], first) + kTtftMs);
  EXPECT_GE(at_ms(*lead[1], first), at_ms(*by["c1"][1], first) + kTtftMs);
  EXPECT_GE(at_ms(*lead[1], first), at_ms(*by["c0"][0], first) + kTtftMs);
  // SPAWN children start empty; w2's second turn carries its own first exchange.
  EXPECT_EQ(by["c0"][0]->at("roles"), Json::parse(R"(["user"])"));
  EXPECT_EQ(by["c1"][1]->at("roles"), Json::parse(R"(["user","assistant","user"])"));
  // FORK child: lead's 3 messages + 2 replies, then its own, after lead.1 replied.
  EXPECT_EQ(by["c2"][0]->at("roles"), Json::parse(R"(["system","user","assistant","user","assistant","user"])"));
  EXPECT_GE(at_ms(*by["c2"][0], first), at_ms(*lead[1], first) + kTtftMs);
}

TEST(Agentic, DagUnknownChildIsAUsageError) {
  const std::string dir = make_temp_dir("dagbad");
  {
    std::ofstream f(dir + "/bad.jsonl");
    f << R"({"session_id":"a","turns":[{"messages":[{"role":"user","content":"x"}],"spawns":["ghost"]},)"
      << R"({"messages":[{"role":"user","content":"y"}]}]})" << "\n";
  }
  auto run = run_with_mock(dir, {"--input-file", dir + "/bad.jsonl", "--custom-dataset-type", "dag_jsonl"});
  EXPECT_EQ(run.r.exit_code, 2);
  EXPECT_NE(run.r.stderr_text.find("ghost"), std::string::npos) << run.r.stderr_text;
}

// ---- sagemaker_data_capture: examples/agentic/sagemaker_capture.jsonl ----

TEST(Agentic, SageMakerCaptureSendsEachCapturedBodyAtItsTime) {
  const std::string dir = make_temp_dir("sm");
  auto run = run_with_mock(dir, {"--input-file", std::string(SB_EXAMPLES_DIR) + "/sagemaker_capture.jsonl"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 2u);
  EXPECT_EQ(run.server[0].at("max_tokens"), 5);
  EXPECT_EQ(run.server[1].at("max_tokens"), 6);  // the base64 capture
  // inferenceTime is 250 ms later; the first send may itself start a few ms late on a busy machine,
  // so the gap gets 10 ms of slack below and must stay well short of a second gap above.
  const int64_t gap = at_ms(run.server[1], run.server[0]);
  EXPECT_GE(gap, 240);
  EXPECT_LT(gap, 400);
  for (const auto& q : run.server) EXPECT_EQ(q.at("roles"), Json::parse(R"(["user"])"));
}

}  // namespace
}  // namespace servebench::itest
