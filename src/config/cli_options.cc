#include "config/cli_options.h"

#include <cmath>
#include <optional>
#include <tuple>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/units.h"
#include "endpoints/registry.h"

namespace servebench::config {
namespace {

Error usage(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

// Raw flag values as typed by the user; converted after CLI11 is done so every conversion error
// names its flag.
struct RawFlags {
  std::vector<std::string> models, urls, headers, extra_inputs;
  std::string endpoint_type = "chat", custom_endpoint, api_key;
  bool streaming = false, legacy_max_tokens = false, server_token_count = false, insecure = false;
  std::string request_timeout, http_version = "1.1", connection_reuse = "pooled";
  std::string tokenizer, tokenizer_revision = "main";
  std::string num_dataset_entries, isl, isl_stddev, osl, osl_stddev, random_seed;
  std::string input_file, dataset_type, block_size, fs_start, fs_end;
  std::string isl_range_ratio, osl_range_ratio, range_ratio_style;
  bool fixed_schedule = false, no_fixed_schedule = false, fs_auto_offset = false;
  std::string concurrency, request_rate, arrival_pattern, smoothness, request_count;
  std::string warmup_sessions;
  std::string duration, grace, warmup_count, warmup_duration, concurrency_ramp, rate_ramp;
  std::string prefill_concurrency, cancel_rate, cancel_delay, workers_max;
  std::string seq_dist, sampling, num_sessions, turns_mean, turns_stddev, delay_mean, delay_stddev, delay_ratio;
  std::string prefix_pool, prefix_len, system_len, user_context_len, cache_bust, batch_size;
  std::string session_header = "X-Correlation-ID";
  bool reset_kv = false;
  std::string reset_kv_path, reset_kv_timeout, user_centric_rate, num_users;
  std::string artifact_dir = "artifacts", prefix, export_level = "records", goodput, slice, fail_on;
  int verbose = 0;
  bool quiet = false;
};

void define_flags(CLI::App& app, RawFlags& f) {
  // Endpoint.
  app.add_option("-m,--model,--model-names", f.models, "Model name(s); the first is sent")
      ->delimiter(',');
  app.add_option("-u,--url", f.urls, "Server base URL(s), repeatable: round robin")
      ->delimiter(',');
  app.add_option("--endpoint-type", f.endpoint_type, "API type: " + endpoints::type_names());
  app.add_option("-b,--batch-size,--batch-size-text,--prompt-batch-size", f.batch_size, "Texts per request (embeddings)");
  app.add_option("--custom-endpoint,--endpoint", f.custom_endpoint, "URL path overriding the type's default");
  app.add_flag("--streaming", f.streaming, "Request SSE streaming (needed for TTFT/ITL)");
  app.add_option("--api-key", f.api_key, "Sent as 'Authorization: Bearer <key>' (never exported)");
  app.add_option("-H,--header", f.headers, "Extra HTTP header 'Name: value' (repeatable)");
  app.add_option("--extra-inputs", f.extra_inputs, "key:value or JSON object merged into every body");
  app.add_option("--request-timeout-seconds", f.request_timeout, "Whole-request timeout (default 21600)");
  app.add_option("--http-version", f.http_version, "1.1 or 2 (HTTP/2 multiplexing)");
  app.add_flag("--insecure", f.insecure, "Do not verify TLS certificates (self-signed test servers)");
  app.add_option("--connection-reuse-strategy", f.connection_reuse, "pooled, never, sticky-user-sessions");
  app.add_flag("--use-legacy-max-tokens", f.legacy_max_tokens, "Send max_tokens instead of max_completion_tokens");
  app.add_flag("--use-server-token-count", f.server_token_count, "Use the server's usage for token counts");
  // Tokenizer.
  app.add_option("--tokenizer", f.tokenizer, "builtin, simple, a tokenizer.json path or a hub id");
  app.add_option("--tokenizer-revision", f.tokenizer_revision, "Hub revision (default main)");
  // Input.
  app.add_option("--num-dataset-entries,--num-prompts", f.num_dataset_entries, "Unique prompts (default 100)");
  app.add_option("--synthetic-input-tokens-mean,--prompt-input-tokens-mean,--isl", f.isl, "Mean input tokens (default 550)");
  app.add_option("--synthetic-input-tokens-stddev,--prompt-input-tokens-stddev,--isl-stddev", f.isl_stddev, "Input tokens stddev");
  app.add_option("--output-tokens-mean,--prompt-output-tokens-mean,--osl", f.osl, "Mean max output tokens");
  app.add_option("--output-tokens-stddev,--prompt-output-tokens-stddev,--osl-stddev", f.osl_stddev, "Output tokens stddev");
  app.add_option("--random-seed", f.random_seed, "Seed for prompts and arrivals");
  app.add_option("--isl-range-ratio", f.isl_range_ratio, "Uniform input lengths around --isl (see --range-ratio-style)");
  app.add_option("--osl-range-ratio", f.osl_range_ratio, "Uniform output lengths around --osl (see --range-ratio-style)");
  app.add_option("--range-ratio-style", f.range_ratio_style,
                 "vllm: [L(1-r), L(1+r)] (default); sglang: [L*r, L]");
  app.add_option("--sequence-distribution,--seq-dist", f.seq_dist, "Joint ISL,OSL mix 'ISL,OSL:pct;...'");
  app.add_option("--dataset-sampling-strategy", f.sampling, "random, sequential or shuffle");
  app.add_option("--num-sessions,--num-conversations,--conversation-num", f.num_sessions,
                 "Sessions to run (instead of --request-count)");
  app.add_option("--session-turns-mean,--conversation-turn-mean", f.turns_mean, "Mean turns per session (default 1)");
  app.add_option("--session-turns-stddev,--conversation-turn-stddev", f.turns_stddev, "Turns per session stddev");
  app.add_option("--session-turn-delay-mean,--conversation-turn-delay-mean", f.delay_mean,
                 "Mean delay before turns 2..n (ms)");
  app.add_option("--session-turn-delay-stddev,--conversation-turn-delay-stddev", f.delay_stddev,
                 "Turn delay stddev (ms)");
  app.add_option("--session-delay-ratio,--conversation-turn-delay-ratio", f.delay_ratio,
                 "Multiplier on every turn delay (default 1)");
  app.add_option("--prefix-prompt-pool-size,--prompt-prefix-pool-size,--num-prefix-prompts", f.prefix_pool,
                 "Shared prefixes drawn for first turns");
  app.add_option("--prefix-prompt-length,--prompt-prefix-length", f.prefix_len, "Tokens per shared prefix");
  app.add_option("--shared-system-prompt-length", f.system_len, "One system prompt (tokens) for every session");
  app.add_option("--user-context-prompt-length", f.user_context_len, "Per-session user context message (tokens)");
  app.add_option("--session-header", f.session_header, "Header carrying the session id (default X-Correlation-ID)");
  app.add_option("--cache-bust", f.cache_bust,
                 "Per-session marker: none, system_prefix, system_suffix, first_turn_prefix, first_turn_suffix");
  app.add_flag("--reset-kv-cache", f.reset_kv, "POST the server's prefix-cache reset path before profiling");
  app.add_option("--reset-kv-cache-path", f.reset_kv_path, "Reset path (default /reset_prefix_cache)");
  app.add_option("--reset-kv-cache-timeout-seconds", f.reset_kv_timeout, "Reset request timeout (default 30)");
  app.add_option("--input-file", f.input_file, "Dataset or trace file (JSONL, CSV, JSON) or folder");
  app.add_option("--custom-dataset-type", f.dataset_type,
                 "single_turn, multi_turn, random_pool, mooncake_trace, bailian_trace, burst_gpt_trace, "
                 "inputs_json, raw_payload, sharegpt (default: detected)");
  app.add_option("--isl-block-size,--synthetic-input-tokens-block-size,--prompt-input-tokens-block-size",
                 f.block_size, "Tokens per trace hash_id (default 512 mooncake, 16 bailian)");
  app.add_flag("--fixed-schedule", f.fixed_schedule, "Send each request at its timestamp (auto with timestamps)");
  app.add_flag("--no-fixed-schedule", f.no_fixed_schedule, "Ignore timestamps in the input file");
  app.add_flag("--fixed-schedule-auto-offset", f.fs_auto_offset, "Shift timestamps so the first is 0");
  app.add_option("--fixed-schedule-start-offset", f.fs_start, "First timestamp (ms) to replay, inclusive");
  app.add_option("--fixed-schedule-end-offset", f.fs_end, "Last timestamp (ms) to replay, inclusive");
  // Load.
  app.add_option("--concurrency", f.concurrency, "Max in-flight requests (closed loop alone)");
  app.add_option("--request-rate", f.request_rate, "Target requests/s (open loop)");
  app.add_option("--arrival-pattern,--request-rate-mode", f.arrival_pattern, "constant, poisson, gamma");
  app.add_option("--arrival-smoothness,--vllm-burstiness", f.smoothness, "Gamma shape (<1 bursty, >1 smooth)");
  app.add_option("--request-count,--num-requests", f.request_count, "Profiling requests to send");
  app.add_option("--benchmark-duration", f.duration, "Stop issuing after this many seconds");
  app.add_option("--benchmark-grace-period", f.grace, "Wait for in-flight requests after the duration (default 30, inf)");
  app.add_option("--warmup-request-count,--num-warmup-requests", f.warmup_count, "Warm-up requests");
  app.add_option("--num-warmup-sessions", f.warmup_sessions, "Warm-up sessions (multi-turn)");
  app.add_option("--warmup-duration", f.warmup_duration, "Warm-up seconds");
  app.add_option("--concurrency-ramp-duration", f.concurrency_ramp, "Ramp concurrency from 1 over this many seconds");
  app.add_option("--request-rate-ramp-duration", f.rate_ramp, "Ramp the request rate over this many seconds");
  app.add_option("--prefill-concurrency", f.prefill_concurrency, "Max requests waiting for their first token");
  app.add_option("--request-cancellation-rate", f.cancel_rate, "Percent of requests to cancel (0-100)");
  app.add_option("--request-cancellation-delay", f.cancel_delay, "Seconds after sending before cancelling");
  app.add_option("--workers-max,--max-workers", f.workers_max, "Worker threads (default cores-1)");
  app.add_option("--user-centric-rate", f.user_centric_rate, "Requests/s over --num-users users, each at a fixed gap");
  app.add_option("--num-users", f.num_users, "Simulated users for --user-centric-rate");
  // Output.
  app.add_option("--artifact-dir,--output-artifact-dir", f.artifact_dir, "Artifact folder (default artifacts)");
  app.add_option("--profile-export-prefix,--profile-export-file", f.prefix, "Rename every export to <prefix>.*");
  app.add_option("--export-level,--profile-export-level", f.export_level, "summary, records, raw");
  app.add_option("--goodput", f.goodput, "SLOs 'tag:value ...'");
  app.add_option("--slice-duration", f.slice, "Time-slice window in seconds");
  app.add_option("--fail-on", f.fail_on, "Gate 'tag.stat>value ...': exit 1 when it holds");
  app.add_flag("-v,--verbose", f.verbose, "More logging (-v debug, -vv trace)");
  app.add_flag("-q,--quiet", f.quiet, "Warnings and errors only");
}

// Each converter returns the error naming `flag` and the expected form.
Result<double> to_double(const std::string& flag, const std::string& v, const char* expect) {
  auto d = core::parse_double(v);
  if (!d) return tl::unexpected(usage(fmt::format("{} '{}' is not a number; expected {}", flag, v, expect)));
  return *d;
}

Result<int64_t> to_count(const std::string& flag, const std::string& v, int64_t min) {
  auto c = core::parse_count(v);
  if (!c || *c < min)
    return tl::unexpected(usage(fmt::format("{} '{}' is invalid; expected an integer >= {}", flag, v, min)));
  return *c;
}

Result<int64_t> to_seconds(const std::string& flag, const std::string& v, bool allow_inf) {
  if (allow_inf && (v == "inf" || v == "infinity" || v == "Infinity")) return kInfiniteNs;
  auto ns = core::parse_duration_ns(v, core::DurationUnit::kSeconds);
  if (!ns)
    return tl::unexpected(usage(fmt::format("{} '{}' is not a duration; expected seconds such as 30, 2.5 or 500ms{}",
                                            flag, v, allow_inf ? " (or inf)" : "")));
  return *ns;
}

Result<std::string> normalize_header(const std::string& h) {
  const size_t colon = h.find(':');
  if (colon == std::string::npos || colon == 0)
    return tl::unexpected(usage(fmt::format("-H/--header '{}' is invalid; expected 'Name: value'", h)));
  std::string name = h.substr(0, colon);
  std::string value = h.substr(colon + 1);
  while (!value.empty() && value.front() == ' ') value.erase(value.begin());
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name + ": " + value;
}

Status convert(const RawFlags& f, BenchmarkConfig* c) {
#define SB_TRY(var, expr)               \
  auto var = (expr);                    \
  if (!var) return tl::unexpected(var.error())

  c->models = f.models;
  for (const auto& u : f.urls) {
    SB_TRY(n, normalize_url(u));
    c->urls.push_back(*n);
  }
  if (c->urls.empty()) c->urls.push_back("http://localhost:8000");
  c->endpoint_type = f.endpoint_type;
  c->custom_endpoint = f.custom_endpoint;
  if (!c->custom_endpoint.empty() && c->custom_endpoint.front() != '/')
    c->custom_endpoint.insert(c->custom_endpoint.begin(), '/');
  c->streaming = f.streaming;
  c->api_key = f.api_key;
  for (const auto& h : f.headers) {
    SB_TRY(n, normalize_header(h));
    c->headers.push_back(*n);
  }
  SB_TRY(extra, merge_extra_inputs(f.extra_inputs));
  c->extra_inputs_json = *extra;
  if (!f.request_timeout.empty()) {
    SB_TRY(t, to_seconds("--request-timeout-seconds", f.request_timeout, false));
    c->request_timeout_ns = *t;
  }
  if (f.http_version == "1.1" || f.http_version == "1") {
    c->http_version = 1;
  } else if (f.http_version == "2" || f.http_version == "2.0") {
    c->http_version = 2;
  } else {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--http-version '{}' is invalid; expected 1.1 or 2", f.http_version));
  }
  if (f.connection_reuse == "pooled") c->connection_reuse = ConnectionReuse::kPooled;
  else if (f.connection_reuse == "never") c->connection_reuse = ConnectionReuse::kNever;
  else if (f.connection_reuse == "sticky-user-sessions" || f.connection_reuse == "sticky_user_sessions")
    c->connection_reuse = ConnectionReuse::kStickyUserSessions;
  else
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--connection-reuse-strategy '{}' is invalid; expected pooled, never or sticky-user-sessions",
                                  f.connection_reuse));
  c->insecure_tls = f.insecure;
  c->use_legacy_max_tokens = f.legacy_max_tokens;
  c->use_server_token_count = f.server_token_count;
  c->tokenizer = f.tokenizer;
  c->tokenizer_revision = f.tokenizer_revision;

