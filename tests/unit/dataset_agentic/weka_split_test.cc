// weka_trace agent chains end to end in the loader: flat top-level requests split into "::fa:"
// children under their own branches, the preamble rule, worker names (weka_workers.h) and the
// off switch (SERVEBENCH_WEKA_SPLIT_AGENTS / AIPERF_DATASET_WEKA_SPLIT_FLATTENED_AGENTS).
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/env.h"
#include "dataset/loaders/weka_trace.h"
#include "dataset/loaders/weka_workers.h"

namespace servebench::dataset {
namespace {

// #0, #2, #4 are one agent (each extends the previous after it ended); #1 starts while #0 runs
// and #3 extends #1: a second agent, in flight beside root turn 1, done (0.8 s) before #4.
const char* kFlat = R"({"id":"f","models":["big"],"block_size":64,"hash_id_scope":"local","requests":[
 {"t":0.0,"type":"n","model":"big","in":128,"out":100,"hash_ids":[1,2],"api_time":0.5},
 {"t":0.1,"type":"n","model":"big","in":192,"out":100,"hash_ids":[1,2,3],"api_time":0.3},
 {"t":0.5,"type":"n","model":"big","in":256,"out":100,"hash_ids":[1,2,4,5],"api_time":0.1},
 {"t":0.6,"type":"n","model":"big","in":320,"out":100,"hash_ids":[1,2,3,6,7],"api_time":0.2},
 {"t":1.0,"type":"n","model":"big","in":384,"out":100,"hash_ids":[1,2,4,5,8,9],"api_time":0.1}]})";

std::vector<int64_t> lengths(const FileConversation& c) {
  std::vector<int64_t> out;
  for (const auto& t : c.turns) out.push_back(t.input_length);
  return out;
}

TEST(WekaSplit, FlatRequestsOfAnotherAgentBecomeAJoinedChild) {
  auto f = parsers::parse_weka_trace(kFlat, "f.json", true);
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->conversations.size(), 2u);
  const FileConversation& root = f->conversations[0];
  const FileConversation& w = f->conversations[1];
  EXPECT_EQ(root.session_id, "f");
  EXPECT_EQ(w.session_id, "f::fa:000");
  EXPECT_EQ(lengths(root), (std::vector<int64_t>{128, 256, 384}));
  EXPECT_EQ(lengths(w), (std::vector<int64_t>{192, 320}));
  EXPECT_DOUBLE_EQ(root.turns[1].delay_ms, 500);  // start to start on the root's own chain
  EXPECT_DOUBLE_EQ(root.turns[2].timestamp_ms, 1000);
  EXPECT_DOUBLE_EQ(w.turns[1].delay_ms, 500);
  EXPECT_LT(w.turns[0].timestamp_ms, 0);  // a child goes after its anchor, not at a time
  ASSERT_EQ(root.branches.size(), 1u);
  const FileBranch& b = root.branches[0];
  EXPECT_EQ(b.after_turn, 0);
  EXPECT_EQ(b.join_turn, 2);  // root turn 1 (t 0.5) starts before the child ended (0.8)
  EXPECT_FALSE(b.fork);
  EXPECT_EQ(b.children, (std::vector<std::string>{"f::fa:000"}));
  EXPECT_EQ(b.child_delay_ms, (std::vector<double>{0}));
  // The prefix-cache walk is unchanged by the split: #1 finds blocks 1, 2 produced by #0.
  EXPECT_EQ(w.turns[0].prefix_hit_blocks, 2);
  EXPECT_EQ(w.turns[0].prefix_total_blocks, 3);
}

TEST(WekaSplit, TheOffSwitchKeepsOneConversationInFileOrder) {
  auto f = parsers::parse_weka_trace(kFlat, "f.json", false);
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->conversations.size(), 1u);
  EXPECT_EQ(lengths(f->conversations[0]), (std::vector<int64_t>{128, 192, 256, 320, 384}));
  EXPECT_TRUE(f->conversations[0].branches.empty());
}

