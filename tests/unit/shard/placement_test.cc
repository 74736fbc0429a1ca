#include "shard/placement.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace servebench::shard {
namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(Placement, NoLauncherAndNoFlagIsOneProcess) {
  auto p = resolve_placement("auto", 0, 0, env_of({}));
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->sharded);
  EXPECT_EQ(p->count, 1);
}

TEST(Placement, KubernetesIndexedJob) {
  auto p = resolve_placement("auto", 0, 0, env_of({{"JOB_COMPLETION_INDEX", "3"}, {"SERVEBENCH_SHARD_COUNT", "8"}}));
  ASSERT_TRUE(p);
  EXPECT_TRUE(p->sharded);
  EXPECT_EQ(p->launcher, Launcher::kKubernetes);
  EXPECT_EQ(p->index, 3);
  EXPECT_EQ(p->count, 8);
}

TEST(Placement, KubernetesWithoutCountNamesTheVariable) {
  auto p = resolve_placement("auto", 0, 0, env_of({{"JOB_COMPLETION_INDEX", "1"}}));
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("SERVEBENCH_SHARD_COUNT"), std::string::npos);
}

TEST(Placement, Slurm) {
  auto p = resolve_placement("auto", 0, 0, env_of({{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "6"}}));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->launcher, Launcher::kSlurm);
  EXPECT_EQ(p->index, 5);
  EXPECT_EQ(p->count, 6);
}

TEST(Placement, SlurmIndexOutOfRangeIsRefused) {
  auto p = resolve_placement("auto", 0, 0, env_of({{"SLURM_PROCID", "6"}, {"SLURM_NTASKS", "6"}}));
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("SLURM_NTASKS"), std::string::npos);
}

TEST(Placement, OpenMpiComesFirstUnderAuto) {
  auto p = resolve_placement("auto", 0, 0,
                             env_of({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "4"},
                                     {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}}));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->launcher, Launcher::kMpi);
  EXPECT_EQ(p->index, 2);
  EXPECT_EQ(p->count, 4);
}

TEST(Placement, NamedLauncherIgnoresOthersAndNeedsItsOwn) {
  const auto env = env_of({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "4"},
                           {"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "3"}});
  auto p = resolve_placement("slurm", 0, 0, env);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->index, 1);
  auto k = resolve_placement("k8s", 0, 0, env);
  ASSERT_FALSE(k);
  EXPECT_NE(k.error().message.find("JOB_COMPLETION_INDEX"), std::string::npos);
}

TEST(Placement, ShardFlagWinsAndNoneIgnoresTheEnvironment) {
  const auto env = env_of({{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "3"}});
  auto p = resolve_placement("auto", 2, 5, env);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->index, 2);
  EXPECT_EQ(p->count, 5);
  auto n = resolve_placement("none", 0, 0, env);
  ASSERT_TRUE(n);
  EXPECT_FALSE(n->sharded);
}

TEST(Placement, MalformedIndexIsOneLineNamingTheVariable) {
  auto p = resolve_placement("auto", 0, 0, env_of({{"SLURM_PROCID", "x"}, {"SLURM_NTASKS", "3"}}));
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().message.find("SLURM_PROCID='x'"), std::string::npos);
  EXPECT_EQ(p.error().message.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace servebench::shard
