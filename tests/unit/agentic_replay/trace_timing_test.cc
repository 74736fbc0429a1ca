#include <gtest/gtest.h>

#include "dataset/loaders/dataset_file.h"
#include "dataset/loaders/trace_timing.h"

namespace servebench::dataset {
namespace {

// Parent calls at 0, 20, 220 s (api 5 s each); a sub-agent spawned at 21 s calls at 22 and 25 s.
const char* kTrace = R"({"id":"gap","models":["m"],"block_size":16,"hash_id_scope":"local","requests":[
 {"t":0,"type":"n","model":"m","in":32,"out":4,"api_time":5},
 {"t":20,"type":"n","model":"m","in":48,"out":4,"api_time":5},
 {"t":21,"type":"subagent","agent_id":"s","models":["m"],"duration_ms":5000,"requests":[
   {"t":22,"type":"n","model":"m","in":16,"out":4,"api_time":2},
   {"t":25,"type":"n","model":"m","in":16,"out":4,"api_time":2}]},
 {"t":220,"type":"n","model":"m","in":64,"out":4,"api_time":5}]})";

DatasetFile parsed() {
  auto f = parse_dataset_text(kTrace, FileFormat::kWekaTrace, "gap.json");
  EXPECT_TRUE(f) << f.error().message;
  return f ? *f : DatasetFile{};
}

TEST(IdleGapWarp, CompressesGapsAboveTheCap) {
  const IdleGapWarp warp({0, 220'000, 20'000}, 60'000);
  EXPECT_DOUBLE_EQ(warp(0), 0);
  EXPECT_DOUBLE_EQ(warp(20'000), 20'000);
  EXPECT_DOUBLE_EQ(warp(220'000), 80'000);
  EXPECT_DOUBLE_EQ(warp(30'000), 30'000);   // 10 s into a gap: under the cap
  EXPECT_DOUBLE_EQ(warp(150'000), 80'000);  // past the cap inside the gap
  const IdleGapWarp off({0, 220'000}, -1);
  EXPECT_DOUBLE_EQ(off(220'000), 220'000);
}

TEST(TraceTiming, IdleGapCapRetimesParentAndSubagents) {
  DatasetFile f = parsed();
  ASSERT_EQ(f.conversations.size(), 2u);
  RetimeOptions o;
  o.idle_gap_cap_s = 60;
  retime_agent_traces(&f, o);
  const auto& root = f.conversations[0];
  ASSERT_EQ(root.turns.size(), 3u);
  // Starts of the whole trace: 0, 20, 22, 25, 220 → the last gap (195 s) becomes 60 s.
  EXPECT_DOUBLE_EQ(root.turns[0].timestamp_ms, 0);
  EXPECT_DOUBLE_EQ(root.turns[1].timestamp_ms, 20'000);
  EXPECT_DOUBLE_EQ(root.turns[2].timestamp_ms, 85'000);
  EXPECT_DOUBLE_EQ(root.turns[2].delay_ms, 65'000);
  const auto& child = f.conversations[1];
  EXPECT_DOUBLE_EQ(child.turns[1].delay_ms, 3'000);
  ASSERT_EQ(root.branches.size(), 1u);
  EXPECT_DOUBLE_EQ(root.branches[0].child_delay_ms[0], 1'000);  // spawn 21 s → first call 22 s
}

TEST(TraceTiming, EndToStartDelaysSubtractTheRecordedServerTime) {
  DatasetFile f = parsed();
  RetimeOptions o;
  o.end_to_start = true;
  retime_agent_traces(&f, o);
  EXPECT_DOUBLE_EQ(f.conversations[0].turns[1].delay_ms, 15'000);   // 20 - (0 + 5)
  EXPECT_DOUBLE_EQ(f.conversations[0].turns[2].delay_ms, 195'000);  // 220 - (20 + 5)
  EXPECT_DOUBLE_EQ(f.conversations[1].turns[1].delay_ms, 1'000);    // 25 - (22 + 2)
  EXPECT_DOUBLE_EQ(f.conversations[0].turns[2].timestamp_ms, 220'000);  // no cap: unchanged
}

TEST(TraceTiming, IgnoreTraceDelaysStripsEveryTimeAndTheSchedule) {
  DatasetFile f = parsed();
  ASSERT_TRUE(f.has_timestamps);
  strip_trace_delays(&f);
  EXPECT_FALSE(f.has_timestamps);
  for (const auto& c : f.conversations)
    for (const auto& t : c.turns) {
      EXPECT_EQ(t.timestamp_ms, -1);
      EXPECT_EQ(t.delay_ms, -1);
    }
  EXPECT_TRUE(f.conversations[0].branches[0].child_delay_ms.empty());
}

}  // namespace
}  // namespace servebench::dataset
