// BenchmarkConfig: the validated, immutable description of one `servebench profile` run.
// Built from AIPerf-compatible command-line flags (config/cli_options.h) and checked by
// config::validate. Plain data: no CLI11 / yaml-cpp / JSON types leak out of this module.
//
// Thread safety: plain value type; shared read-only after validation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/parity_options.h"
#include "config/experiment_options.h"
#include "core/result.h"
#include "config/agentic_options.h"
#include "load/load_types.h"  // header-only: the enums config shares with the load module

namespace servebench::config {

using ArrivalPattern = load::ArrivalPattern;
const char* arrival_pattern_name(ArrivalPattern p);

using ConnectionReuse = load::ConnectionReuse;
const char* connection_reuse_name(ConnectionReuse c);

enum class ExportLevelName { kSummary, kRecords, kRaw };

// --ui-type/--ui: the live progress display (kAuto: dashboard on a terminal, plain lines else).
enum class UiType { kAuto, kDashboard, kSimple, kNone };

// --cache-bust: where the per-conversation marker "[rid:xxxxxxxxxxxx]" goes (AIPerf's positions).
using CacheBust = load::CacheBust;
const char* cache_bust_name(CacheBust c);

// --dataset-sampling-strategy (unset: shuffle for synthetic prompts, sequential for files).
enum class SamplingStrategyName { kDefault, kRandom, kSequential, kShuffle };

inline constexpr int64_t kInfiniteNs = INT64_MAX;

struct BenchmarkConfig {
  // Endpoint.
  std::vector<std::string> models;            // -m/--model/--model-names (first one is used)
  std::vector<std::string> urls;              // -u/--url: scheme://host[:port][/base][?query] (config/url.h)
  std::string endpoint_type = "chat";         // --endpoint-type
  std::string custom_endpoint;                // --custom-endpoint/--endpoint ("" = type default)
  bool streaming = false;                     // --streaming
  std::string api_key;                        // --api-key (never exported)
  std::vector<std::string> headers;           // -H/--header, normalized to "Name: value"
  bool url_basic_auth = false;                // headers[0] is Basic auth built from -u user:pass@
  std::string extra_inputs_json;              // --extra-inputs merged into one JSON object ("" = none)
  int64_t request_timeout_ns = 21'600LL * 1'000'000'000;  // --request-timeout-seconds
  int http_version = 1;                       // --http-version 1.1|2
  bool insecure_tls = false;                  // --insecure: skip TLS certificate checks (ours)
  ConnectionReuse connection_reuse = ConnectionReuse::kPooled;
  bool use_legacy_max_tokens = false;
  bool use_server_token_count = false;
  bool per_chunk_usage = false;              // --per-chunk-usage (continuous_usage_stats)
  bool download_video_content = false;        // --download-video-content (polling types)

  // Tokenizer.
  std::string tokenizer;                      // --tokenizer ("" = resolved from the model)
  std::string tokenizer_revision = "main";

