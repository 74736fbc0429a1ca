// The merge's refusals (shards of different plans, missing or repeated shards). The merged
// artifacts themselves are checked end to end (tests/integration/shard/shard_e2e.sh).
#include "shard/merge.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

namespace servebench::shard {
namespace {

namespace fs = std::filesystem;

class MergeCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / fs::path("sb_merge_" + std::to_string(::getpid()) + "_" +
                                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string shard(int i, int n, uint64_t seed = 1, const std::string& version = "v1",
                    const std::string& fp = "fp") {
    const fs::path d = root_ / ("s" + std::to_string(i) + "_" + std::to_string(seed) + version + fp);
    fs::create_directories(d);
    ShardManifest m;
    m.index = i;
    m.count = n;
    m.random_seed = seed;
    m.version = version;
    m.plan_fingerprint = fp;
    EXPECT_TRUE(write_manifest(d.string(), m));
    return d.string();
  }
  fs::path root_;
};

TEST_F(MergeCheck, AcceptsAllShardsInAnyOrder) {
  auto r = check_shards({shard(2, 3), shard(0, 3), shard(1, 3)});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ((*r)[static_cast<size_t>(i)].index, i);
}

TEST_F(MergeCheck, RefusesDifferentSeedsVersionsOrFlags) {
  auto seed = check_shards({shard(0, 2), shard(1, 2, 9)});
  ASSERT_FALSE(seed);
  EXPECT_NE(seed.error().message.find("random seeds differ"), std::string::npos);
  auto version = check_shards({shard(0, 2), shard(1, 2, 1, "v2")});
  ASSERT_FALSE(version);
  EXPECT_NE(version.error().message.find("versions differ"), std::string::npos);
  auto flags = check_shards({shard(0, 2), shard(1, 2, 1, "v1", "other")});
  ASSERT_FALSE(flags);
  EXPECT_NE(flags.error().message.find("flags differ"), std::string::npos);
  EXPECT_EQ(flags.error().message.find('\n'), std::string::npos);
}

TEST_F(MergeCheck, RefusesMissingAndRepeatedShards) {
  auto missing = check_shards({shard(0, 3), shard(2, 3)});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("shard 1/3 is missing"), std::string::npos);
  const std::string one = shard(1, 2);
  auto twice = check_shards({shard(0, 2), one, one});
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("both shard 1/2"), std::string::npos);
  auto none = check_shards({(root_ / "nothing").string()});
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("shard.json"), std::string::npos);
}

}  // namespace
}  // namespace servebench::shard
