// The capacity-search planner against simulated monotone responses (no server).
#include "experiment/search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace servebench::experiment {
namespace {

// A server whose TTFT p99 jumps once the load passes `knee`.
Probe knee_at(double knee, int* calls) {
  return [knee, calls](double load, int64_t, int64_t) {
    ++*calls;
    ProbeResult r;
    r.ok = true;
    r.values["time_to_first_token_p99"] = load <= knee ? 20 + load : 200 + load;
    r.values["request_throughput_avg"] = std::min(load, knee) * 10;
    return r;
  };
}

TEST(ParseSlos, UnitsAndErrors) {
  auto s = parse_slos("time_to_first_token:p99<=0.5s inter_token_latency:p99<=50ms "
                      "output_token_throughput:avg>=100");
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ(s->size(), 3u);
  EXPECT_EQ((*s)[0].key, "time_to_first_token_p99");
  EXPECT_DOUBLE_EQ((*s)[0].threshold, 500);
  EXPECT_DOUBLE_EQ((*s)[1].threshold, 50);
  EXPECT_FALSE((*s)[2].at_most);
  EXPECT_DOUBLE_EQ((*s)[2].threshold, 100);
  EXPECT_FALSE(parse_slos("time_to_first_token<=5ms"));
  EXPECT_FALSE(parse_slos("time_to_first_token:p99<=fast"));
  EXPECT_FALSE(parse_slos("  "));
}

TEST(Search, FindsIntegerKnee) {
  auto slos = parse_slos("time_to_first_token:p99<=100ms");
  ASSERT_TRUE(slos);
  for (double knee : {1.0, 5.0, 13.0, 31.0, 100.0}) {
    int calls = 0;
    SearchOptions o;
    o.min = 1;
    o.max = 64;
    const auto r = run_search(*slos, o, knee_at(knee, &calls));
    const double want = std::min(knee, 64.0);
    ASSERT_TRUE(r.answer) << knee;
    EXPECT_EQ(*r.answer, want) << knee;
    if (knee < 64) {
      ASSERT_TRUE(r.first_fail);
      EXPECT_EQ(*r.first_fail, knee + 1);
      EXPECT_EQ(r.stop_reason, "resolution");
    } else {
      EXPECT_EQ(r.stop_reason, "max reached");
    }
    EXPECT_LE(calls, 14);
  }
}

TEST(Search, RateWithinResolution) {
  auto slos = parse_slos("time_to_first_token:p99<=100ms");
  ASSERT_TRUE(slos);
  int calls = 0;
  SearchOptions o;
  o.min = 0.5;
  o.max = 1000;
  o.integer = false;
  o.resolution = 0.25;
  const auto r = run_search(*slos, o, knee_at(37.3, &calls));
  ASSERT_TRUE(r.answer && r.first_fail);
  EXPECT_LE(*r.answer, 37.3);
  EXPECT_GT(*r.first_fail, 37.3);
  EXPECT_LE(*r.first_fail - *r.answer, 0.25);
}

TEST(Search, MinFailsBudgetAndBoundaryTrials) {
  auto slos = parse_slos("time_to_first_token:p99<=10ms");
  ASSERT_TRUE(slos);
  int calls = 0;
  SearchOptions o;
  const auto none = run_search(*slos, o, knee_at(5, &calls));
  EXPECT_FALSE(none.answer);
  EXPECT_EQ(none.stop_reason, "min fails");

  auto loose = parse_slos("time_to_first_token:p99<=100ms");
  SearchOptions tight;
  tight.budget = 3;
  const auto cut = run_search(*loose, tight, knee_at(40, &calls));
  EXPECT_EQ(cut.steps.size(), 3u);
  EXPECT_EQ(cut.stop_reason, "budget");

  SearchOptions boundary;
  boundary.boundary_trials = 3;
  const auto b = run_search(*loose, boundary, knee_at(6, &calls));
  bool saw_bisect = false;
  for (const auto& s : b.steps) {
    EXPECT_EQ(s.trials, s.phase == "bisect" ? 3 : 1);
    saw_bisect = saw_bisect || s.phase == "bisect";
  }
  EXPECT_TRUE(saw_bisect);
  const auto doc = nlohmann::json::parse(search_history_json(*loose, boundary, "concurrency", b));
  EXPECT_EQ(doc["result"]["answer"], 6);
  EXPECT_EQ(doc["history"].size(), b.steps.size());
}

TEST(Search, FailedProbeCountsAsViolation) {
  auto slos = parse_slos("time_to_first_token:p99<=100ms");
  ProbeResult failed;
  failed.error = "every request failed";
  EXPECT_EQ(check_slos(*slos, failed).size(), 1u);
  ProbeResult missing;
  missing.ok = true;
  EXPECT_EQ(check_slos(*slos, missing).front(), "time_to_first_token_p99 missing");
}

}  // namespace
}  // namespace servebench::experiment