  // Input (synthetic prompts).
  int64_t num_dataset_entries = 100;          // --num-dataset-entries/--num-prompts
  double isl_mean_tokens = 550;               // --isl
  double isl_stddev_tokens = 0;               // --isl-stddev
  double osl_mean_tokens = -1;                // --osl (-1 = server decides)
  double osl_stddev_tokens = 0;               // --osl-stddev
  // Range-ratio lengths (ours; docs in dataset/synthetic_prompts.h): uniform instead of normal.
  std::optional<double> isl_range_ratio;      // --isl-range-ratio
  std::optional<double> osl_range_ratio;      // --osl-range-ratio
  bool range_ratio_sglang = false;            // --range-ratio-style sglang (default vllm)
  std::optional<uint64_t> random_seed;        // --random-seed
  std::string sequence_distribution;          // --sequence-distribution/--seq-dist ("" = none)
  SamplingStrategyName sampling_strategy = SamplingStrategyName::kDefault;  // --dataset-sampling-strategy
  // Prompts (flags_prompts.cc).
  bool apply_chat_template = false;           // --apply-chat-template: ISL through the model's template
  std::string prompt_corpus;                  // --prompt-corpus sonnet|coding|random ("" = sonnet, the prose corpus)
  // A verbatim system message in every conversation (--system-prompt, or the text of
  // --system-prompt-file, read while parsing); "" = none.
  std::string system_prompt;
  std::string system_prompt_file;             // --system-prompt-file (its path; "" = none)
  bool random_range_ratio_given = false;      // --random-range-ratio (sets both range ratios)
  // Trace re-synthesis of hash-id traces (flags_synthesis.cc, dataset/trace_synthesis.h).
  double synthesis_speedup_ratio = 1.0;       // --synthesis-speedup-ratio (> 0)
  double synthesis_prefix_len_multiplier = 1.0;   // --synthesis-prefix-len-multiplier (>= 0)
  int64_t synthesis_prefix_root_multiplier = 1;   // --synthesis-prefix-root-multiplier (>= 1)
  double synthesis_prompt_len_multiplier = 1.0;   // --synthesis-prompt-len-multiplier (>= 0)
  double synthesis_output_len_multiplier = 1.0;   // --synthesis-output-len-multiplier (>= 0)
  std::optional<int64_t> synthesis_max_isl;   // --synthesis-max-isl: drop longer rows
  std::optional<int64_t> synthesis_max_osl;   // --synthesis-max-osl: cap output lengths
  bool synthesis_given() const {
    return synthesis_speedup_ratio != 1.0 || synthesis_prefix_len_multiplier != 1.0 ||
           synthesis_prefix_root_multiplier != 1 || synthesis_prompt_len_multiplier != 1.0 ||
           synthesis_output_len_multiplier != 1.0 || synthesis_max_isl || synthesis_max_osl;
  }

  // Rankings requests: one query plus passages (--rankings-*; rankings endpoint types only).
  int64_t rankings_passages_mean = 1;          // --rankings-passages-mean
  int64_t rankings_passages_stddev = 0;        // --rankings-passages-stddev
  int64_t rankings_passage_tokens_mean = 550;  // --rankings-passages-prompt-token-mean
  int64_t rankings_passage_tokens_stddev = 0;  // --rankings-passages-prompt-token-stddev
  int64_t rankings_query_tokens_mean = 550;    // --rankings-query-prompt-token-mean
  int64_t rankings_query_tokens_stddev = 0;    // --rankings-query-prompt-token-stddev
  bool rankings_flags_given = false;           // any --rankings-* flag was given
  // Synthetic media (flags_media.cc; media/synthetic_media.h). Off while the means are 0.
  double image_width_mean = 0, image_width_stddev = 0;    // --image-width-mean/-stddev (px)
  double image_height_mean = 0, image_height_stddev = 0;  // --image-height-mean/-stddev (px)
  int64_t image_batch_size = 1;                           // --image-batch-size/--batch-size-image
  std::string image_format = "png";                       // --image-format png|jpeg|random
  std::string image_source = "noise";                     // --image-source noise|DIR
  std::string image_source_sampling = "random-with-replacement";  // --image-source-sampling
  int64_t media_pool_size = 0;  // --media-pool-size (servebench): N media reused; 0 = fresh per request
  bool uuid_and_strip = false;  // --uuid-and-strip: image UUIDs, repeats in a session stripped
  double audio_length_mean_s = 0, audio_length_stddev_s = 0;  // --audio-length-mean/-stddev
  std::vector<double> audio_sample_rates_khz = {16.0};        // --audio-sample-rates
  std::vector<int64_t> audio_depths = {16};                   // --audio-depths (bits)
  std::string audio_format = "wav";                           // --audio-format wav|mp3
  int64_t audio_batch_size = 1;                               // --audio-batch-size
  int64_t audio_num_channels = 1;                             // --audio-num-channels
  // Synthetic video (flags_video.cc; media/video_encoder.h). Off while width and height are 0.
  int64_t video_batch_size = 1;                  // --video-batch-size/--batch-size-video
  double video_duration_s = 5.0;                 // --video-duration
  int64_t video_fps = 4;                         // --video-fps
  int64_t video_width = 0, video_height = 0;     // --video-width/--video-height (px)
  std::string video_synth_type = "moving_shapes";  // --video-synth-type
  std::string video_format = "webm";             // --video-format webm|mp4
  std::string video_codec = "libvpx-vp9";        // --video-codec (an FFmpeg encoder)
  double video_audio_sample_rate = 44100;        // --video-audio-sample-rate (Hz)
  int64_t video_audio_num_channels = 0;          // --video-audio-num-channels (0 = no track)
  std::string video_audio_codec;                 // --video-audio-codec ("" = by format)
  int64_t video_audio_depth = 16;                // --video-audio-depth (bits)
  bool video_enabled() const { return video_width > 0 && video_height > 0 && video_batch_size > 0; }
  bool media_enabled() const {
    return (image_width_mean > 0 && image_height_mean > 0) || audio_length_mean_s > 0 ||
           video_enabled();
  }

