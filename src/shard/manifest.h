// Shard manifest: `shard.json`, written by every shard next to its AIPerf files, read by
// `servebench merge` (merge.h). It says which plan the shard ran (a fingerprint of its
// input_config without the output section, the seed, the binary version), which part of it
// (index/count, launcher), when it started (start gate, clock offset) and how healthy the client
// was (schedule lag, late sends, CPU, errors): what a merge needs to refuse shards of different
// plans and to report the client side of a distributed run.
//
// Thread safety: plain values and pure functions (file I/O on the calling thread).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"

namespace servebench::shard {

inline constexpr const char* kManifestFile = "shard.json";

struct ShardHealth {
  int64_t requests = 0;            // profiling requests that succeeded
  int64_t errors = 0;              // profiling requests that failed
  double schedule_lag_p50_ms = 0;
  double schedule_lag_p99_ms = 0;
  double late_send_fraction = 0;   // sends more than 1 ms behind the plan
  bool client_limited = false;
  double cpu_user_s = 0;           // the whole process (getrusage)
  double cpu_system_s = 0;
  int workers = 0;
};

struct ShardManifest {
  int32_t index = 0;
  int32_t count = 1;
  std::string launcher = "none";
  std::string version;          // servebench version and git commit
  uint64_t random_seed = 0;
  std::string plan_fingerprint; // 32 hex digits (plan_fingerprint())
  std::string hostname;
  int64_t start_at_wall_ns = 0;   // requested start (0: none)
  int64_t started_wall_ns = 0;    // when the start gate opened
  int64_t start_skew_ns = 0;      // started − requested
  int64_t load_start_wall_ns = 0; // the profiling phase's start (t0): intended times count from it
  int64_t warmup_start_wall_ns = 0;
  std::optional<int64_t> clock_offset_ns;  // this host's wall clock minus the reference's
  ShardHealth health;
};

// Fingerprint of a run's plan: input_config (JSON text) without its "output" object and cli_command (every
// shard writes to its own folder), the seed and the binary version.
std::string plan_fingerprint(const std::string& input_config_json, uint64_t seed,
                             const std::string& version);

std::string to_json_text(const ShardManifest& m);
Result<ShardManifest> parse_manifest(const std::string& text);
Status write_manifest(const std::string& dir, const ShardManifest& m);
// kNotFound when the folder has no shard.json.
Result<ShardManifest> read_manifest(const std::string& dir);

// This process's CPU time so far (user, system), in seconds.
std::pair<double, double> process_cpu_s();

}  // namespace servebench::shard
