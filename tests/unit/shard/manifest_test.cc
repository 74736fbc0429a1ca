#include "shard/manifest.h"

#include <gtest/gtest.h>

namespace servebench::shard {
namespace {

TEST(Manifest, RoundTrips) {
  ShardManifest m;
  m.index = 2;
  m.count = 4;
  m.launcher = "slurm";
  m.version = "0.1.0 (abc)";
  m.random_seed = 77;
  m.plan_fingerprint = plan_fingerprint("{\"loadgen\":{\"concurrency\":4}}", 77, m.version);
  m.start_at_wall_ns = 10;
  m.start_skew_ns = 3;
  m.clock_offset_ns = -12345;
  m.health.requests = 9;
  m.health.schedule_lag_p99_ms = 1.5;
  auto back = parse_manifest(to_json_text(m));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->index, 2);
  EXPECT_EQ(back->count, 4);
  EXPECT_EQ(back->launcher, "slurm");
  EXPECT_EQ(back->random_seed, 77u);
  EXPECT_EQ(back->plan_fingerprint, m.plan_fingerprint);
  ASSERT_TRUE(back->clock_offset_ns);
  EXPECT_EQ(*back->clock_offset_ns, -12345);
  EXPECT_EQ(back->health.requests, 9);
  EXPECT_DOUBLE_EQ(back->health.schedule_lag_p99_ms, 1.5);
}

TEST(Manifest, FingerprintIgnoresTheOutputFolderOnly) {
  const std::string a = R"({"loadgen":{"concurrency":4},"output":{"artifact_directory":"a"}})";
  const std::string b = R"({"loadgen":{"concurrency":4},"output":{"artifact_directory":"b"}})";
  const std::string c = R"({"loadgen":{"concurrency":5},"output":{"artifact_directory":"a"}})";
  EXPECT_EQ(plan_fingerprint(a, 1, "v"), plan_fingerprint(b, 1, "v"));
  EXPECT_NE(plan_fingerprint(a, 1, "v"), plan_fingerprint(c, 1, "v"));
  EXPECT_NE(plan_fingerprint(a, 1, "v"), plan_fingerprint(a, 2, "v"));
  EXPECT_NE(plan_fingerprint(a, 1, "v"), plan_fingerprint(a, 1, "w"));
}

TEST(Manifest, RejectsAnInvalidShard) {
  EXPECT_FALSE(parse_manifest(R"({"shard":{"index":4,"count":4},"plan_fingerprint":"x"})"));
  EXPECT_FALSE(parse_manifest("[]"));
}

}  // namespace
}  // namespace servebench::shard
