#include <gtest/gtest.h>

#include <set>

#include "load/agentic_lanes.h"
#include "load/idle_gap_cap.h"

namespace servebench::load {
namespace {

constexpr int64_t kS = 1'000'000'000;

// A trace of turns recorded at the given starts (seconds).
SessionTemplate trace(const std::string& id, std::vector<int64_t> starts_s) {
  SessionTemplate c;
  c.conversation_id = id;
  c.carry_history = false;
  for (size_t i = 0; i < starts_s.size(); ++i) {
    SessionTurn t;
    t.text = id + "-turn" + std::to_string(i);
    t.recorded_ns = starts_s[i] * kS;
    t.delay_ns = i == 0 ? -1 : 2 * kS;
    c.turns.push_back(t);
  }
  return c;
}

SessionWorkload pool(size_t traces, size_t turns) {
  SessionWorkload w;
  for (size_t k = 0; k < traces; ++k) {
    std::vector<int64_t> starts;
    for (size_t i = 0; i < turns; ++i) starts.push_back(static_cast<int64_t>(i * 10));
    w.conversations.push_back(trace("t" + std::to_string(k), starts));
    w.order.push_back(static_cast<uint32_t>(k));
  }
  return w;
}

TEST(AgenticLanes, StartTurnsFallWithinTheRatiosOfTheRecordedDuration) {
  SessionWorkload w = pool(40, 21);  // starts 0, 10, ..., 200 s
  LaneOptions o;
  o.lanes = 40;
  o.min_ratio = 0.25;
  o.max_ratio = 0.5;
  o.seed = 7;
  auto lanes = plan_lanes(w, o);
  ASSERT_TRUE(lanes) << lanes.error().message;
  ASSERT_EQ(lanes->size(), 40u);
  std::set<int32_t> seen;
  for (size_t i = 0; i < lanes->size(); ++i) {
    const Lane& l = (*lanes)[i];
    EXPECT_EQ(l.trace, i);
    EXPECT_GE(l.t_star_ns, 50 * kS);
    EXPECT_LE(l.t_star_ns, 100 * kS);
    // k is the turn in progress at t*: T_k <= t* < T_{k+1}.
    EXPECT_LE(l.start_turn * 10 * kS, l.t_star_ns);
    EXPECT_GT((l.start_turn + 1) * 10 * kS, l.t_star_ns);
    seen.insert(l.start_turn);
  }
  EXPECT_GE(seen.size(), 3u);  // the draws differ between lanes
  // Same seed, same lanes.
  auto again = plan_lanes(w, o);
  ASSERT_TRUE(again);
  for (size_t i = 0; i < lanes->size(); ++i) EXPECT_EQ((*again)[i].start_turn, (*lanes)[i].start_turn);
}

TEST(AgenticLanes, WithoutRecordedStartsTheTurnCountSetsTheRange) {
  SessionWorkload w = pool(30, 10);
  for (auto& c : w.conversations)
    for (auto& t : c.turns) t.recorded_ns = -1;
  LaneOptions o;
  o.lanes = 30;
  o.min_ratio = 0.2;
  o.max_ratio = 0.6;
  auto lanes = plan_lanes(w, o);
  ASSERT_TRUE(lanes);
  for (const Lane& l : *lanes) {
    EXPECT_GE(l.start_turn, 2);  // floor(0.2 * 10)
    EXPECT_LE(l.start_turn, 6);  // floor(0.6 * 10)
    EXPECT_EQ(l.t_star_ns, -1);
    EXPECT_EQ(l.warmup_delay_ns, 0);
    EXPECT_EQ(l.profile_delay_ns, 0);
  }
}

TEST(AgenticLanes, AtLeastOneTurnIsLeftToProfile) {
  SessionWorkload w = pool(4, 3);
  LaneOptions o;
  o.lanes = 4;
  o.min_ratio = 1.0;
  o.max_ratio = 1.0;
  auto lanes = plan_lanes(w, o);
  ASSERT_TRUE(lanes);
  for (const Lane& l : *lanes) EXPECT_EQ(l.start_turn, 1);  // n - 2
}

TEST(AgenticLanes, MoreLanesThanTracesNeedsDatasetWrap) {
  SessionWorkload w = pool(2, 5);
  LaneOptions o;
  o.lanes = 5;
  auto lanes = plan_lanes(w, o);
  ASSERT_FALSE(lanes);
  EXPECT_NE(lanes.error().message.find("--allow-dataset-wrap"), std::string::npos) << lanes.error().message;
  o.allow_wrap = true;
  lanes = plan_lanes(w, o);
  ASSERT_TRUE(lanes);
  ASSERT_EQ(lanes->size(), 5u);
  EXPECT_EQ((*lanes)[0].trace, 0u);
  EXPECT_EQ((*lanes)[1].trace, 1u);
  EXPECT_EQ((*lanes)[4].trace, 0u);
}

TEST(AgenticLanes, SpreadStartsAlignTStarAndKeepTheRecordedGap) {
  SessionWorkload w;
  w.conversations.push_back(trace("a", {0, 10, 30, 40}));
  w.conversations.push_back(trace("b", {0, 4, 8, 100}));
  w.order = {0, 1};
  LaneOptions o;
  o.lanes = 2;
  o.min_ratio = 0.5;
  o.max_ratio = 0.5;  // t* = 20 s for a, 50 s for b
  auto lanes = plan_lanes(w, o);
  ASSERT_TRUE(lanes);
  const Lane& a = (*lanes)[0];
  const Lane& b = (*lanes)[1];
  EXPECT_EQ(a.t_star_ns, 20 * kS);
  EXPECT_EQ(a.start_turn, 1);  // started at 10 s
  EXPECT_EQ(b.t_star_ns, 50 * kS);
  EXPECT_EQ(b.start_turn, 2);  // started at 8 s
  // Leads to t*: a 10 s, b 42 s. b's warm-up goes first, a's 32 s later.
  EXPECT_EQ(b.warmup_delay_ns, 0);
  EXPECT_EQ(a.warmup_delay_ns, 32 * kS);
  // First profiling turn: a at 30 s (10 s after t*), b at 100 s (50 s after).
  EXPECT_EQ(a.profile_delay_ns, 10 * kS);
  EXPECT_EQ(b.profile_delay_ns, 50 * kS);

  o.system_idle_cap_ns = 4 * kS;  // the earliest first turn comes within 4 s: shift 6 s
  lanes = plan_lanes(w, o);
  ASSERT_TRUE(lanes);
  EXPECT_EQ((*lanes)[0].profile_delay_ns, 4 * kS);
  EXPECT_EQ((*lanes)[1].profile_delay_ns, 44 * kS);

  o.burst = true;
  lanes = plan_lanes(w, o);
  ASSERT_TRUE(lanes);
  for (const Lane& l : *lanes) {
    EXPECT_EQ(l.warmup_delay_ns, 0);
    EXPECT_EQ(l.profile_delay_ns, 0);
  }
}

TEST(AgenticLanes, WarmupPlaysTurnKAndProfilingResumesAfterItThenRecycles) {
  SessionWorkload w = pool(3, 6);
  SessionBranch early, at_k, late;
  early.after_turn = 0;
  early.join_turn = 1;
  at_k.after_turn = 2;
  at_k.join_turn = 4;
  late.after_turn = 3;
  late.join_turn = 5;
  w.conversations[0].branches = {early, at_k, late};
  std::vector<Lane> lanes(2);
  lanes[0].trace = 0;
  lanes[0].start_turn = 2;
  lanes[0].warmup_delay_ns = 5;
  lanes[0].profile_delay_ns = 7;
  lanes[1].trace = 2;
  lanes[1].start_turn = 4;
  apply_lanes(&w, lanes);
  EXPECT_TRUE(w.agentic);
  ASSERT_EQ(w.warmup_lead.size(), 2u);
  ASSERT_EQ(w.profiling_lead.size(), 2u);
  const SessionTemplate& warm0 = w.conversation_of(0, true);
  ASSERT_EQ(warm0.turns.size(), 1u);
  EXPECT_EQ(warm0.turns[0].text, "t0-turn2");
  EXPECT_EQ(warm0.conversation_id, "t0");
  EXPECT_EQ(warm0.first_delay_ns, 5);
  EXPECT_TRUE(warm0.branches.empty());
  const SessionTemplate& prof0 = w.conversation_of(0, false);
  ASSERT_EQ(prof0.turns.size(), 3u);
  EXPECT_EQ(prof0.turns[0].text, "t0-turn3");
  EXPECT_EQ(prof0.turns[2].text, "t0-turn5");
  EXPECT_EQ(prof0.first_delay_ns, 7);
  EXPECT_EQ(prof0.cache_bust_key, warm0.cache_bust_key);  // one marker for the lane
  EXPECT_GE(warm0.cache_bust_key, 0);                     // (negative keys mean "none")
  // Branches: spawned before k dropped; at k start with the continuation; later renumbered.
  ASSERT_EQ(prof0.branches.size(), 2u);
  EXPECT_EQ(prof0.branches[0].after_turn, -1);
  EXPECT_EQ(prof0.branches[0].join_turn, 1);
  EXPECT_EQ(prof0.branches[1].after_turn, 0);
  EXPECT_EQ(prof0.branches[1].join_turn, 2);
  EXPECT_EQ(w.conversation_of(1, false).turns[0].text, "t2-turn5");
  EXPECT_NE(w.conversation_of(1, true).cache_bust_key, warm0.cache_bust_key);
  // Session 2 on: the whole traces, in file order, over and over.
  EXPECT_EQ(w.conversation_of(2, false).conversation_id, "t0");
  EXPECT_EQ(w.conversation_of(2, false).turns.size(), 6u);
  EXPECT_EQ(w.conversation_of(2, false).cache_bust_key, -1);
  EXPECT_EQ(w.conversation_of(3, false).conversation_id, "t1");
  EXPECT_EQ(w.conversation_of(4, false).conversation_id, "t2");
  EXPECT_EQ(w.conversation_of(5, false).conversation_id, "t0");
}

TEST(AgenticLanes, CachePressureWarmupPlaysTheLaneOnThenPressureCopiesOfEveryTrace) {
  SessionWorkload w = pool(3, 6);
  SessionBranch b;
  b.after_turn = 3;
  w.conversations[0].branches = {b};
  std::vector<Lane> lanes(2);
  lanes[0].trace = 0;
  lanes[0].start_turn = 2;
  lanes[0].warmup_delay_ns = 5;
  lanes[1].trace = 1;
  lanes[1].start_turn = 4;
  apply_lanes(&w, lanes, /*cache_pressure=*/true);
  // The lane's warm-up: its priming turn as sent normally, then the rest at once, 1 token each.
  const SessionTemplate& warm0 = w.conversation_of(0, true);
  ASSERT_EQ(warm0.turns.size(), 4u);
  EXPECT_EQ(warm0.turns[0].text, "t0-turn2");
  EXPECT_EQ(warm0.turns[0].max_output_tokens, -1);
  EXPECT_EQ(warm0.first_delay_ns, 5);
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_EQ(warm0.turns[i].text, "t0-turn" + std::to_string(i + 2));
    EXPECT_EQ(warm0.turns[i].delay_ns, 0) << i;
    EXPECT_EQ(warm0.turns[i].max_output_tokens, 1) << i;
  }
  EXPECT_TRUE(warm0.branches.empty());
  EXPECT_EQ(w.conversation_of(1, true).turns.size(), 2u);  // turns 4 and 5 of t1
  // Profiling is unchanged: the lane resumes after its priming turn, with its marker.
  const SessionTemplate& prof0 = w.conversation_of(0, false);
  EXPECT_EQ(prof0.turns[0].text, "t0-turn3");
  EXPECT_EQ(prof0.turns[0].max_output_tokens, -1);
  EXPECT_EQ(prof0.cache_bust_key, warm0.cache_bust_key);
  // Later warm-up sessions: pressure copies of the whole traces in file order (own markers),
  // while later profiling sessions still recycle the traces as recorded.
  for (uint64_t k = 2; k < 8; ++k) {
    const SessionTemplate& c = w.conversation_of(k, true);
    EXPECT_EQ(c.conversation_id, "t" + std::to_string((k - 2) % 3)) << k;
    ASSERT_EQ(c.turns.size(), 6u);
    EXPECT_EQ(c.turns[0].delay_ns, -1);
    EXPECT_EQ(c.turns[5].delay_ns, 0);
    EXPECT_EQ(c.turns[5].max_output_tokens, 1);
    EXPECT_EQ(c.cache_bust_key, -1);
    EXPECT_TRUE(c.branches.empty());
  }
  EXPECT_EQ(w.conversation_of(2, false).turns[5].delay_ns, 2 * kS);
  EXPECT_EQ(w.conversation_of(2, false).turns[5].max_output_tokens, -1);
  // Without pressure there are no pressure copies.
  SessionWorkload plain = pool(3, 6);
  apply_lanes(&plain, lanes);
  EXPECT_TRUE(plain.warmup_order.empty());
  EXPECT_EQ(plain.lane_progress, nullptr);
  ASSERT_NE(w.lane_progress, nullptr);
  EXPECT_EQ(w.lane_progress->done.size(), 2u);
  EXPECT_EQ(plain.conversation_of(0, true).turns.size(), 1u);
}

TEST(IdleGapCap, WaitingTurnsMoveUpOnlyWhenNothingIsInFlight) {
  // Idle since 100 s with a 10 s cap: a turn due at 150 s moves 40 s earlier.
  EXPECT_EQ(idle_shift_ns(10 * kS, 0, 100 * kS, 0, 150 * kS), 40 * kS);
  EXPECT_EQ(idle_shift_ns(10 * kS, 1, 100 * kS, 0, 150 * kS), 0);   // a request in flight
  EXPECT_EQ(idle_shift_ns(10 * kS, 0, 100 * kS, 0, 105 * kS), 0);   // already within the cap
  EXPECT_EQ(idle_shift_ns(10 * kS, 0, 100 * kS, 120 * kS, 150 * kS), 20 * kS);  // idle since the phase start
  EXPECT_EQ(idle_shift_ns(-1, 0, 100 * kS, 0, 150 * kS), 0);        // no cap
  IdleGapCap cap(10 * kS);
  cap.on_send();
  cap.on_send();
  cap.on_done(5);
  EXPECT_EQ(cap.idle_since_ns.load(), 0);
  cap.on_done(7);
  EXPECT_EQ(cap.idle_since_ns.load(), 7);
  EXPECT_EQ(cap.in_flight.load(), 0);
}

}  // namespace
}  // namespace servebench::load
