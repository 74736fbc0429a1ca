#include "shard/shard_run.h"

#include <unistd.h>

#include "core/rng.h"
#include "shard/build_info.h"

namespace servebench::shard {

uint64_t shard_run_tag(uint64_t seed) {
  uint64_t state = seed ^ 0x5368617264ULL;  // "Shard": differs from the seed's other streams
  return core::splitmix64(&state);
}

Status check_shard_config(const config::BenchmarkConfig& cfg) {
  if (cfg.shard_count > 1 && !cfg.random_seed)
    return make_error(ErrorCode::kInvalidArgument,
                      "--shard with more than one shard needs --random-seed (the same on every "
                      "shard), so every shard builds the same plan");
  if (cfg.shard_count > 1 && cfg.user_centric_rate)
    return make_error(ErrorCode::kInvalidArgument,
                      "--user-centric-rate cannot be split into shards; use --request-rate or "
                      "--concurrency with --shard");
  return {};
}

Result<RendezvousResult> meet_shards(const config::BenchmarkConfig& cfg,
                                     const exporter::RunContext& ctx, const core::Clock& clock) {
  RendezvousOptions o;
  o.address = cfg.rendezvous;
  o.index = cfg.shard_index;
  o.count = std::max(1, cfg.shard_count);
  o.fingerprint = plan_fingerprint(ctx.input_config_json, ctx.random_seed, version_string());
  o.timeout_ns = cfg.rendezvous_timeout_ns;
  return rendezvous(o, clock);
}

ShardManifest describe_shard(const config::BenchmarkConfig& cfg, const exporter::RunContext& ctx,
                             const exporter::RunSummaries& summaries, const ShardFacts& facts) {
  ShardManifest m;
  m.index = cfg.shard_index;
  m.count = std::max(1, cfg.shard_count);
  m.launcher = cfg.launcher == "auto" ? "none" : cfg.launcher;
  m.version = version_string();
  m.random_seed = ctx.random_seed;
  m.plan_fingerprint = plan_fingerprint(ctx.input_config_json, ctx.random_seed, m.version);
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) m.hostname = host;
  m.start_at_wall_ns = facts.start.start_at_wall_ns;
  m.started_wall_ns = facts.start.started_wall_ns;
  m.start_skew_ns = facts.start.start_at_wall_ns ? facts.load_start_wall_ns - facts.start.start_at_wall_ns : 0;
  m.load_start_wall_ns = facts.load_start_wall_ns;
  m.warmup_start_wall_ns = facts.warmup_start_wall_ns;
  const metrics::Summary& p = summaries.profiling;
  ShardHealth& h = m.health;
  h.requests = p.request_count;
  h.errors = p.error_request_count;
  if (const auto* lag = p.find("schedule_lag"); lag && lag->distribution) {
    lag->stats.get("p50", &h.schedule_lag_p50_ms);
    lag->stats.get("p99", &h.schedule_lag_p99_ms);
    h.schedule_lag_p50_ms /= 1e6;
    h.schedule_lag_p99_ms /= 1e6;
  }
  h.late_send_fraction = p.extras.late_send_fraction;
  h.client_limited = p.extras.client_limited;
  std::tie(h.cpu_user_s, h.cpu_system_s) = process_cpu_s();
  h.workers = facts.workers;
  m.clock_offset_ns = facts.clock_offset_ns;
  if (m.index == 0 && !cfg.rendezvous.empty()) m.clock_offset_ns = 0;  // the reference
  return m;
}

}  // namespace servebench::shard