  if (!f.num_dataset_entries.empty()) {
    SB_TRY(v, to_count("--num-dataset-entries", f.num_dataset_entries, 1));
    c->num_dataset_entries = *v;
  }
  if (!f.isl.empty()) {
    SB_TRY(v, to_double("--isl", f.isl, "a positive number of tokens"));
    c->isl_mean_tokens = *v;
  }
  if (!f.isl_stddev.empty()) {
    SB_TRY(v, to_double("--isl-stddev", f.isl_stddev, "a number of tokens >= 0"));
    c->isl_stddev_tokens = *v;
  }
  if (!f.osl.empty()) {
    SB_TRY(v, to_double("--osl", f.osl, "a positive number of tokens"));
    c->osl_mean_tokens = *v;
    if (*v <= 0) return make_error(ErrorCode::kInvalidArgument, fmt::format("--osl '{}' must be > 0", f.osl));
  }
  if (!f.osl_stddev.empty()) {
    SB_TRY(v, to_double("--osl-stddev", f.osl_stddev, "a number of tokens >= 0"));
    c->osl_stddev_tokens = *v;
  }
  if (!f.random_seed.empty()) {
    SB_TRY(v, to_count("--random-seed", f.random_seed, 0));
    c->random_seed = static_cast<uint64_t>(*v);
  }
  if (!f.isl_range_ratio.empty()) {
    SB_TRY(v, to_double("--isl-range-ratio", f.isl_range_ratio, "a ratio between 0 and 1"));
    c->isl_range_ratio = *v;
  }
  if (!f.osl_range_ratio.empty()) {
    SB_TRY(v, to_double("--osl-range-ratio", f.osl_range_ratio, "a ratio between 0 and 1"));
    c->osl_range_ratio = *v;
  }
  if (!f.range_ratio_style.empty()) {
    if (f.range_ratio_style == "sglang") c->range_ratio_sglang = true;
    else if (f.range_ratio_style != "vllm")
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--range-ratio-style '{}' is invalid; expected vllm or sglang", f.range_ratio_style));
  }
  c->sequence_distribution = f.seq_dist;
  if (!f.sampling.empty()) {
    if (f.sampling == "random") c->sampling_strategy = SamplingStrategyName::kRandom;
    else if (f.sampling == "sequential") c->sampling_strategy = SamplingStrategyName::kSequential;
    else if (f.sampling == "shuffle") c->sampling_strategy = SamplingStrategyName::kShuffle;
    else
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--dataset-sampling-strategy '{}' is invalid; expected random, sequential or shuffle",
                                    f.sampling));
  }
  if (!f.num_sessions.empty()) {
    SB_TRY(v, to_count("--num-sessions", f.num_sessions, 1));
    c->num_sessions = *v;
  }
  for (const auto& [flag, raw, out] :
       {std::tuple{"--session-turns-mean", &f.turns_mean, &c->session_turns_mean},
        std::tuple{"--session-turns-stddev", &f.turns_stddev, &c->session_turns_stddev},
        std::tuple{"--session-turn-delay-mean", &f.delay_mean, &c->session_turn_delay_mean_ms},
        std::tuple{"--session-turn-delay-stddev", &f.delay_stddev, &c->session_turn_delay_stddev_ms},
        std::tuple{"--session-delay-ratio", &f.delay_ratio, &c->session_delay_ratio}}) {
    if (raw->empty()) continue;
    SB_TRY(v, to_double(flag, *raw, "a number >= 0"));
    if (!(*v >= 0)) return make_error(ErrorCode::kInvalidArgument, fmt::format("{} '{}' must be >= 0", flag, *raw));
    *out = *v;
  }
  for (const auto& [flag, raw, out] :
       {std::tuple{"--prefix-prompt-pool-size", &f.prefix_pool, &c->prefix_prompt_pool_size},
        std::tuple{"--prefix-prompt-length", &f.prefix_len, &c->prefix_prompt_length},
        std::tuple{"--shared-system-prompt-length", &f.system_len, &c->shared_system_prompt_length},
        std::tuple{"--user-context-prompt-length", &f.user_context_len, &c->user_context_prompt_length},
        std::tuple{"--batch-size", &f.batch_size, &c->batch_size}}) {
    if (raw->empty()) continue;
    SB_TRY(v, to_count(flag, *raw, 0));
    *out = *v;
  }
  {
    if (f.session_header.empty() || f.session_header.find_first_of(": \t\r\n") != std::string::npos)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--session-header '{}' is not a header name; give just the name, e.g. X-Session-ID",
                                    f.session_header));
    c->session_header = f.session_header;
  }
  if (!f.cache_bust.empty()) {
    if (f.cache_bust == "none") c->cache_bust = CacheBust::kNone;
    else if (f.cache_bust == "system_prefix") c->cache_bust = CacheBust::kSystemPrefix;
    else if (f.cache_bust == "system_suffix") c->cache_bust = CacheBust::kSystemSuffix;
    else if (f.cache_bust == "first_turn_prefix") c->cache_bust = CacheBust::kFirstTurnPrefix;
    else if (f.cache_bust == "first_turn_suffix") c->cache_bust = CacheBust::kFirstTurnSuffix;
    else
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--cache-bust '{}' is invalid; expected none, system_prefix, system_suffix, "
                                    "first_turn_prefix or first_turn_suffix",
                                    f.cache_bust));
  }
  c->reset_kv_cache = f.reset_kv || !f.reset_kv_path.empty() || !f.reset_kv_timeout.empty();
  if (!f.reset_kv_path.empty()) {
    c->reset_kv_cache_path = f.reset_kv_path;
    if (c->reset_kv_cache_path.front() != '/') c->reset_kv_cache_path.insert(c->reset_kv_cache_path.begin(), '/');
  }
  if (!f.reset_kv_timeout.empty()) {
    SB_TRY(v, to_seconds("--reset-kv-cache-timeout-seconds", f.reset_kv_timeout, false));
    if (*v <= 0) return make_error(ErrorCode::kInvalidArgument, "--reset-kv-cache-timeout-seconds must be > 0");
    c->reset_kv_cache_timeout_ns = *v;
  }
  c->input_file = f.input_file;
  c->custom_dataset_type = f.dataset_type;
  if (!f.block_size.empty()) {
    SB_TRY(v, to_count("--isl-block-size", f.block_size, 1));
    c->isl_block_size = *v;
  }
  if (f.fixed_schedule && f.no_fixed_schedule)
    return make_error(ErrorCode::kInvalidArgument, "--fixed-schedule and --no-fixed-schedule contradict; keep one");
  if (f.fixed_schedule) c->fixed_schedule = true;
  if (f.no_fixed_schedule) c->fixed_schedule = false;
  c->fixed_schedule_auto_offset = f.fs_auto_offset;
  if (!f.fs_start.empty()) {
    SB_TRY(v, to_count("--fixed-schedule-start-offset", f.fs_start, 0));
    c->fixed_schedule_start_offset_ms = *v;
  }
  if (!f.fs_end.empty()) {
    SB_TRY(v, to_count("--fixed-schedule-end-offset", f.fs_end, 0));
    c->fixed_schedule_end_offset_ms = *v;
  }
  if (!f.concurrency.empty()) {
    SB_TRY(v, to_count("--concurrency", f.concurrency, 1));
    c->concurrency = *v;
  }
  if (!f.request_rate.empty()) {
    SB_TRY(v, to_double("--request-rate", f.request_rate, "requests per second > 0"));
    if (!(*v > 0))
      return make_error(ErrorCode::kInvalidArgument, fmt::format("--request-rate '{}' must be > 0", f.request_rate));
    c->request_rate = *v;
  }
  if (!f.arrival_pattern.empty()) {
    c->arrival_pattern_given = true;
    if (f.arrival_pattern == "constant") c->arrival_pattern = ArrivalPattern::kConstant;
    else if (f.arrival_pattern == "poisson") c->arrival_pattern = ArrivalPattern::kPoisson;
    else if (f.arrival_pattern == "gamma") c->arrival_pattern = ArrivalPattern::kGamma;
    else
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--arrival-pattern '{}' is invalid; expected constant, poisson or gamma",
                                    f.arrival_pattern));
  }
  if (!f.smoothness.empty()) {
    SB_TRY(v, to_double("--arrival-smoothness", f.smoothness, "a gamma shape > 0"));
    c->arrival_smoothness = *v;
  }
  if (!f.request_count.empty()) {
    SB_TRY(v, to_count("--request-count", f.request_count, 1));
    c->request_count = *v;
  }
  if (!f.duration.empty()) {
    SB_TRY(v, to_seconds("--benchmark-duration", f.duration, false));
    c->benchmark_duration_ns = *v;
  }
  if (!f.grace.empty()) {
    SB_TRY(v, to_seconds("--benchmark-grace-period", f.grace, true));
    c->grace_period_ns = *v;
  }
  if (!f.warmup_sessions.empty()) {
    SB_TRY(v, to_count("--num-warmup-sessions", f.warmup_sessions, 1));
    c->num_warmup_sessions = *v;
  }
  if (!f.warmup_count.empty()) {
    SB_TRY(v, to_count("--warmup-request-count", f.warmup_count, 1));
    c->warmup_request_count = *v;
  }
  if (!f.warmup_duration.empty()) {
    SB_TRY(v, to_seconds("--warmup-duration", f.warmup_duration, false));
    c->warmup_duration_ns = *v;
  }
  if (!f.concurrency_ramp.empty()) {
    SB_TRY(v, to_seconds("--concurrency-ramp-duration", f.concurrency_ramp, false));
    c->concurrency_ramp_ns = *v;
  }
  if (!f.rate_ramp.empty()) {
    SB_TRY(v, to_seconds("--request-rate-ramp-duration", f.rate_ramp, false));
    c->request_rate_ramp_ns = *v;
  }
  if (!f.prefill_concurrency.empty()) {
    SB_TRY(v, to_count("--prefill-concurrency", f.prefill_concurrency, 1));
    c->prefill_concurrency = *v;
  }
  if (!f.cancel_rate.empty()) {
    SB_TRY(v, to_double("--request-cancellation-rate", f.cancel_rate, "a percentage 0-100"));
    c->cancellation_rate_pct = *v;
  }
  if (!f.cancel_delay.empty()) {
    SB_TRY(v, to_seconds("--request-cancellation-delay", f.cancel_delay, false));
    c->cancellation_delay_ns = *v;
  }
  if (!f.workers_max.empty()) {
    SB_TRY(v, to_count("--workers-max", f.workers_max, 1));
    c->workers_max = *v;
  }
  if (!f.user_centric_rate.empty()) {
    SB_TRY(v, to_double("--user-centric-rate", f.user_centric_rate, "requests per second > 0"));
    if (!(*v > 0))
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--user-centric-rate '{}' must be > 0", f.user_centric_rate));
    c->user_centric_rate = *v;
  }
  if (!f.num_users.empty()) {
    SB_TRY(v, to_count("--num-users", f.num_users, 1));
    c->num_users = *v;
  }
  c->artifact_dir = f.artifact_dir;
  c->profile_export_prefix = f.prefix;
  if (f.export_level == "summary") c->export_level = ExportLevelName::kSummary;
  else if (f.export_level == "records") c->export_level = ExportLevelName::kRecords;
  else if (f.export_level == "raw") c->export_level = ExportLevelName::kRaw;
  else
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--export-level '{}' is invalid; expected summary, records or raw", f.export_level));
  c->goodput = f.goodput;
  if (!f.slice.empty()) {
    SB_TRY(v, to_seconds("--slice-duration", f.slice, false));
    c->slice_duration_ns = *v;
  }
  c->fail_on = f.fail_on;
  c->verbosity = f.quiet ? 0 : 1 + f.verbose;
