// What a sharded run adds to the run library (app/run.cc): the deterministic run tag every shard
// shares (so X-Request-IDs are the plan's, whichever process sends them), the checks that make
// a shard's plan the plan, and its manifest (manifest.h) from the run's results.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/benchmark_config.h"
#include "core/result.h"
#include "export/artifacts.h"
#include "export/record_stream.h"
#include "shard/manifest.h"
#include "shard/rendezvous.h"
#include "shard/start_gate.h"

namespace servebench::shard {

// True when the run is one shard of a plan (--shard or a launcher gave it a place).
inline bool is_sharded(const config::BenchmarkConfig& cfg) { return cfg.shard_count > 0; }

// The run tag of X-Request-IDs in a sharded run: a function of the seed alone.
uint64_t shard_run_tag(uint64_t seed);

// Checks a shard can run its part of the one plan: N > 1 needs --random-seed (else each shard
// would draw its own plan) and no user-centric rate (its users are not split by session).
Status check_shard_config(const config::BenchmarkConfig& cfg);

struct ShardFacts {
  StartRecord start;
  int64_t load_start_wall_ns = 0;
  int64_t warmup_start_wall_ns = 0;
  int workers = 0;
  std::optional<int64_t> clock_offset_ns;  // from the rendezvous
};

// The rendezvous of this shard (rendezvous.h) with the plan's fingerprint.
Result<RendezvousResult> meet_shards(const config::BenchmarkConfig& cfg,
                                     const exporter::RunContext& ctx, const core::Clock& clock);

ShardManifest describe_shard(const config::BenchmarkConfig& cfg, const exporter::RunContext& ctx,
                             const exporter::RunSummaries& summaries, const ShardFacts& facts);

}  // namespace servebench::shard