TEST(WekaSplit, ASmallLeadingCallWithOwnBlocksStaysOnTheRootAsAPreamble) {
  const std::string head = R"({"id":"p","models":["big"],"block_size":64,"hash_id_scope":"local","requests":[
    {"t":0.0,"type":"n","model":"big","in":64,"out":)";
  const std::string tail = R"(,"hash_ids":[99],"api_time":0.05},
    {"t":0.1,"type":"n","model":"big","in":128,"out":10,"hash_ids":[1,2],"api_time":0.1},
    {"t":0.3,"type":"n","model":"big","in":192,"out":10,"hash_ids":[1,2,3,99],"api_time":0.1}]})";
  auto small = parsers::parse_weka_trace(head + "20" + tail, "p.json", true);
  ASSERT_TRUE(small) << small.error().message;
  ASSERT_EQ(small->conversations.size(), 1u);
  EXPECT_EQ(lengths(small->conversations[0]), (std::vector<int64_t>{64, 128, 192}));
  // out 500 and block 99 used again: not a preamble, so it founds the root and the session
  // that follows is another agent.
  auto large = parsers::parse_weka_trace(head + "500" + tail, "p.json", true);
  ASSERT_TRUE(large) << large.error().message;
  ASSERT_EQ(large->conversations.size(), 2u);
  EXPECT_EQ(lengths(large->conversations[0]), (std::vector<int64_t>{64}));
  EXPECT_EQ(large->conversations[1].session_id, "p::fa:000");
  EXPECT_EQ(lengths(large->conversations[1]), (std::vector<int64_t>{128, 192}));
}

TEST(WekaSplit, TheSwitchIsReadFromTheEnvironmentServebenchNameFirst) {
  const char* sb = "SERVEBENCH_WEKA_SPLIT_AGENTS";
  const char* ai = "AIPERF_DATASET_WEKA_SPLIT_FLATTENED_AGENTS";
  ::unsetenv(sb);
  ::unsetenv(ai);
  core::reload_env_for_test();
  EXPECT_EQ(weka_split_agents_from_env().value(), true);
  ::setenv(ai, "False", 1);
  core::reload_env_for_test();
  EXPECT_EQ(weka_split_agents_from_env().value(), false);
  auto f = parsers::parse_weka_trace(kFlat, "f.json");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->conversations.size(), 1u);
  ::setenv(sb, "1", 1);
  core::reload_env_for_test();
  EXPECT_EQ(weka_split_agents_from_env().value(), true);
  ::setenv(sb, "maybe", 1);
  core::reload_env_for_test();
  auto bad = weka_split_agents_from_env();
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("SERVEBENCH_WEKA_SPLIT_AGENTS='maybe'"), std::string::npos);
  ::unsetenv(sb);
  ::unsetenv(ai);
  core::reload_env_for_test();
}

TEST(WekaSplit, SubagentWorkersAreNamedInTheSubagentsBranch) {
  // a1's main chain is 70,71 on "small"; 80 is a one-shot on "big" (another model: aux); 70,90
  // forks 70,71 while it runs, reading 1600 tokens to write 20 (a reduction).
  const char* text = R"({"id":"n","models":["big"],"block_size":64,"hash_id_scope":"local","requests":[
    {"t":0.0,"type":"n","model":"big","in":4000,"out":100,"hash_ids":[1,2],"api_time":0.1},
    {"t":0.2,"type":"subagent","agent_id":"a1","models":["small"],"duration_ms":1500,"requests":[
      {"t":0.2,"type":"n","model":"small","in":2000,"out":50,"hash_ids":[70,71],"api_time":1.0},
      {"t":0.3,"type":"n","model":"big","in":2000,"out":500,"hash_ids":[80],"api_time":0.1},
      {"t":0.4,"type":"n","model":"small","in":1600,"out":20,"hash_ids":[70,90],"api_time":0.1}]},
    {"t":2.0,"type":"n","model":"big","in":4100,"out":100,"hash_ids":[1,2,3],"api_time":0.1}]})";
  auto f = parsers::parse_weka_trace(text, "n.json", true);
  ASSERT_TRUE(f) << f.error().message;
  std::vector<std::string> ids;
  for (const auto& c : f->conversations) ids.push_back(c.session_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"n", "n::sa:a1", "n::sa:a1:aux:000", "n::sa:a1:aux:red:001"}));
  ASSERT_EQ(f->conversations[0].branches.size(), 1u);
  const FileBranch& b = f->conversations[0].branches[0];
  EXPECT_EQ(b.children, (std::vector<std::string>(ids.begin() + 1, ids.end())));
  EXPECT_EQ(b.after_turn, 0);
  EXPECT_EQ(b.join_turn, 1);
  ASSERT_EQ(b.child_delay_ms.size(), 3u);
  EXPECT_NEAR(b.child_delay_ms[2], 200, 1e-6);  // 0.4 s after the marker's 0.2 s
}