#undef SB_TRY
  return {};
}

// Error messages echo user input; control characters would break the one-line rule.
std::string one_line(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '\n') out += "\\n";
    else if (ch == '\r') out += "\\r";
    else if (ch == '\t') out += "\\t";
    else if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(ch));
    else out.push_back(ch);
  }
  return out;
}

bool is_secret_header(std::string_view h) {
  std::string lower;
  for (char ch : h.substr(0, h.find(':'))) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  return lower == "authorization" || lower == "x-api-key" || lower == "api-key" ||
         lower == "proxy-authorization" || lower == "cookie";
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t\n'\"\\$`!*?[]{}()<>|&;#~") == std::string::npos) return s;
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') out += "'\\''";
    else out.push_back(ch);
  }
  return out + "'";
}

}  // namespace

Result<std::string> normalize_url(const std::string& url) {
  std::string u = url;
  if (u.empty()) return make_error(ErrorCode::kInvalidArgument, "-u/--url is empty; expected e.g. http://localhost:8000");
  if (u.find("://") == std::string::npos) u = "http://" + u;
  if (u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("-u/--url '{}' has an unsupported scheme; use http:// or https://", url));
  const size_t host_start = u.find("://") + 3;
  if (host_start >= u.size() || u[host_start] == '/' || u[host_start] == ':')
    return make_error(ErrorCode::kInvalidArgument, fmt::format("-u/--url '{}' has no host", url));
  while (u.size() > host_start && u.back() == '/') u.pop_back();
  return u;
}

