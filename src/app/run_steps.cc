// The set-up steps of run_benchmark (app/run.cc): checks before anything is built, the
// tokenizer, endpoint, seed and workload, the worker settings, and the run's context. Internal
// to the run library (app/run_steps.h).
#include "app/run_steps.h"

#include <fmt/format.h>
#include <signal.h>

#include <random>

#include "app/agentic_setup.h"
#include "app/artifact_dir.h"
#include "app/fd_budget.h"
#include "app/file_media_setup.h"
#include "app/load_setup.h"
#include "app/parity_setup.h"
#include "app/rankings_workload.h"
#include "app/trace_input.h"
#include "config/url.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "dataset/coding_corpus.h"
#include "dataset/public_datasets.h"
#include "endpoints/registry.h"
#include "export/artifacts.h"
#include "load/runner.h"
#include "metrics/slo.h"
#include "transport/kv_cache_reset.h"

namespace servebench::app::run_steps {

RunResult failed(int exit_code, std::string message) {
  RunResult r;
  r.exit_code = exit_code;
  r.error = std::move(message);
  return r;
}
RunResult usage_error(std::string message) { return failed(2, std::move(message)); }

// A set-up step ended (or failed) after an interrupt: nothing was sent, nothing to write.
RunResult interrupted_in_setup() {
  RunResult r;
  r.interrupted = true;
  r.signal_number = core::interrupt_signal() != 0 ? core::interrupt_signal() : SIGINT;
  r.exit_code = 128 + r.signal_number;
  r.error = fmt::format("interrupted during set-up ({}); nothing was sent",
                        r.signal_number == SIGTERM ? "SIGTERM" : "SIGINT");
  return r;
}

namespace {

exporter::ExportLevel export_level(config::ExportLevelName l) {
  switch (l) {
    case config::ExportLevelName::kSummary:
      return exporter::ExportLevel::kSummary;
    case config::ExportLevelName::kRaw:
      return exporter::ExportLevel::kRaw;
    case config::ExportLevelName::kRecords:
      break;
  }
  return exporter::ExportLevel::kRecords;
}

}  // namespace

namespace {

std::string make_benchmark_id(uint64_t tag) {
  return fmt::format("{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}", static_cast<uint32_t>(tag >> 32),
                     static_cast<uint32_t>(tag >> 16) & 0xffff, static_cast<uint32_t>(tag) & 0xfff,
                     static_cast<uint32_t>(tag >> 20) & 0xfff,
                     (tag * 0x9E3779B97F4A7C15ULL) & 0xffffffffffffULL);
}

}  // namespace

namespace {

// The endpoint type was checked against the registry by config::validate.
const endpoints::EndpointSpec& spec_of(const config::BenchmarkConfig& cfg) {
  return **endpoints::find_spec(cfg.endpoint_type);
}

}  // namespace

std::string run_folder(const config::BenchmarkConfig& cfg) {
  // An experiment names each run's folder itself (profile_runs/run_0001, variation_0000_...).
  if (cfg.experiment.artifact_dir_is_final) return "";
  std::string name = exporter::artifact_dir_name(cfg.model(), std::string(spec_of(cfg).artifact_name),
                                                 cfg.streaming, cfg.load_label());
  // Shards of one plan may share a folder (one host, a shared volume): one sub-name each.
  if (cfg.shard_count > 1) name += fmt::format("-shard{}of{}", cfg.shard_index, cfg.shard_count);
  return name;
}

// Everything a worker needs to build requests (load/worker.h).
load::WorkerSettings build_worker_settings(const config::BenchmarkConfig& cfg,
                                           const endpoints::Endpoint& endpoint,
                                           PreparedWorkload& work, uint64_t seed,
                                           uint64_t run_tag) {
  load::WorkerSettings settings;
  const std::string path =
      cfg.custom_endpoint.empty() ? std::string(endpoint.default_path()) : cfg.custom_endpoint;
  for (const auto& u : cfg.urls) settings.urls.push_back(config::join_url(u, path));
  // The content headers go only with benchmark requests; credentials and -H with every request.
  const std::string_view content_type = spec_of(cfg).content_type;
  settings.headers.push_back("Content-Type: " + std::string(content_type.empty()
                                                                 ? "application/json"
                                                                 : content_type));
  if (cfg.streaming) settings.headers.push_back("Accept: text/event-stream");
  for (auto& h : user_headers(cfg)) settings.headers.push_back(std::move(h));
  settings.models = cfg.models;
  settings.requests = std::move(work.requests);
  settings.warmup_requests = std::move(work.warmup_requests);
  settings.body_store = work.body_store;
  settings.order = std::move(work.order);
  settings.sessions = work.sessions;
  settings.idle_cap = agentic_idle_cap(cfg);
  settings.keep_bodies = cfg.export_level == config::ExportLevelName::kRaw;
  settings.session_header = cfg.session_header;
  settings.polls = spec_of(cfg).has(core::kCapPolls);
  settings.make_parser = [&endpoint, spec_make = spec_of(cfg).make_parser] {
    auto configured = endpoint.make_parser();  // e.g. a --extra-inputs response_field
    return configured ? std::move(configured) : spec_make();
  };
  settings.streaming = cfg.streaming;
  settings.http_version = cfg.http_version;
  settings.verify_tls = !cfg.insecure_tls;
  settings.reuse = cfg.connection_reuse;
  settings.request_timeout_ns = cfg.request_timeout_ns;
  settings.cancellation_rate_pct = cfg.cancellation_rate_pct;
  settings.cancellation_delay_ns = cfg.cancellation_delay_ns.value_or(0);
  settings.seed = seed;
  settings.run_tag = run_tag;
  return settings;
}

namespace {

// The run's load-independent checks, all before anything else: a typo or a bad folder never
// costs a whole benchmark.
Status check_export_options(const config::BenchmarkConfig& cfg) {
  if (auto g = metrics::parse_goodput(cfg.goodput); !g) return tl::unexpected(g.error());
  if (auto f = metrics::parse_fail_on(cfg.fail_on); !f) return tl::unexpected(f.error());
  if (cfg.reset_kv_cache)
    if (auto p = transport::validate_control_path(cfg.reset_kv_cache_path); !p)
      return tl::unexpected(p.error());
  return {};
}

}  // namespace

// --reset-kv-cache: flush the server's prefix cache once before any load (warm-up included).
Status reset_kv_cache(const config::BenchmarkConfig& cfg) {
  transport::KvCacheResetOptions ro;
  ro.path = cfg.reset_kv_cache_path;
  ro.timeout_ns = cfg.reset_kv_cache_timeout_ns;
  ro.verify_tls = !cfg.insecure_tls;
  ro.headers = user_headers(cfg);
  auto reset = transport::reset_kv_cache_all(cfg.urls, ro);
  if (!reset)
    return make_error(ErrorCode::kNetwork,
                      "--reset-kv-cache failed, no load was sent: " + reset.error().message);
  for (const auto& r : *reset)
    SB_LOG_INFO("KV cache reset: POST {} -> HTTP {} in {:.1f} ms", r.url, r.http_status,
                r.elapsed_ns / 1e6);
  return {};
}

void warn(const std::string& w, std::vector<std::string>* warnings) {
  SB_LOG_WARN("{}", w);
  warnings->push_back(w);
}

// Checks that need no set-up: export options, the descriptor budget (the load shape does not
// depend on the workload) and an artifact folder probe. A typo or a bad folder never costs a
// whole benchmark. Returns the result to stop with, if any.
std::optional<RunResult> preflight(const config::BenchmarkConfig& cfg, int cores,
                                   std::vector<std::string>* warnings) {
  if (auto st = check_export_options(cfg); !st) return usage_error(st.error().message);
  const load::LoadSpec shape_only = make_load_spec(cfg, WorkloadShape{});
  const int workers = load::default_worker_count(shape_only, cores);
  const auto urls = static_cast<int64_t>(cfg.urls.size());
  const FdNeed need = estimate_fd_need(shape_only, urls, workers, cfg.http_version);
  const uint64_t limit = load::raise_fd_limit();
  if (auto st = check_fd_budget(need, limit, urls, workers); !st)
    return usage_error(st.error().message);
  if (auto w = open_loop_fd_warning(shape_only, urls, workers, limit); !w.empty())
    warn(w, warnings);
  // The folder is made again (and kept) once set-up is done, so a set-up that fails or is
  // interrupted leaves no empty folder behind.
  auto probe = prepare_artifact_dir(cfg.artifact_dir, run_folder(cfg), cfg.profile_export_prefix);
  if (!probe) return usage_error(probe.error().message);
  remove_unused(*probe);
  return std::nullopt;
}

// Tokenizer, endpoint, seed, prompts and request bodies. Returns the result to stop with (a
// usage error, or an interrupt) if any.
std::optional<RunResult> set_up(const config::BenchmarkConfig& cfg, Prepared* out) {
  const core::Clock& clock = core::SteadyClock::instance();
  const int64_t t_start = clock.now_ns();
  auto since_ms = [&] { return static_cast<double>(clock.now_ns() - t_start) / 1e6; };
  // A mistyped --public-dataset fails before anything slow.
  if (!cfg.public_dataset.empty())
    if (auto st = check_public_dataset(cfg); !st) return usage_error(st.error().message);
  // Tokenizer.
  tokenizer::LoadOptions tok_opts;
  tok_opts.revision = cfg.tokenizer_revision;
  if (!cfg.tokenizer.empty()) {
    auto t = tokenizer::load_tokenizer(cfg.tokenizer, tok_opts);
    if (core::interrupt_requested()) return interrupted_in_setup();
    if (!t) return usage_error(t.error().message);
    out->tok = *t;
  } else {
    std::string warning;
    out->tok = tokenizer::resolve_default_tokenizer(cfg.model(), tok_opts, &warning);
    if (!warning.empty()) warn(warning, &out->warnings);
  }
  if (core::interrupt_requested()) return interrupted_in_setup();
  SB_LOG_DEBUG("start-up: tokenizer {} ready at {:.1f} ms", out->tok->name(), since_ms());

  // Endpoint.
  endpoints::EndpointOptions ep_opts;
  ep_opts.model = cfg.model();
  ep_opts.streaming = cfg.streaming;
  ep_opts.use_legacy_max_tokens = cfg.use_legacy_max_tokens;
  // Every streamed chat/completions body asks for the usage chunk, as AIPerf 0.13 does; an
  // --extra-inputs stream_options replaces it ({"include_usage":false} turns it off).
  ep_opts.include_usage = true;
  ep_opts.continuous_usage = cfg.per_chunk_usage;
  ep_opts.extra_inputs_json = cfg.extra_inputs_json;
  ep_opts.download_video_content = cfg.download_video_content;
  auto endpoint = spec_of(cfg).make_endpoint(ep_opts);
  if (!endpoint) return usage_error(endpoint.error().message);
  out->endpoint = std::move(*endpoint);

  // Seed, prompts and request bodies: all before t0.
  out->seed = cfg.random_seed
                  ? *cfg.random_seed
                  : ((static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}()) &
                        ((uint64_t{1} << 53) - 1);  // --random-seed reads it back exactly
  auto corpus = dataset::corpus_for(cfg.prompt_corpus);
  if (!corpus) return usage_error(corpus.error().message);
  auto prepared =
      spec_of(cfg).has(core::kCapQueryPassages)
          ? prepare_rankings_workload(cfg, *out->tok, *out->endpoint, *corpus, out->seed)
      : cfg.input_file.empty() && cfg.public_dataset.empty()
          ? prepare_synthetic_workload(cfg, *out->tok, *out->endpoint, *corpus, out->seed)
          : prepare_file_workload(cfg, *out->tok, *out->endpoint, *corpus, out->seed);
  if (core::interrupt_requested()) return interrupted_in_setup();
  if (!prepared) return usage_error(prepared.error().message);
  out->work = std::move(*prepared);
  const PreparedWorkload& work = out->work;
  for (const auto& w : work.warnings) warn(w, &out->warnings);
  out->shape = shape_of(cfg, work);
  if (work.sessions && cfg.user_centric_rate && work.sessions->average_turns() < 2)
    return usage_error(
        "--user-centric-rate needs sessions of 2 or more turns on average; add "
        "--session-turns-mean 2 or use a multi-turn input file");
  SB_LOG_DEBUG("start-up: {} {} built at {:.1f} ms", work.entries,
               work.sessions ? "conversation(s)" : "request bodies", since_ms());
  return std::nullopt;
}

// What the run is, for every artifact; known before the load starts.
exporter::RunContext make_context(const config::BenchmarkConfig& cfg, Prepared& prep,
                                  const load::WorkerSettings& settings,
                                  const core::WallAnchor& anchor) {
  PreparedWorkload& work = prep.work;
  exporter::RunContext ctx;
  ctx.input_config_json = config::to_json(effective_config(cfg, prep.shape));
  ctx.cli_command = cfg.cli_command;
  ctx.model = cfg.model();
  ctx.endpoint_type = cfg.endpoint_type;
  ctx.capabilities = spec_of(cfg).capabilities;
  // Media metrics (audio usage, ...) apply only when media are sent.
  if (!cfg.media_enabled() && !workload_sends_media(settings)) ctx.capabilities &= ~core::kCapMedia;
  ctx.metrics_title = std::string(spec_of(cfg).metrics_title);
  ctx.streaming = cfg.streaming;
  ctx.fixed_schedule = work.fixed_offsets_ns != nullptr;
  ctx.random_seed = prep.seed;
  ctx.has_random_seed = cfg.random_seed.has_value();
  ctx.benchmark_id = make_benchmark_id(settings.run_tag);
  ctx.anchor.steady_ns = anchor.steady_ns;
  ctx.anchor.wall_ns = anchor.wall_ns;
  // inputs.json: the bodies as sent, one session per dataset entry (AIPerf's layout). Views of
  // the load's own bodies (settings and prep outlive the export): no second copy of each body.
  ctx.inputs.reserve(settings.requests.size() + work.input_session_ids.size());
  for (const auto& t : settings.requests)
    ctx.inputs.push_back({t.conversation_id, {t.body_text()}});
  if (auto store = settings.body_store)
    ctx.payload_written = [store](std::string_view body) { store->release(body); };
  for (size_t i = 0; i < work.input_session_ids.size(); ++i) {
    auto& session = ctx.inputs.emplace_back();
    session.session_id = work.input_session_ids[i];
    session.payloads_json.assign(work.input_payloads[i].begin(), work.input_payloads[i].end());
  }
  return ctx;
}

exporter::ExportOptions make_export_options(const config::BenchmarkConfig& cfg,
                                            const std::string& artifact_dir) {
  exporter::ExportOptions eo;
  eo.artifact_dir = artifact_dir;
  eo.profile_export_prefix = cfg.profile_export_prefix;
  eo.level = export_level(cfg.export_level);
  eo.goodput = cfg.goodput;
  eo.slice_duration_ns = cfg.slice_duration_ns;
  eo.fail_on = cfg.fail_on;
  eo.print_console = cfg.verbosity > 0;
  eo.expected_records = cfg.effective_request_count().value_or(0);
  eo.show_trace_timing = cfg.show_trace_timing;
  return eo;
}

}  // namespace servebench::app::run_steps