  // Sessions (multi-turn) and shared prompts.
  std::optional<int64_t> num_sessions;        // --num-sessions/--num-conversations/--conversation-num
  double session_turns_mean = 1;              // --session-turns-mean/--conversation-turn-mean
  double session_turns_stddev = 0;            // --session-turns-stddev/--conversation-turn-stddev
  double session_turn_delay_mean_ms = 0;      // --session-turn-delay-mean (ms)
  double session_turn_delay_stddev_ms = 0;    // --session-turn-delay-stddev (ms)
  double session_delay_ratio = 1.0;           // --session-delay-ratio (multiplier)
  int64_t prefix_prompt_pool_size = 0;        // --prefix-prompt-pool-size/--num-prefix-prompts
  int64_t prefix_prompt_length = 0;           // --prefix-prompt-length (tokens)
  int64_t shared_system_prompt_length = 0;    // --shared-system-prompt-length (tokens, 0 = none)
  int64_t user_context_prompt_length = 0;     // --user-context-prompt-length (tokens, 0 = none)
  int64_t batch_size = 1;                     // --batch-size/--batch-size-text: texts per request
  std::string session_header = "X-Correlation-ID";  // --session-header
  CacheBust cache_bust = CacheBust::kNone;    // --cache-bust

  // KV-cache reset before profiling (--reset-kv-cache; implied by its path/timeout flags).
  bool reset_kv_cache = false;
  std::string reset_kv_cache_path = "/reset_prefix_cache";
  int64_t reset_kv_cache_timeout_ns = 30LL * 1'000'000'000;

  // Input files.
  std::string input_file;                     // --input-file ("" = synthetic prompts)
  std::string custom_dataset_type;            // --custom-dataset-type ("" = auto-detect)
  std::string public_dataset;                 // --public-dataset ("" = none; dataset/public_datasets.h)
  std::string hf_subset;                      // --hf-subset ("" = the dataset's own)
  std::vector<std::string> dataset_filters;   // --dataset-filter key=value (repeatable)
  std::string hf_weka_dataset;                // --hf-weka-dataset (selects weka_hf)
  int64_t isl_block_size = 0;                 // --isl-block-size (0 = the format's default)
  bool use_think_time_only = false;           // --use-think-time-only (flags_agentic.cc)
  int64_t max_context_length = 0;             // --max-context-length (0 = no limit)
  AgenticOptions agentic;                     // --scenario and agentic replay (flags_agentic.cc)
  std::optional<bool> fixed_schedule;         // --fixed-schedule / --no-fixed-schedule (unset: auto)
  bool fixed_schedule_auto_offset = false;    // --fixed-schedule-auto-offset
  std::optional<int64_t> fixed_schedule_start_offset_ms;  // --fixed-schedule-start-offset
  std::optional<int64_t> fixed_schedule_end_offset_ms;    // --fixed-schedule-end-offset
  // Trace replay (flags_trace_replay.cc; baseten_trace).
  std::optional<bool> open_loop_replay;       // --open-loop-replay / --no-open-loop-replay (unset: on)
  bool open_loop_strict = false;              // --open-loop-strict: every row its own session
  double trace_session_sample_ratio = 1.0;    // --trace-session-sample-ratio, in (0, 1]
  std::optional<double> inter_turn_delay_cap_s;  // --inter-turn-delay-cap-seconds
  std::optional<double> max_idle_gap_cap_s;      // --max-idle-gap-cap-seconds
  double replay_speedup = 1.0;                // --replay-speedup (> 0)
  bool omit_kv_hints = false;                 // --omit-kv-hints: no hash_ids/block_size in bodies
  std::optional<bool> force_min_tokens;       // --force-min-tokens / --no-force-min-tokens (unset: on)