Result<std::string> merge_extra_inputs(const std::vector<std::string>& entries) {
  if (entries.empty()) return std::string();
  nlohmann::json merged = nlohmann::json::object();
  for (const auto& e : entries) {
    std::string_view sv(e);
    while (!sv.empty() && sv.front() == ' ') sv.remove_prefix(1);
    if (!sv.empty() && sv.front() == '{') {
      auto j = nlohmann::json::parse(sv, nullptr, false);
      if (j.is_discarded() || !j.is_object())
        return make_error(ErrorCode::kInvalidArgument,
                          fmt::format("--extra-inputs '{}' is not a valid JSON object", e));
      merged.update(j);
      continue;
    }
    const size_t colon = sv.find(':');
    if (colon == std::string_view::npos || colon == 0)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--extra-inputs '{}' is invalid; expected key:value or a JSON object", e));
    const std::string key(sv.substr(0, colon));
    const std::string value(sv.substr(colon + 1));
    nlohmann::json v;
    if (value == "true") v = true;
    else if (value == "false") v = false;
    else if (value == "null") v = nullptr;
    else if (auto i = core::parse_count(value); i && value.find_first_of("kKmMgG.eE") == std::string::npos) v = *i;
    else if (auto d = core::parse_double(value)) v = *d;
    else if (!value.empty() && (value.front() == '{' || value.front() == '[')) {
      v = nlohmann::json::parse(value, nullptr, false);
      if (v.is_discarded()) v = value;
    } else {
      v = value;
    }
    merged[key] = std::move(v);
  }
  return merged.dump();
}

