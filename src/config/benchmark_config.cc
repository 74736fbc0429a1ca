#include "config/benchmark_config.h"
#include "config/parity_validate.h"
#include "config/scenario.h"
#include "config/prompt_validate.h"

#include "media/synthetic_media.h"
#include "config/video_options.h"

#include "config/flag_table.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/env.h"
#include "endpoints/registry.h"

namespace servebench::config {
namespace {

tl::unexpected<Error> bad(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

std::string fmt_number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{}", v);
}

}  // namespace

const char* arrival_pattern_name(ArrivalPattern p) {
  switch (p) {
    case ArrivalPattern::kConstant: return "constant";
    case ArrivalPattern::kPoisson: return "poisson";
    case ArrivalPattern::kGamma: return "gamma";
  }
  return "?";
}

const char* connection_reuse_name(ConnectionReuse c) {
  switch (c) {
    case ConnectionReuse::kPooled: return "pooled";
    case ConnectionReuse::kNever: return "never";
    case ConnectionReuse::kStickyUserSessions: return "sticky-user-sessions";
  }
  return "?";
}

const char* cache_bust_name(CacheBust c) {
  switch (c) {
    case CacheBust::kNone: return "none";
    case CacheBust::kSystemPrefix: return "system_prefix";
    case CacheBust::kSystemSuffix: return "system_suffix";
    case CacheBust::kFirstTurnPrefix: return "first_turn_prefix";
    case CacheBust::kFirstTurnSuffix: return "first_turn_suffix";
  }
  return "?";
}

std::optional<int64_t> BenchmarkConfig::effective_concurrency() const {
  if (concurrency) return concurrency;
  if (!request_rate && !user_centric_rate) return 1;  // AIPerf: concurrency 1 when neither rate nor concurrency is set
  return std::nullopt;          // open loop, unlimited
}

std::optional<int64_t> BenchmarkConfig::effective_request_count() const {
  if (request_count) return request_count;
  if (benchmark_duration_ns || num_sessions) return std::nullopt;  // the duration or the sessions stop the run
  const int64_t c = effective_concurrency().value_or(1);
  return std::max<int64_t>(10, 2 * c);
}

int64_t BenchmarkConfig::effective_grace_ns() const {
  return grace_period_ns.value_or(30LL * 1'000'000'000);
}

std::string BenchmarkConfig::load_label() const {
  if (user_centric_rate) return "user_centric_rate" + fmt_number(*user_centric_rate);
  if (request_rate) return "request_rate" + fmt_number(*request_rate);
  return "concurrency" + std::to_string(effective_concurrency().value_or(1));
}

Status validate(const BenchmarkConfig& c) {
  if (c.models.empty() || c.models.front().empty())
    return bad("--model is required; name the served model, e.g. -m Qwen/Qwen3-0.6B");
  auto spec = endpoints::find_spec(c.endpoint_type);
  if (!spec) return tl::unexpected(spec.error());
  if (c.arrival_smoothness) {
    if (c.arrival_pattern != ArrivalPattern::kGamma)
      return bad("--arrival-smoothness applies only to the gamma pattern; add --arrival-pattern gamma or drop it");
    if (!(*c.arrival_smoothness > 0)) return bad("--arrival-smoothness must be > 0 (1 = Poisson)");
  }
  if (auto st = validate_parity(c); !st) return st;
  if (auto st = validate_agentic(c); !st) return st;  // config/scenario.h
  if (auto st = validate_prompt_options(c); !st) return st;
  if (c.arrival_pattern_given && !c.request_rate && c.parity.request_rate_series.empty())
    return bad("--arrival-pattern needs --request-rate; add a rate or drop the pattern");
  if (c.grace_period_ns && !c.benchmark_duration_ns)
    return bad("--benchmark-grace-period applies only with --benchmark-duration; add a duration or drop it");
  if (c.benchmark_duration_ns && *c.benchmark_duration_ns <= 0)
    return bad("--benchmark-duration must be > 0 seconds");
  if (c.warmup_duration_ns && *c.warmup_duration_ns <= 0) return bad("--warmup-duration must be > 0 seconds");
  if (c.prefill_concurrency) {
    if (!c.streaming) return bad("--prefill-concurrency needs --streaming (the first token ends prefill)");
    if (c.concurrency && *c.prefill_concurrency > *c.concurrency)
      return bad(fmt::format("--prefill-concurrency {} exceeds --concurrency {}; lower it to at most {}",
                             *c.prefill_concurrency, *c.concurrency, *c.concurrency));
  }
  if (c.cancellation_rate_pct < 0 || c.cancellation_rate_pct > 100)
    return bad("--request-cancellation-rate must be a percentage between 0 and 100");
  if (c.cancellation_delay_ns && c.cancellation_rate_pct <= 0)
    return bad("--request-cancellation-delay needs --request-cancellation-rate; add a rate or drop the delay");
  if (c.concurrency_ramp_ns) {
    if (!c.concurrency) return bad("--concurrency-ramp-duration needs --concurrency");
    if (*c.concurrency_ramp_ns <= 0) return bad("--concurrency-ramp-duration must be > 0 seconds");
  }
  if (c.request_rate_ramp_ns) {
    if (!c.request_rate) return bad("--request-rate-ramp-duration needs --request-rate");
    if (*c.request_rate_ramp_ns <= 0) return bad("--request-rate-ramp-duration must be > 0 seconds");
  }
  if (!c.public_dataset.empty() && !c.input_file.empty())
    return bad("--public-dataset and --input-file both name the prompts; keep one");
  if (!c.public_dataset.empty() && !c.custom_dataset_type.empty())
    return bad("--custom-dataset-type does not apply to --public-dataset (its format is known); drop it");
  if (c.public_dataset.empty() && !c.hf_subset.empty()) return bad("--hf-subset needs --public-dataset");
  if (c.public_dataset.empty() && !c.dataset_filters.empty()) return bad("--dataset-filter needs --public-dataset");
  if (c.input_file.empty() && !c.custom_dataset_type.empty()) return bad("--custom-dataset-type needs --input-file");
  const bool trace_public = c.public_dataset == "weka_hf" || c.public_dataset.rfind("semianalysis_cc_traces_weka", 0) == 0;
  if (c.input_file.empty() && !trace_public) {  // a weka --public-dataset is a trace too
    if (c.isl_block_size > 0) return bad("--isl-block-size needs --input-file (a trace with hash_ids)");
    if (c.fixed_schedule.value_or(false)) return bad("--fixed-schedule needs --input-file with timestamps");
  }
  const bool fs_options = c.fixed_schedule_auto_offset || c.fixed_schedule_start_offset_ms || c.fixed_schedule_end_offset_ms;
  if (fs_options && !c.fixed_schedule.value_or(false))
    return bad("--fixed-schedule-auto-offset/-start-offset/-end-offset need --fixed-schedule");
  if (c.fixed_schedule_start_offset_ms && c.fixed_schedule_end_offset_ms &&
      *c.fixed_schedule_start_offset_ms > *c.fixed_schedule_end_offset_ms)
    return bad("--fixed-schedule-start-offset is after --fixed-schedule-end-offset");
  if (c.fixed_schedule.value_or(false)) {
    if (c.request_rate) return bad("--fixed-schedule sends at the file's timestamps; drop --request-rate");
    if (c.has_warmup())
      return bad("--fixed-schedule with a warm-up phase is not supported yet; drop the warm-up flags");
  }
  for (const auto& [flag, ratio, stddev] : {std::tuple{"--isl-range-ratio", c.isl_range_ratio, c.isl_stddev_tokens},
                                            std::tuple{"--osl-range-ratio", c.osl_range_ratio, c.osl_stddev_tokens}}) {
    if (!ratio) continue;
    const bool ok = c.range_ratio_sglang ? (*ratio > 0 && *ratio <= 1) : (*ratio >= 0 && *ratio < 1);
    if (!ok)
      return bad(fmt::format("{} {} is out of range; with --range-ratio-style {} use {}", flag, *ratio,
                             c.range_ratio_sglang ? "sglang" : "vllm", c.range_ratio_sglang ? "0 < r <= 1" : "0 <= r < 1"));
    if (stddev > 0) return bad(fmt::format("{} replaces the stddev; drop one of them", flag));
  }
  if (c.osl_range_ratio && c.osl_mean_tokens <= 0) return bad("--osl-range-ratio needs --osl");
  if (!(c.isl_mean_tokens >= 1)) return bad("--isl must be at least 1 token");
  // Lengths beyond any model's context are typos (and would overflow conversions downstream).
  constexpr double kMaxTokens = 100'000'000;
  for (const auto& [flag, v] : {std::pair{"--isl", c.isl_mean_tokens}, std::pair{"--isl-stddev", c.isl_stddev_tokens},
                                std::pair{"--osl", c.osl_mean_tokens}, std::pair{"--osl-stddev", c.osl_stddev_tokens}})
    if (v > kMaxTokens) return bad(fmt::format("{} {} is beyond any model's context; use at most {:.0f} tokens", flag, v, kMaxTokens));
  if (c.isl_stddev_tokens < 0) return bad("--isl-stddev must be >= 0");
  if (c.osl_stddev_tokens < 0) return bad("--osl-stddev must be >= 0");
  if (c.osl_stddev_tokens > 0 && c.osl_mean_tokens <= 0) return bad("--osl-stddev needs --osl");
  if (c.request_timeout_ns <= 0) return bad("--request-timeout-seconds must be > 0");
  // Sessions and shared prompts (AIPerf's rules, aiperf-inventory.md §1.4).
  if (c.warmup_request_count && c.num_warmup_sessions)
    return bad("--warmup-request-count and --num-warmup-sessions both size the warm-up; keep one");
  if (c.request_count && c.num_sessions)
    return bad("--request-count and --num-sessions both set how long the run is; keep one");
  if (c.session_turns_mean < 1) return bad("--session-turns-mean must be at least 1");
  if (c.session_delay_ratio < 0) return bad("--session-delay-ratio must be >= 0");
  if ((c.prefix_prompt_pool_size > 0) != (c.prefix_prompt_length > 0))
    return bad("--prefix-prompt-pool-size and --prefix-prompt-length go together; set both (or neither)");
  if (c.fixed_schedule.value_or(false) && c.sampling_strategy != SamplingStrategyName::kDefault)
    return bad("--dataset-sampling-strategy does not apply to --fixed-schedule (rows are sent in timestamp order)");
  if (!c.sequence_distribution.empty() && (c.isl_range_ratio || c.osl_range_ratio))
    return bad("--sequence-distribution sets the lengths; drop --isl-range-ratio/--osl-range-ratio");
  if (c.user_centric_rate || c.num_users) {
    if (!c.user_centric_rate) return bad("--num-users needs --user-centric-rate");
    if (!c.num_users) return bad("--user-centric-rate needs --num-users (how many users share the rate)");
    if (c.request_rate) return bad("--user-centric-rate and --request-rate are two load modes; keep one");
    if (c.request_rate_ramp_ns) return bad("--request-rate-ramp-duration does not apply to --user-centric-rate");
    if (c.fixed_schedule.value_or(false)) return bad("--user-centric-rate does not apply to --fixed-schedule");
    if (c.input_file.empty() && c.session_turns_mean < 2)
      return bad("--user-centric-rate needs multi-turn sessions; add --session-turns-mean 2 or more");
    if (c.has_warmup())
      return bad("--user-centric-rate with a warm-up phase is not supported yet; drop the warm-up flags");
  }
  if (c.media_pool_size > 0 && (!c.media_enabled() || !c.input_file.empty() || !c.public_dataset.empty()))
    return bad("--media-pool-size reuses synthetic media: it needs --image-*, --audio-* or --video-* sizes and "
               "synthetic prompts (no --input-file/--public-dataset); drop it or add them");
  endpoints::OptionFacts facts;
  facts.streaming = c.streaming;
  facts.cache_bust = c.cache_bust != CacheBust::kNone;
  facts.shared_prompts = c.shared_system_prompt_length > 0 || c.user_context_prompt_length > 0;
  facts.multi_turn = c.multi_turn_synthetic() && c.input_file.empty() && c.public_dataset.empty();
  facts.batch_size = c.batch_size;
  facts.warmup = c.has_warmup();
  facts.fixed_schedule = c.fixed_schedule.value_or(false) ||
                         (!c.input_file.empty() && c.custom_dataset_type == "mooncake_trace");
  facts.input_file = !c.input_file.empty() || !c.public_dataset.empty();
  facts.rankings_flags = c.rankings_flags_given;
  facts.download_video = c.download_video_content;
  facts.per_chunk_usage = c.per_chunk_usage;
  facts.server_token_count = c.use_server_token_count;
  facts.media = c.media_enabled() || c.image_width_mean > 0 || c.image_height_mean > 0 ||
                c.video_width > 0 || c.video_height > 0;
  facts.media_audio = c.audio_length_mean_s > 0;
  facts.media_video = c.video_width > 0 || c.video_height > 0;
  if (facts.media) {
    media::MediaOptions mo;
    mo.image.format = c.image_format;
    mo.image.source = c.image_source;
    mo.image.source_sampling = c.image_source_sampling;
    mo.image.width_mean = c.image_width_mean;
    mo.image.height_mean = c.image_height_mean;
    mo.audio.format = c.audio_format;
    mo.audio.sample_rates_khz = c.audio_sample_rates_khz;
    mo.audio.depths.assign(c.audio_depths.begin(), c.audio_depths.end());
    mo.audio.channels = static_cast<int>(c.audio_num_channels);
    mo.audio.length_mean_s = c.audio_length_mean_s;
    mo.video = video_options(c);
    if (auto st = media::check_media_options(mo); !st) return st;
  }
  facts.isl_given = c.isl_mean_tokens != BenchmarkConfig{}.isl_mean_tokens ||
                    c.isl_stddev_tokens != 0 || c.isl_range_ratio.has_value() ||
                    !c.sequence_distribution.empty();
  return endpoints::check_options(**spec, facts);
}

std::string to_json(const BenchmarkConfig& c) {
  using nlohmann::json;
  struct ToJson {
    json operator()(std::nullptr_t) const { return nullptr; }
    json operator()(bool b) const { return b; }
    json operator()(int64_t i) const { return i; }
    json operator()(double d) const { return d; }
    json operator()(const std::string& s) const { return s; }
    json operator()(const std::vector<std::string>& list) const { return list; }
    json operator()(const RawJson& raw) const { return json::parse(raw.text, nullptr, false); }
  };
  json j = json::object();
  for (const FlagSpec& flag : profile_flags()) {
    if (flag.json_key.empty()) continue;
    j[json::json_pointer(flag.json_key)] = std::visit(ToJson{}, flag.to_json(c));
  }
  j["cli_command"] = c.cli_command;
  j["environment"] = json::parse(core::env_snapshot_json());  // docs/environment.md; redacted
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace servebench::config