// ---- worker names ----

struct Call {
  double t, end;
  std::vector<int64_t> ids;
  int32_t model;
  int64_t in, out;
};

std::vector<std::string> names(const std::vector<Call>& in, const AgentChains& chains, WorkerCounters* counters) {
  std::vector<ChainCall> calls;
  for (const auto& c : in) calls.push_back({c.t, c.end, &c.ids, c.model, c.in, c.out});
  return worker_suffixes(calls, chains, counters);
}

using S = std::vector<std::string>;

TEST(WekaWorkers, OneShotSideCallsAreAuxAndReductionsAuxRed) {
  // Main peak in 4000 on model 0. Workers: another model; in 900 (< 4000 / 4); in 3200 with
  // out 100 (a reduction); in 3200 with out 1000 (an agent); two calls (an agent).
  const std::vector<Call> calls = {{0, 9, {1, 2}, 0, 4000, 100}, {1, 2, {1}, 1, 3000, 900},
                                   {1, 2, {1}, 0, 900, 10},       {1, 2, {1}, 0, 3200, 100},
                                   {1, 2, {7}, 0, 3200, 1000},    {1, 2, {8}, 0, 100, 10},
                                   {3, 4, {8, 9}, 0, 200, 10}};
  const AgentChains chains{{0, 1, 2, 3, 4, 5, 5}, {-1, 0, 0, 0, -1, -1}, -1};
  WorkerCounters counters;
  EXPECT_EQ(names(calls, chains, &counters), (S{"", "aux:000", "aux:001", "aux:red:002", "fa:003", "fa:004"}));
  EXPECT_EQ(counters.workers, 5);
}

TEST(WekaWorkers, OverlappingAgentsFromSharedContextAreAFanOutGroup) {
  // Chains 1 and 2 (two calls each, from shared context starting with block 1) overlap: group
  // 0; chain 3 starts after both ended: a solo agent; chain 4 shares no context: a solo agent.
  const std::vector<Call> calls = {{0, 20, {1}, 0, 100, 10},        {1, 2, {1, 2}, 0, 100, 10},
                                   {2, 3, {1, 2, 3}, 0, 100, 10},   {1.5, 2, {1, 5}, 0, 100, 10},
                                   {2.5, 4, {1, 5, 6}, 0, 100, 10}, {5, 6, {1, 9}, 0, 100, 10},
                                   {6, 7, {1, 9, 9}, 0, 100, 10},   {1, 2, {40}, 0, 100, 10},
                                   {2, 3, {40, 41}, 0, 100, 10}};
  const AgentChains chains{{0, 1, 1, 2, 2, 3, 3, 4, 4}, {-1, 0, 0, 0, -1}, -1};
  WorkerCounters counters{4, 2};  // numbers go on from an earlier sub-agent of the trace
  EXPECT_EQ(names(calls, chains, &counters), (S{"", "wg:002_000", "wg:002_001", "fa:006", "fa:007"}));
  EXPECT_EQ(counters.groups, 3);
}

}  // namespace
}  // namespace servebench::dataset
