// The generated Kubernetes manifest and Slurm script: structure checked here; the Job is also
// validated against Kubernetes' published Job schema by tests/integration/shard/launch_schema_test.sh
// when the pinned schema and python jsonschema are present.
#include "shard/launch.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace servebench::shard {
namespace {

LaunchOptions options() {
  LaunchOptions o;
  o.shards = 4;
  o.name = "bench-a";
  o.seed = 99;
  o.profile_args = {"--url", "http://vllm:8000", "-m", "Qwen/Qwen3-0.6B", "--concurrency", "400",
                    "--extra-inputs", "{\"a\": 'b'}"};
  return o;
}

TEST(Launch, KubernetesIndexedJobWithHeadlessService) {
  auto j = nlohmann::json::parse(kubernetes_manifest(options()));
  ASSERT_EQ(j["kind"], "List");
  const auto& svc = j["items"][0];
  const auto& job = j["items"][1];
  EXPECT_EQ(svc["kind"], "Service");
  EXPECT_EQ(svc["spec"]["clusterIP"], "None");
  EXPECT_EQ(job["kind"], "Job");
  EXPECT_EQ(job["spec"]["completionMode"], "Indexed");
  EXPECT_EQ(job["spec"]["completions"], 4);
  EXPECT_EQ(job["spec"]["parallelism"], 4);
  const auto& pod = job["spec"]["template"]["spec"];
  EXPECT_EQ(pod["subdomain"], "bench-a");
  EXPECT_EQ(svc["spec"]["selector"], job["spec"]["template"]["metadata"]["labels"].contains("servebench/run")
                                         ? nlohmann::json({{"servebench/run", "bench-a"}})
                                         : nlohmann::json());
  const std::string script = pod["containers"][0]["command"][2];
  EXPECT_NE(script.find("--rendezvous bench-a-0.bench-a:29500"), std::string::npos);
  EXPECT_NE(script.find("--random-seed 99"), std::string::npos);
  EXPECT_NE(script.find("--launcher k8s"), std::string::npos);
  EXPECT_NE(script.find("servebench merge"), std::string::npos);
  EXPECT_NE(script.find("'{\"a\": '\\''b'\\''}'"), std::string::npos);  // quoted for sh
  EXPECT_EQ(pod["containers"][0]["env"][0]["name"], "SERVEBENCH_SHARD_COUNT");
  EXPECT_EQ(pod["containers"][0]["env"][0]["value"], "4");
}

// Slurm's rules for batch scripts: "#SBATCH" lines come before the first command (after the
// shebang; comments and blank lines may sit between), each is --option=value with a known option.
TEST(Launch, SlurmScriptFollowsSbatchSyntax) {
  LaunchOptions o = options();
  o.partition = "gpu";
  const std::string s = slurm_script(o);
  std::istringstream in(s);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "#!/bin/bash");
  const std::set<std::string> known = {"job-name", "nodes", "ntasks", "time", "output", "partition"};
  bool commands = false;
  int directives = 0;
  std::set<std::string> seen;
  while (std::getline(in, line)) {
    if (line.rfind("#SBATCH", 0) == 0) {
      EXPECT_FALSE(commands) << "#SBATCH after a command is ignored by sbatch: " << line;
      ASSERT_EQ(line.rfind("#SBATCH --", 0), 0u) << line;
      const auto eq = line.find('=');
      ASSERT_NE(eq, std::string::npos) << line;
      const std::string opt = line.substr(10, eq - 10);
      EXPECT_TRUE(known.count(opt)) << opt;
      EXPECT_TRUE(seen.insert(opt).second) << "repeated " << opt;
      EXPECT_GT(line.size(), eq + 1);
      ++directives;
    } else if (!line.empty() && line[0] != '#') {
      commands = true;
    }
  }
  EXPECT_EQ(directives, 6);
  EXPECT_NE(s.find("#SBATCH --ntasks=4\n"), std::string::npos);
  EXPECT_NE(s.find("#SBATCH --time=01:00:00\n"), std::string::npos);
  EXPECT_NE(s.find("srun servebench profile"), std::string::npos);
  EXPECT_NE(s.find("--launcher slurm"), std::string::npos);
  EXPECT_NE(s.find("servebench merge"), std::string::npos);
}

TEST(Launch, RefusesFlagsItSetsAndBadNames) {
  LaunchOptions o = options();
  o.profile_args.push_back("--shard");
  EXPECT_FALSE(check_launch_options(o));
  o = options();
  o.name = "Bad_Name";
  EXPECT_FALSE(check_launch_options(o));
  o = options();
  o.shards = 0;
  EXPECT_FALSE(check_launch_options(o));
  EXPECT_TRUE(check_launch_options(options()));
}

}  // namespace
}  // namespace servebench::shard