  // Load.
  std::optional<int64_t> concurrency;         // --concurrency
  std::optional<double> request_rate;         // --request-rate (requests/s)
  ArrivalPattern arrival_pattern = ArrivalPattern::kPoisson;
  bool arrival_pattern_given = false;
  std::optional<double> arrival_smoothness;   // --arrival-smoothness/--vllm-burstiness
  std::optional<int64_t> request_count;       // --request-count/--num-requests
  std::optional<int64_t> benchmark_duration_ns;
  std::optional<int64_t> grace_period_ns;     // --benchmark-grace-period (kInfiniteNs = inf)
  std::optional<int64_t> warmup_request_count;
  std::optional<int64_t> num_warmup_sessions;  // --num-warmup-sessions
  std::optional<int64_t> warmup_duration_ns;
  std::optional<int64_t> concurrency_ramp_ns;
  std::optional<int64_t> request_rate_ramp_ns;
  std::optional<int64_t> prefill_concurrency;
  double cancellation_rate_pct = 0;           // --request-cancellation-rate (0..100)
  std::optional<int64_t> cancellation_delay_ns;
  std::optional<int64_t> workers_max;         // --workers-max/--max-workers
  std::optional<double> user_centric_rate;    // --user-centric-rate (requests/s over all users)
  std::optional<int64_t> num_users;           // --num-users

  // Output.
  std::string artifact_dir = "artifacts";     // --artifact-dir/--output-artifact-dir
  std::string profile_export_prefix;
  ExportLevelName export_level = ExportLevelName::kRecords;
  std::string goodput;
  int64_t slice_duration_ns = 0;
  std::string fail_on;
  bool no_report = false;                     // --no-report: skip report.html
  int verbosity = 1;                          // 1 = info; each -v adds one

  // Live display and API (flags_live.cc).
  UiType ui = UiType::kAuto;                  // --ui-type/--ui
  std::optional<int64_t> api_port;            // --api-port (0 = any free port)
  std::string api_host = "127.0.0.1";         // --api-host
  // Scale-out (flags_shard.cc; docs/scale-out.md). Not in input_config: every shard of a run
  // exports the same input_config, which is how a merge knows they ran one plan.
  int32_t shard_index = 0;                    // --shard I/N
  int32_t shard_count = 0;                    // 0: not given (a launcher may supply it)
  std::optional<int64_t> start_at_wall_ns;    // --start-at (Unix ns)
  std::string launcher = "auto";              // --launcher auto|none|mpi|k8s|slurm
  std::string rendezvous;                     // --rendezvous HOST:PORT (shard 0 listens)
  int64_t rendezvous_timeout_ns = 600'000'000'000;  // --rendezvous-timeout
  // Server metrics (flags_server_metrics.cc; telemetry/server_metrics_run.h).
  bool server_metrics = true;                      // --no-server-metrics turns it off
  std::vector<std::string> server_metrics_urls;    // --server-metrics: extra endpoints
  int64_t server_metrics_interval_ns = 333'000'000;  // --server-metrics-interval (s)
  std::vector<std::string> server_metrics_formats = {"json", "csv"};  // --server-metrics-formats

