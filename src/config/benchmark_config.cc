#include "config/benchmark_config.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/env.h"

namespace servebench::config {
namespace {

tl::unexpected<Error> bad(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

std::string fmt_number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{}", v);
}

double ns_to_s(int64_t ns) { return ns == kInfiniteNs ? INFINITY : static_cast<double>(ns) / 1e9; }

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
  if (c.endpoint_type.empty()) return bad("--endpoint-type is empty; use chat or completions");
  if (c.arrival_smoothness) {
    if (c.arrival_pattern != ArrivalPattern::kGamma)
      return bad("--arrival-smoothness applies only to the gamma pattern; add --arrival-pattern gamma or drop it");
    if (!(*c.arrival_smoothness > 0)) return bad("--arrival-smoothness must be > 0 (1 = Poisson)");
  }
  if (c.arrival_pattern_given && !c.request_rate)
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
  if (c.input_file.empty()) {
    if (!c.custom_dataset_type.empty()) return bad("--custom-dataset-type needs --input-file");
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
  if (c.cache_bust != CacheBust::kNone && c.endpoint_type != "chat")
    return bad("--cache-bust needs --endpoint-type chat (the marker goes into a chat message)");
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
  if (c.streaming && c.endpoint_type != "chat" && c.endpoint_type != "completions") {
    // Other endpoint types decide for themselves whether they stream (checked by the registry).
  }
  return {};
}

std::string to_json(const BenchmarkConfig& c) {
  using nlohmann::json;
  json j;
  json ep;
  ep["model_names"] = c.models;
  ep["urls"] = c.urls;
  ep["type"] = c.endpoint_type;
  ep["custom_endpoint"] = c.custom_endpoint.empty() ? json(nullptr) : json(c.custom_endpoint);
  ep["streaming"] = c.streaming;
  ep["api_key"] = c.api_key.empty() ? json(nullptr) : json("<redacted>");
  ep["timeout_seconds"] = ns_to_s(c.request_timeout_ns);
  ep["http_version"] = c.http_version == 2 ? "2" : "1.1";
  ep["insecure_tls"] = c.insecure_tls;
  ep["connection_reuse_strategy"] = connection_reuse_name(c.connection_reuse);
  ep["use_legacy_max_tokens"] = c.use_legacy_max_tokens;
  ep["use_server_token_count"] = c.use_server_token_count;
  j["endpoint"] = ep;
  json headers = json::array();
  for (const auto& h : c.headers) {
    std::string name = h.substr(0, h.find(':'));
    std::string lower;
    for (char ch : name) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    const bool secret = lower == "authorization" || lower == "x-api-key" || lower == "api-key" ||
                        lower == "proxy-authorization" || lower == "cookie";
    headers.push_back(secret ? name + ": <redacted>" : h);
  }
  json input;
  input["headers"] = headers;
  input["extra"] = c.extra_inputs_json.empty() ? json::object() : json::parse(c.extra_inputs_json, nullptr, false);
  input["num_dataset_entries"] = c.num_dataset_entries;
  input["random_seed"] = c.random_seed ? json(*c.random_seed) : json(nullptr);
  input["prompt"]["input_tokens"] = {{"mean", c.isl_mean_tokens}, {"stddev", c.isl_stddev_tokens}};
  input["prompt"]["output_tokens"] = {
      {"mean", c.osl_mean_tokens > 0 ? json(c.osl_mean_tokens) : json(nullptr)},
      {"stddev", c.osl_stddev_tokens}};
  input["prompt"]["input_tokens"]["range_ratio"] = c.isl_range_ratio ? json(*c.isl_range_ratio) : json(nullptr);
  input["prompt"]["output_tokens"]["range_ratio"] = c.osl_range_ratio ? json(*c.osl_range_ratio) : json(nullptr);
  input["prompt"]["range_ratio_style"] = c.range_ratio_sglang ? "sglang" : "vllm";
  input["file"] = c.input_file.empty() ? json(nullptr) : json(c.input_file);
  input["custom_dataset_type"] = c.custom_dataset_type.empty() ? json(nullptr) : json(c.custom_dataset_type);
  input["isl_block_size"] = c.isl_block_size > 0 ? json(c.isl_block_size) : json(nullptr);
  input["fixed_schedule"] = c.fixed_schedule ? json(*c.fixed_schedule) : json(nullptr);
  input["fixed_schedule_auto_offset"] = c.fixed_schedule_auto_offset;
  input["sequence_distribution"] = c.sequence_distribution.empty() ? json(nullptr) : json(c.sequence_distribution);
  input["dataset_sampling_strategy"] = c.sampling_strategy == SamplingStrategyName::kRandom       ? json("random")
                                       : c.sampling_strategy == SamplingStrategyName::kSequential ? json("sequential")
                                       : c.sampling_strategy == SamplingStrategyName::kShuffle    ? json("shuffle")
                                                                                                  : json(nullptr);
  json conv;
  conv["num"] = c.num_sessions ? json(*c.num_sessions) : json(nullptr);
  conv["turn"] = {{"mean", c.session_turns_mean}, {"stddev", c.session_turns_stddev}};
  conv["turn"]["delay"] = {{"mean", c.session_turn_delay_mean_ms}, {"stddev", c.session_turn_delay_stddev_ms},
                           {"ratio", c.session_delay_ratio}};
  input["conversation"] = conv;
  input["prompt"]["prefix_prompt"] = {{"pool_size", c.prefix_prompt_pool_size}, {"length", c.prefix_prompt_length}};
  input["prompt"]["shared_system_prompt_length"] =
      c.shared_system_prompt_length > 0 ? json(c.shared_system_prompt_length) : json(nullptr);
  input["prompt"]["user_context_prompt_length"] =
      c.user_context_prompt_length > 0 ? json(c.user_context_prompt_length) : json(nullptr);
  input["cache_bust"] = cache_bust_name(c.cache_bust);
  ep["session_header"] = c.session_header;
  ep["reset_kv_cache"] = c.reset_kv_cache ? json({{"path", c.reset_kv_cache_path},
                                                  {"timeout_seconds", ns_to_s(c.reset_kv_cache_timeout_ns)}})
                                          : json(false);
  j["endpoint"] = ep;
  j["input"] = input;
  j["tokenizer"] = {{"name", c.tokenizer}, {"revision", c.tokenizer_revision}};
  json lg;
  auto opt_i = [](const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); };
  auto opt_s = [](const std::optional<int64_t>& v) { return v ? json(ns_to_s(*v)) : json(nullptr); };
  lg["concurrency"] = opt_i(c.concurrency);
  lg["request_rate"] = c.request_rate ? json(*c.request_rate) : json(nullptr);
  lg["arrival_pattern"] = arrival_pattern_name(c.arrival_pattern);
  lg["arrival_smoothness"] = c.arrival_smoothness ? json(*c.arrival_smoothness) : json(nullptr);
  lg["request_count"] = opt_i(c.effective_request_count());
  lg["benchmark_duration"] = opt_s(c.benchmark_duration_ns);
  lg["benchmark_grace_period"] = c.benchmark_duration_ns ? json(ns_to_s(c.effective_grace_ns())) : json(nullptr);
  lg["warmup_request_count"] = opt_i(c.warmup_request_count);
  lg["num_warmup_sessions"] = opt_i(c.num_warmup_sessions);
  lg["warmup_duration"] = opt_s(c.warmup_duration_ns);
  lg["concurrency_ramp_duration"] = opt_s(c.concurrency_ramp_ns);
  lg["request_rate_ramp_duration"] = opt_s(c.request_rate_ramp_ns);
  lg["prefill_concurrency"] = opt_i(c.prefill_concurrency);
  lg["request_cancellation_rate"] = c.cancellation_rate_pct;
  lg["request_cancellation_delay"] = c.cancellation_delay_ns ? json(ns_to_s(*c.cancellation_delay_ns)) : json(0.0);
  lg["workers_max"] = opt_i(c.workers_max);
  lg["user_centric_rate"] = c.user_centric_rate ? json(*c.user_centric_rate) : json(nullptr);
  lg["num_users"] = opt_i(c.num_users);
  j["loadgen"] = lg;
  json out;
  out["artifact_directory"] = c.artifact_dir;
  out["profile_export_prefix"] = c.profile_export_prefix.empty() ? json(nullptr) : json(c.profile_export_prefix);
  out["export_level"] = c.export_level == ExportLevelName::kSummary ? "summary"
                        : c.export_level == ExportLevelName::kRaw   ? "raw"
                                                                    : "records";
  out["slice_duration"] = c.slice_duration_ns ? json(ns_to_s(c.slice_duration_ns)) : json(nullptr);
  j["output"] = out;
  j["goodput"] = c.goodput.empty() ? json(nullptr) : json(c.goodput);
  j["fail_on"] = c.fail_on.empty() ? json(nullptr) : json(c.fail_on);
  j["cli_command"] = c.cli_command;
  j["environment"] = json::parse(core::env_snapshot_json());  // docs/environment.md; redacted
  return j.dump();
}

}  // namespace servebench::config
