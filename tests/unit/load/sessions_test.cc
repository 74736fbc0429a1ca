#include "load/sessions.h"

#include <gtest/gtest.h>

#include <set>

#include "load/plan.h"
#include "load/schedule.h"

namespace servebench::load {
namespace {

constexpr int64_t kS = 1'000'000'000;

// AIPerf's documented example (15 users, 20 turns, 1 request/s): at t0 a fresh user with all
// 20 turns, then users part-way through their sessions, one per second, with these turns left.
TEST(UserCentric, VirtualHistoryMatchesAiperfExample) {
  UserCentricGenerator g(1.0, 15, 20.0, [](uint64_t) { return 20; });
  EXPECT_EQ(g.gap_ns(), 15 * kS);
  const std::vector<int32_t> turns = {20, 6, 11, 16, 2, 7, 12, 17, 3, 8, 13, 18, 4, 9, 14};
  for (size_t i = 0; i < turns.size(); ++i) {
    const UserStart u = g.next();
    EXPECT_EQ(u.offset_ns, static_cast<int64_t>(i) * kS) << i;
    EXPECT_EQ(u.max_turns, turns[i]) << i;
    EXPECT_EQ(u.session, i);
  }
  // The first replacement: the user that started at 4 s with 2 turns is done at 4 + 2·15 s.
  const UserStart next = g.next();
  EXPECT_EQ(next.offset_ns, 34 * kS);
  EXPECT_EQ(next.max_turns, 20);
  // Then 5 + 3·15 = 50 s... every later start keeps its user's slot in the rate.
  int64_t last = next.offset_ns;
  for (int i = 0; i < 200; ++i) {
    const UserStart u = g.next();
    EXPECT_GE(u.offset_ns, last);
    last = u.offset_ns;
  }
}

TEST(UserCentric, SharedFactorUsesAlternateSpacingWithDistinctStarts) {
  // gcd(6 users, 3 gaps) > 1: positions come from a coprime step, still one per stagger slot.
  UserCentricGenerator g(2.0, 6, 4.0, [](uint64_t) { return 4; });
  std::set<int64_t> starts;
  for (int i = 0; i < 6; ++i) {
    const UserStart u = g.next();
    EXPECT_TRUE(starts.insert(u.offset_ns).second) << u.offset_ns;
    EXPECT_GE(u.max_turns, 1);
    EXPECT_LE(u.max_turns, 4);
  }
  EXPECT_EQ(g.gap_ns(), 3 * kS);
}

TEST(UserCentric, TurnsNeverExceedTheConversation) {
  UserCentricGenerator g(10.0, 4, 6.0, [](uint64_t k) { return static_cast<int32_t>(1 + k % 3); });
  for (int i = 0; i < 50; ++i) {
    const UserStart u = g.next();
    EXPECT_LE(u.max_turns, static_cast<int32_t>(1 + u.session % 3));
    EXPECT_GE(u.max_turns, 1);
  }
}

TEST(CacheBust, MarkersAreDistinctDigitsOfFixedShape) {
  std::set<std::string> seen;
  for (uint64_t k = 0; k < 1000; ++k) {
    const std::string m = cache_bust_marker(42, k);
    ASSERT_EQ(m.size(), kCacheBustPlaceholder.size());
    EXPECT_EQ(m.substr(0, 5), "[rid:");
    EXPECT_EQ(m.back(), ']');
    for (size_t i = 5; i < 17; ++i) EXPECT_TRUE(m[i] >= '0' && m[i] <= '9') << m;
    seen.insert(m);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(cache_bust_marker(42, 7), cache_bust_marker(42, 7));
  EXPECT_NE(cache_bust_marker(42, 7), cache_bust_marker(43, 7));
  std::string body = "x" + std::string(kCacheBustPlaceholder);
  write_cache_bust_digits(42, 7, body.data() + 6);
  EXPECT_EQ(body.substr(1), cache_bust_marker(42, 7));
}

TEST(CacheBust, PositionsFollowAiperf) {
  const std::string mk = "[rid:123456789012]";
  std::string c = "hello";
  mark_first_turn(CacheBust::kFirstTurnPrefix, mk, &c);
  EXPECT_EQ(c, mk + " hello");
  c = "hello";
  mark_first_turn(CacheBust::kFirstTurnSuffix, mk, &c);
  EXPECT_EQ(c, "hello " + mk);
  c = "hello";
  mark_first_turn(CacheBust::kSystemPrefix, mk, &c);  // not a first-turn position
  EXPECT_EQ(c, "hello");

  std::vector<endpoints::Message> msgs = {{"system", "sys"}, {"user", "u"}};
  mark_request(CacheBust::kSystemSuffix, mk, /*warmup=*/true, &msgs);  // cache-bust wins over warm-up
  EXPECT_EQ(msgs[0].content, "sys " + mk);
  EXPECT_EQ(msgs[1].content, "u");
  std::vector<endpoints::Message> bare = {{"user", "u"}};
  mark_request(CacheBust::kSystemPrefix, mk, false, &bare);
  ASSERT_EQ(bare.size(), 2u);
  EXPECT_EQ(bare[0].role, "system");
  EXPECT_EQ(bare[0].content, mk);
}

TEST(WarmupMarker, PrefixesSystemElseFirstMessage) {
  std::vector<endpoints::Message> with_system = {{"system", "sys"}, {"user", "u"}};
  mark_request(CacheBust::kNone, "", true, &with_system);
  EXPECT_EQ(with_system[0].content, "warmup sys");
  EXPECT_EQ(with_system[1].content, "u");
  std::vector<endpoints::Message> plain = {{"user", "u"}, {"assistant", "a"}, {"user", "v"}};
  mark_request(CacheBust::kNone, "", true, &plain);
  EXPECT_EQ(plain[0].content, "warmup u");
  EXPECT_EQ(plain[2].content, "v");
  std::vector<endpoints::Message> profiling = {{"user", "u"}};
  mark_request(CacheBust::kNone, "", false, &profiling);
  EXPECT_EQ(profiling[0].content, "u");
}

// With sessions, every send claims its index from the shared counter; request_count counts
// turns and never limits the arrivals (a skipped arrival must not shorten the run).
TEST(SessionSchedule, ClaimsCountTurnsAcrossWorkers) {
  PhaseSpec s;
  s.request_rate = 1000;
  s.pattern = ArrivalPattern::kConstant;
  s.request_count = 5;
  s.sessions = true;
  auto plan = build_phase_plan(s, 3);
  auto arrivals = materialize_arrivals(plan, 50);
  EXPECT_EQ(arrivals.size(), 50u);  // unbounded by the count
  std::atomic<int64_t> issued{0};
  WorkerSchedule a(plan, 0, 2, 0, &issued), b(plan, 1, 2, 0, &issued);
  uint64_t idx = 0;
  std::set<uint64_t> got;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(a.claim_request(&idx));
    got.insert(idx);
    if (b.claim_request(&idx)) got.insert(idx);
  }
  EXPECT_EQ(got, (std::set<uint64_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(a.exhausted() || b.exhausted());
  EXPECT_FALSE(a.claim_request(&idx));
}

TEST(SessionSchedule, ClosedLoopSlotsAreSessionsNotRequests) {
  PhaseSpec s;
  s.concurrency = 2;
  s.request_count = 3;
  s.sessions = true;
  auto plan = build_phase_plan(s, 1);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 0, &issued);
  Credit c;
  EXPECT_TRUE(w.next_credit(0, 0, 0, &c));
  EXPECT_TRUE(w.next_credit(0, 1, 0, &c));
  EXPECT_FALSE(w.next_credit(0, 2, 0, &c));  // both slots held by their sessions
  EXPECT_EQ(issued.load(), 0);               // slots claim no request index themselves
  w.on_request_done(5);                      // a session ended
  EXPECT_TRUE(w.next_credit(6, 1, 0, &c));
  EXPECT_EQ(c.intended_ns, 5);
}

TEST(SessionSchedule, FixedScheduleStopsAtTheSessionCount) {
  PhaseSpec s;
  s.sessions = true;
  s.fixed_offsets_ns = std::make_shared<std::vector<int64_t>>(std::vector<int64_t>{0, 10, 20, 30});
  s.session_count = 3;
  s.request_count = 1;  // counts turns, not first turns
  auto plan = build_phase_plan(s, 1);
  EXPECT_EQ(materialize_arrivals(plan).size(), 3u);
}

}  // namespace
}  // namespace servebench::load

namespace servebench::load {
namespace {

// A due arrival held back by the concurrency ceiling must not keep a timer at a past instant
// (the worker loop would spin until a completion); it is retried on the completion.
TEST(CeilingWake, HeldArrivalWaitsForACompletionNotATimer) {
  PhaseSpec s;
  s.request_rate = 1000;
  s.pattern = ArrivalPattern::kConstant;
  s.request_count = 10;
  s.concurrency = 1;
  auto plan = build_phase_plan(s, 1);
  WorkerSchedule w(plan, 0, 1, 0, nullptr);
  Credit c;
  ASSERT_TRUE(w.next_credit(0, 0, 0, &c));            // arrival 0 at t = 0
  EXPECT_EQ(w.next_wake_ns(), 1'000'000);              // arrival 1 at 1 ms
  EXPECT_FALSE(w.next_credit(2'000'000, 1, 0, &c));    // due, but one request in flight
  EXPECT_EQ(w.next_wake_ns(), kNever);                 // no timer: a completion will pump
  w.on_request_done(3'000'000);
  EXPECT_EQ(w.next_wake_ns(), 1'000'000);
  ASSERT_TRUE(w.next_credit(3'000'000, 0, 0, &c));
  EXPECT_EQ(c.intended_ns, 1'000'000);                 // the lag is charged to the request
  // The prefill limit holds an arrival the same way.
  PhaseSpec p = s;
  p.concurrency.reset();
  p.prefill_concurrency = 1;
  auto plan2 = build_phase_plan(p, 1);
  WorkerSchedule w2(plan2, 0, 1, 0, nullptr);
  ASSERT_TRUE(w2.next_credit(0, 0, 0, &c));
  EXPECT_FALSE(w2.next_credit(2'000'000, 1, 1, &c));
  EXPECT_EQ(w2.next_wake_ns(), kNever);
  EXPECT_TRUE(w2.next_credit(2'000'000, 1, 0, &c));
}

}  // namespace
}  // namespace servebench::load