  // GPU telemetry and network RTT (docs/telemetry.md).
  bool gpu_telemetry_given = false;           // --gpu-telemetry (shows the GPU panel)
  std::vector<std::string> gpu_telemetry;     // its values: pynvml, amdsmi, dashboard, URLs, *.csv
  bool no_gpu_telemetry = false;              // --no-gpu-telemetry
  bool network_latency_automatic = false;     // --network-latency-automatic (TCP-connect probes)
  std::optional<double> network_latency_mean_ms;  // --network-latency-mean (fixed RTT, ms)
  int64_t network_latency_ping_interval_ns = 1'000'000'000;  // --network-latency-ping-interval

  // Per-request extras and result sinks (flags_sinks.cc; docs/sinks.md).
  bool export_http_trace = false;             // --export-http-trace: timing + headers in the JSONL
  bool show_trace_timing = false;             // --show-trace-timing: HTTP Trace console table
  bool export_outputs_json = false;           // --export-outputs-json: outputs.json
  std::string otel_url;                       // --otel-url (OTLP/HTTP base or /v1/metrics URL)
  std::vector<std::string> otel_resource_attributes;  // --otel-resource-attributes k=v
  std::string otel_stream = "default";        // --stream: default | metrics | timing
  std::string otel_encoding = "protobuf";     // --otel-encoding: protobuf | json
  std::string gen_ai_provider;                // --gen-ai-provider (gen_ai.provider.name)
  std::string mlflow_tracking_uri;            // --mlflow-tracking-uri (http[s]://)
  std::string mlflow_experiment;              // --mlflow-experiment
  std::string mlflow_run_name;                // --mlflow-run-name
  std::vector<std::string> mlflow_tags;       // --mlflow-tag k=v
  std::string mlflow_parent_run_id;           // --mlflow-parent-run-id
  std::vector<std::string> mlflow_artifact_globs;  // --mlflow-artifact-glob
  // AIPerf parity options (flags_parity.cc): warm-up shape, rate series, readiness, profiler...
  ParityOptions parity;
  // Sweeps and repeated trials (flags_experiment.cc; src/experiment/).
  ExperimentOptions experiment;

  // Provenance (secrets redacted).
  std::string cli_command;

  // Derived helpers (valid after validate()).
  const std::string& model() const { return models.front(); }
  // Effective profiling request count: the flag, else AIPerf's max(10, 2*concurrency) when no
  // duration is given, else unlimited (nullopt).
  std::optional<int64_t> effective_request_count() const;
  // Closed-loop concurrency (1 when neither rate nor concurrency was given).
  std::optional<int64_t> effective_concurrency() const;
  // Grace period after the duration (AIPerf default 30 s).
  int64_t effective_grace_ns() const;
  // True when requests belong to sessions of several turns (history between them).
  bool multi_turn_synthetic() const { return session_turns_mean > 1 || session_turns_stddev > 0; }
  bool has_warmup() const { return warmup_request_count || warmup_duration_ns || num_warmup_sessions; }
  // Label for the artifact folder: "concurrency8", "request_rate10" or "user_centric_rate2".
  std::string load_label() const;
};

// Checks AIPerf's option rules and value ranges. Errors are one line naming the flag and the fix
// (ErrorCode::kInvalidArgument → exit code 2).
Status validate(const BenchmarkConfig& config);

// Resolved config as a JSON object (input_config in exports): each flag's value under its key
// from the flag table (config/flag_table.h), plus cli_command. The API key and every -H value
// but the harmless ones (core/secrets.h) are redacted; URLs carry no user info.
std::string to_json(const BenchmarkConfig& config);

}  // namespace servebench::config
