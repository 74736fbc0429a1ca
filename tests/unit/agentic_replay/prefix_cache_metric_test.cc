// theoretical_prefix_cache_hit (metrics/prefix_cache_rows.h): the weka_trace loader's per-turn
// hit blocks, carried by the records, summed over the successful requests of a phase.
#include <gtest/gtest.h>

#include <vector>

#include "../metrics/record_fixtures.h"
#include "dataset/loaders/dataset_file.h"
#include "metrics/summary.h"

namespace servebench {
namespace {

// Parent: blocks 1-4, then 1-6, then 1-8 (9 ids, 8 kept for 512 tokens); a sub-agent with
// blocks 70-72 between the last two.
const char* kWeka = R"({"id":"demo","models":["big"],"block_size":64,"hash_id_scope":"local","requests":[
 {"t":0.0,"type":"s","model":"big","in":256,"out":40,"hash_ids":[1,2,3,4],"api_time":0.9},
 {"t":1.4,"type":"n","model":"big","in":384,"out":30,"hash_ids":[1,2,3,4,5,6],"api_time":0.7},
 {"t":2.3,"type":"subagent","agent_id":"a1","models":["small"],"duration_ms":1500,"requests":[
   {"t":2.4,"type":"n","model":"small","in":192,"out":25,"hash_ids":[70,71,72],"api_time":1.2}]},
 {"t":4.1,"type":"n","model":"big","in":512,"out":50,"hash_ids":[1,2,3,4,5,6,7,8,9],"api_time":1.0}]})";

TEST(TheoreticalPrefixCacheHit, SumsHitBlocksOverBlocksOfSuccessfulRequests) {
  auto f = dataset::parse_dataset_text(kWeka, dataset::FileFormat::kWekaTrace, "demo.json");
  ASSERT_TRUE(f) << f.error().message;
  std::vector<const dataset::FileTurn*> turns;
  for (const auto& c : f->conversations)
    for (const auto& t : c.turns) turns.push_back(&t);
  ASSERT_EQ(turns.size(), 4u);
  // By hand: hits 0/4, 4/6, 6/8 (blocks 1-6 produced, 7 not), sub-agent 0/3.
  EXPECT_EQ(turns[0]->prefix_hit_blocks, 0);
  EXPECT_EQ(turns[1]->prefix_hit_blocks, 4);
  EXPECT_EQ(turns[2]->prefix_hit_blocks, 6);
  EXPECT_EQ(turns[2]->prefix_total_blocks, 8);
  EXPECT_EQ(turns[3]->prefix_hit_blocks, 0);
  EXPECT_EQ(turns[3]->prefix_total_blocks, 3);

  std::vector<record::RequestRecord> recs;
  for (size_t i = 0; i < turns.size(); ++i) {
    testing::StreamSpec s;
    s.start_ns = 1'000'000'000 + static_cast<int64_t>(i) * 100'000'000;
    record::RequestRecord r = testing::make_stream_record(i, s);
    r.prefix_hit_blocks = turns[i]->prefix_hit_blocks;
    r.prefix_total_blocks = turns[i]->prefix_total_blocks;
    recs.push_back(std::move(r));
  }
  // A failed request does not count; nor does a request that is no trace turn.
  record::RequestRecord failed = testing::make_error_record(9, 2'000'000'000, record::ErrorKind::kTimeout, 0, "timeout");
  failed.prefix_hit_blocks = 5;
  failed.prefix_total_blocks = 5;
  recs.push_back(failed);
  recs.push_back(testing::make_stream_record(10, {}));
  std::vector<const record::RequestRecord*> ptrs;
  for (const auto& r : recs) ptrs.push_back(&r);
  const metrics::Summary s = metrics::summarize(ptrs, {});
  const metrics::MetricResult* hit = s.find("theoretical_prefix_cache_hit");
  ASSERT_NE(hit, nullptr);
  EXPECT_NEAR(hit->value, 100.0 * 10 / 21, 1e-9);  // (0 + 4 + 6 + 0) / (4 + 6 + 8 + 3)
  EXPECT_EQ(hit->info->display_unit, "%");

  // No trace turn among the records: not reported.
  std::vector<const record::RequestRecord*> plain = {&recs.back()};
  EXPECT_EQ(metrics::summarize(plain, {}).find("theoretical_prefix_cache_hit"), nullptr);
}

}  // namespace
}  // namespace servebench
