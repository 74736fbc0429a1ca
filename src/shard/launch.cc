#include "shard/launch.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace servebench::shard {
namespace {

using nlohmann::json;

// The profile command line every shard runs (the shard index comes from the launcher).
std::string profile_line(const LaunchOptions& o, const std::string& launcher,
                         const std::string& rendezvous, const std::string& artifacts) {
  std::string line = "servebench profile";
  bool seeded = false;
  for (const auto& a : o.profile_args) {
    seeded |= a == "--random-seed" || a.rfind("--random-seed=", 0) == 0;
    line += " " + shell_quote(a);
  }
  if (!seeded) line += fmt::format(" --random-seed {}", o.seed);
  line += fmt::format(" --launcher {} --rendezvous {} --artifact-dir {} --ui-type none", launcher,
                      rendezvous, artifacts);
  return line;
}

}  // namespace

std::string shell_quote(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_./:=,@%+") == std::string::npos)
    return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

Status check_launch_options(const LaunchOptions& o) {
  if (o.shards < 1)
    return make_error(ErrorCode::kInvalidArgument, "--shards is required; expected an integer >= 1");
  const bool dns_name = !o.name.empty() && o.name.size() <= 40 &&
                        o.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos &&
                        o.name.front() != '-' && o.name.back() != '-';
  if (!dns_name)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--name '{}' is invalid; expected lowercase letters, digits and '-' "
                                  "(a DNS label of at most 40 characters)",
                                  o.name));
  if (o.port < 1 || o.port > 65535)
    return make_error(ErrorCode::kInvalidArgument, "--port is invalid; expected 1 to 65535");
  for (const auto& a : o.profile_args)
    if (a == "--shard" || a == "--artifact-dir" || a == "--rendezvous" || a == "--launcher")
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} is set by servebench launch; leave it out of the profile flags", a));
  return {};
}

std::string kubernetes_manifest(const LaunchOptions& o) {
  const std::string run_dir = o.results_dir + "/" + o.name;
  const std::string script = fmt::format(
      "set -eu\n"
      "mkdir -p {}\n"
      "{}\n"
      "if [ \"$JOB_COMPLETION_INDEX\" = 0 ]; then\n"
      "  until [ \"$(ls {}/*/shard.json 2>/dev/null | wc -l)\" -ge {} ]; do sleep 2; done\n"
      "  servebench merge {}/*-shard*of{} -o {}/merged\n"
      "fi\n",
      run_dir, profile_line(o, "k8s", fmt::format("{}-0.{}:{}", o.name, o.name, o.port), run_dir), run_dir,
      o.shards, run_dir, o.shards, run_dir);
  json labels = {{"app.kubernetes.io/name", "servebench"}, {"servebench/run", o.name}};
  json service = {
      {"apiVersion", "v1"},
      {"kind", "Service"},
      {"metadata", {{"name", o.name}, {"labels", labels}}},
      {"spec",
       {{"clusterIP", "None"},
        {"selector", {{"servebench/run", o.name}}},
        {"ports", json::array({{{"name", "rendezvous"}, {"port", o.port}, {"protocol", "TCP"}}})}}}};
  json container = {
      {"name", "servebench"},
      {"image", o.image},
      {"command", json::array({"/bin/sh", "-c", script})},
      {"env", json::array({{{"name", "SERVEBENCH_SHARD_COUNT"}, {"value", std::to_string(o.shards)}}})},
      {"ports", json::array({{{"containerPort", o.port}, {"name", "rendezvous"}}})},
      {"volumeMounts", json::array({{{"name", "results"}, {"mountPath", o.results_dir}}})}};
  json job = {
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata", {{"name", o.name}, {"labels", labels}}},
      {"spec",
       {{"completionMode", "Indexed"},
        {"completions", o.shards},
        {"parallelism", o.shards},
        {"backoffLimit", 0},
        {"template",
         {{"metadata", {{"labels", labels}}},
          {"spec",
           {{"subdomain", o.name},
            {"restartPolicy", "Never"},
            {"containers", json::array({container})},
            {"volumes", json::array({{{"name", "results"},
                                      {"persistentVolumeClaim", {{"claimName", o.results_claim}}}}})}}}}}}}};
  json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", json::array({service, job})}};
  return list.dump(2) + "\n";
}

std::string slurm_script(const LaunchOptions& o) {
  const int32_t nodes = o.nodes > 0 ? o.nodes : o.shards;
  std::string s = "#!/bin/bash\n";
  s += fmt::format("#SBATCH --job-name={}\n", o.name);
  s += fmt::format("#SBATCH --nodes={}\n", nodes);
  s += fmt::format("#SBATCH --ntasks={}\n", o.shards);
  s += fmt::format("#SBATCH --time={}\n", o.time_limit);
  s += fmt::format("#SBATCH --output={}-%j.out\n", o.name);
  if (!o.partition.empty()) s += fmt::format("#SBATCH --partition={}\n", o.partition);
  s += "# servebench: one task per shard of one plan, started together, then merged.\n";
  s += "set -euo pipefail\n";
  s += fmt::format("RUN_DIR={}/{}-\"$SLURM_JOB_ID\"\n", shell_quote(o.results_dir), o.name);
  s += "mkdir -p \"$RUN_DIR\"\n";
  s += "HEAD_NODE=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n";
  s += "srun " + profile_line(o, "slurm", fmt::format("\"$HEAD_NODE\":{}", o.port), "\"$RUN_DIR\"") + "\n";
  s += fmt::format("servebench merge \"$RUN_DIR\"/*-shard*of{} -o \"$RUN_DIR\"/merged\n", o.shards);
  return s;
}

}  // namespace servebench::shard
