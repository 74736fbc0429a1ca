// MpiShardRun outside mpirun and MpiWorld's refusals; the MPI path itself runs under a real
// mpirun in tests/integration/shard/shard_e2e.sh.
#include "shard/mpi_run.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace servebench::shard {
namespace {

TEST(MpiRun, MergedDirDropsTheShardSuffix) {
  EXPECT_EQ(merged_dir_for("/a/b/model-chat-rate100-shard0of4"), "/a/b/model-chat-rate100");
  EXPECT_EQ(merged_dir_for("/a/b/model-chat-rate100-shard12of16/"), "/a/b/model-chat-rate100");
  EXPECT_EQ(merged_dir_for("out/run"), "out/run");
}

TEST(MpiRun, NotUnderMpirunOrNotAskedMeansNoMpi) {
  config::BenchmarkConfig cfg;
  cfg.launcher = "mpi";
  cfg.shard_count = 4;
  std::vector<std::string> warnings;
  unsetenv("OMPI_COMM_WORLD_SIZE");
  auto r = MpiShardRun::maybe_open(cfg, &warnings);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->get(), nullptr);
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  cfg.rendezvous = "127.0.0.1:1";  // the TCP barrier was asked for: no MPI
  r = MpiShardRun::maybe_open(cfg, &warnings);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->get(), nullptr);
  EXPECT_TRUE(warnings.empty());
  unsetenv("OMPI_COMM_WORLD_SIZE");
}

TEST(MpiRun, MissingLibraryIsAWarningNotAnError) {
  config::BenchmarkConfig cfg;
  cfg.launcher = "mpi";
  cfg.shard_count = 4;
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  std::vector<std::string> warnings;
  auto r = MpiShardRun::maybe_open(cfg, &warnings, "libservebench-no-such-mpi.so.40");
  unsetenv("OMPI_COMM_WORLD_SIZE");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->get(), nullptr);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("--rendezvous"), std::string::npos) << warnings[0];
}

TEST(MpiWorld, RefusesALibraryThatIsNotOpenMpi) {
  auto w = MpiWorld::open("libm.so.6");
  ASSERT_FALSE(w.has_value());
  EXPECT_NE(w.error().message.find("not Open MPI"), std::string::npos) << w.error().message;
}

}  // namespace
}  // namespace servebench::shard