std::string redacted_command_line(int argc, const char* const* argv) {
  std::string out = "servebench";
  bool redact_next = false, header_next = false;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (redact_next) {
      a = "<redacted>";
      redact_next = false;
    } else if (header_next) {
      if (is_secret_header(a)) a = a.substr(0, a.find(':')) + ": <redacted>";
      header_next = false;
    } else if (a == "--api-key") {
      redact_next = true;
    } else if (a.rfind("--api-key=", 0) == 0) {
      a = "--api-key=<redacted>";
    } else if (a == "-H" || a == "--header") {
      header_next = true;
    } else if (a.rfind("--header=", 0) == 0 && is_secret_header(a.substr(9))) {
      a = "--header=" + a.substr(9, a.find(':') - 9) + ": <redacted>";
    }
    out += ' ';
    out += shell_quote(a);
  }
  return out;
}

Result<ParsedArgs> parse_profile_args(int argc, const char* const* argv) {
  CLI::App app{"servebench profile: benchmark an OpenAI-compatible server (AIPerf flags)", "profile"};
  RawFlags flags;
  define_flags(app, flags);
  ParsedArgs out;
  try {
    // CLI11 wants argv without the program name; argv[0] here is the subcommand.
    std::vector<std::string> args;
    for (int i = argc - 1; i >= 1; --i) args.emplace_back(argv[i]);
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    out.help = true;
    out.help_text = app.help();
    return out;
  } catch (const CLI::ParseError& e) {
    return make_error(ErrorCode::kInvalidArgument, one_line(e.what()) + " (see servebench profile --help)");
  }
  if (auto st = convert(flags, &out.config); !st)
    return make_error(st.error().code, one_line(st.error().message));
  out.config.cli_command = redacted_command_line(argc, argv);
  if (auto st = validate(out.config); !st) return make_error(st.error().code, one_line(st.error().message));
  return out;
}

}  // namespace servebench::config
