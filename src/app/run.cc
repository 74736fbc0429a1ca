// run_benchmark: what `servebench profile` did after flag parsing, as a library. The order
// matters: everything that can fail on bad input (export options, artifact folder, descriptor
// budget, tokenizer, workload) fails before anything is sent; the load is the last step that
// touches the network; artifacts are written for every run that sent something.
#include "app/run.h"

#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <random>
#include <thread>

#include "app/agentic_setup.h"
#include "app/artifact_dir.h"
#include "app/fd_budget.h"
#include "app/load_monitor.h"
#include "app/load_setup.h"
#include "app/mpi_shards.h"
#include "app/parity_run.h"
#include "app/parity_setup.h"
#include "app/server_metrics_hooks.h"
#include "app/sink_hooks.h"
#include "app/telemetry_hooks.h"
#include "app/rankings_workload.h"
#include "app/workload_setup.h"
#include "config/url.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/rng.h"
#include "dataset/coding_corpus.h"
#include "dataset/public_datasets.h"
#include "dataset/synthetic_prompts.h"
#include "endpoints/endpoint.h"
#include "endpoints/registry.h"
#include "export/artifacts.h"
#include "export/record_stream.h"
#include "load/plan.h"
#include "load/runner.h"
#include "load/unreachable.h"
#include "metrics/slo.h"
#include "record/record_processor.h"
#include "report_html/report_html.h"
#include "shard/shard_run.h"
#include "tokenizer/tokenizer.h"
#include "transport/kv_cache_reset.h"

namespace servebench::app {
namespace {

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

std::string make_benchmark_id(uint64_t tag) {
  return fmt::format("{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}", static_cast<uint32_t>(tag >> 32),
                     static_cast<uint32_t>(tag >> 16) & 0xffff, static_cast<uint32_t>(tag) & 0xfff,
                     static_cast<uint32_t>(tag >> 20) & 0xfff,
                     (tag * 0x9E3779B97F4A7C15ULL) & 0xffffffffffffULL);
}

// The endpoint type was checked against the registry by config::validate.
const endpoints::EndpointSpec& spec_of(const config::BenchmarkConfig& cfg) {
  return **endpoints::find_spec(cfg.endpoint_type);
}

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

// What set-up hands to the load, all built before t0.
struct Prepared {
  std::shared_ptr<const tokenizer::Tokenizer> tok;
  std::unique_ptr<endpoints::Endpoint> endpoint;
  uint64_t seed = 0;
  PreparedWorkload work;
  WorkloadShape shape;
  std::vector<std::string> warnings;
};

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
    if (auto d = dataset::find_public_dataset(cfg.public_dataset); !d) return usage_error(d.error().message);
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

// Runs the load with the monitor beside it; calls before_load, load_started and load_ended.
// `info` comes back as of load_ended. The profiling phase's start is also the time slices'
// origin.
Result<load::RunOutcome> run_load(load::Runner& runner, const RunHooks& hooks,
                                  const load::LoadSpec& spec, exporter::RecordStream* stream,
                                  PhaseInfo* info) {
  const core::Clock& clock = core::SteadyClock::instance();
  info->at_ns = clock.now_ns();
  if (hooks.before_load) hooks.before_load(*info);
  Result<load::RunOutcome> outcome = make_error(ErrorCode::kInternal, "not run");
  LoadMonitor monitor(&runner, hooks, *info, spec.duration_ns, clock);
  runner.set_phase_observer([&monitor, stream](record::Phase p, int64_t at) {
    if (p == record::Phase::kProfiling) stream->set_slice_origin(at);
    monitor.on_phase_start(p, at);
  });
  outcome = runner.run();
  *info =
      monitor.finish(outcome ? outcome->end_ns : clock.now_ns(), outcome && outcome->interrupted);
  return outcome;
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
  if (!cfg.media_enabled()) ctx.capabilities &= ~core::kCapMedia;
  ctx.metrics_title = std::string(spec_of(cfg).metrics_title);
  ctx.streaming = cfg.streaming;
  ctx.random_seed = prep.seed;
  ctx.has_random_seed = cfg.random_seed.has_value();
  ctx.benchmark_id = make_benchmark_id(settings.run_tag);
  ctx.anchor.steady_ns = anchor.steady_ns;
  ctx.anchor.wall_ns = anchor.wall_ns;
  // inputs.json: the bodies as sent, one session per dataset entry (AIPerf's layout).
  ctx.inputs.reserve(settings.requests.size() + work.input_session_ids.size());
  for (const auto& t : settings.requests) ctx.inputs.push_back({t.conversation_id, {t.body}});
  for (size_t i = 0; i < work.input_session_ids.size(); ++i)
    ctx.inputs.push_back({work.input_session_ids[i], std::move(work.input_payloads[i])});
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

// The summary artifacts of a run that ran (the per-request files were written during the
// run), and the exit-code facts.
void write_results(const load::RunOutcome& outcome, const exporter::RunSummaries& summaries,
                   exporter::RunContext& ctx, const exporter::ExportOptions& eo,
                   const std::vector<std::string>& warnings, RunResult* result) {
  ctx.start_wall_ns = ctx.anchor.to_wall_ns(outcome.first_start_ns);
  ctx.end_wall_ns = ctx.anchor.to_wall_ns(outcome.end_ns);
  ctx.interrupted = outcome.interrupted;
  ctx.warnings = warnings;
  auto written = exporter::write_summary_artifacts(summaries, ctx, eo);
  if (!written || !summaries.record_write_error.empty()) {
    result->exit_code = 3;
    result->error = written ? summaries.record_write_error : written.error().message;
    return;
  }
  result->artifact_dir = eo.artifact_dir;
  result->ok = written->request_count;
  result->failed = written->error_request_count;
  result->gate_failures = written->gate_messages;
  // An interrupt (during the load, or one that came while exporting) makes the run a
  // cancelled one: never exit 0 for it, whatever completed.
  result->interrupted = outcome.interrupted || core::interrupt_requested();
  if (result->interrupted) {
    result->signal_number = core::interrupt_signal() != 0 ? core::interrupt_signal() : SIGINT;
    result->exit_code = 128 + result->signal_number;
  } else if (result->ok == 0 && result->failed > 0) {
    result->exit_code = 3;
  } else if (written->gate_failed) {
    result->exit_code = 1;
  }
}

}  // namespace

RunResult run_benchmark(const config::BenchmarkConfig& cfg, const RunHooks& hooks) {
  const core::Clock& clock = core::SteadyClock::instance();
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  Prepared prep;
  if (auto stop = preflight(cfg, cores, &prep.warnings)) return std::move(*stop);
  if (auto stop = set_up(cfg, &prep)) return std::move(*stop);
  // GPU telemetry and network RTT collectors ride on the phase hooks (app/telemetry_hooks.h).
  auto telemetry = make_telemetry(cfg);
  if (!telemetry) return usage_error(telemetry.error().message);
  const RunHooks telemetry_hooks = with_telemetry(hooks, telemetry->get());

  // A shard runs its part of the one plan (docs/scale-out.md): the same tag on every shard.
  const bool sharded = shard::is_sharded(cfg);
  if (auto st = shard::check_shard_config(cfg); !st) return usage_error(st.error().message);
  uint64_t tag_state = prep.seed;
  const uint64_t run_tag = sharded ? shard::shard_run_tag(prep.seed)
                                   : core::splitmix64(&tag_state) ^ static_cast<uint64_t>(clock.wall_ns());
  load::WorkerSettings built_settings =
      build_worker_settings(cfg, *prep.endpoint, prep.work, prep.seed, run_tag);
  apply_parity_worker(cfg, prep.seed, &built_settings);  // --model-selection-strategy
  const load::WorkerSettings& settings = built_settings;
  const load::LoadSpec spec = make_load_spec(cfg, prep.shape);
  load::Plan plan = load::build_plan(spec, prep.seed);
  const load::Shard part{cfg.shard_index, std::max(1, cfg.shard_count)};
  if (auto st = load::apply_shard(&plan, part); !st) return usage_error(st.error().message);
  const int workers = load::default_worker_count(load::shard_load_spec(spec, part), cores);
  SB_LOG_INFO("servebench profile: {} worker(s), tokenizer {}, seed {}, {} {}; ready to start",
              workers, prep.tok->name(), prep.seed, prep.work.entries,
              prep.work.sessions ? "conversation(s)" : "prompt(s)");

  if (core::interrupt_requested()) return interrupted_in_setup();
  note_internal_flags(cfg);
  if (cfg.parity.wait_for_model_timeout_ns > 0)
    if (auto st = wait_until_ready(cfg, *prep.endpoint, settings.urls); !st)
      return st.error().code == ErrorCode::kInterrupted ? interrupted_in_setup()
                                                        : failed(3, st.error().message);
  // The artifact folder exists and takes files before anything is sent (KV-cache reset
  // included); until the load starts, leaving returns it to how it was.
  auto artifacts =
      prepare_artifact_dir(cfg.artifact_dir, run_folder(cfg), cfg.profile_export_prefix);
  if (!artifacts) return usage_error(artifacts.error().message);
  struct Cleanup {
    const ArtifactDir& dir;
    bool keep = false;
    ~Cleanup() {
      if (!keep) remove_unused(dir);
    }
  } cleanup{*artifacts};
  if (cfg.reset_kv_cache)
    if (auto st = reset_kv_cache(cfg); !st) return failed(3, st.error().message);
  if (core::interrupt_requested()) return interrupted_in_setup();
  // --server-profiler: started here when profiling comes first, else when it starts (a hook).
  std::optional<ServerProfiler> profiler;
  if (cfg.parity.server_profiler) {
    profiler.emplace(server_profiler_options(cfg));
    if (!spec.has_warmup())
      if (auto st = profiler->start(); !st) return failed(3, st.error().message);
  }

  // Run. The run's context and per-request files are set up before the load, so records are
  // written and summarized as they complete and then dropped (export/record_stream.h).
  RunResult result;
  result.workers = workers;
  const core::WallAnchor anchor = core::WallAnchor::capture(clock);
  exporter::RunContext ctx = make_context(cfg, prep, settings, anchor);
  if (*telemetry) ctx.extra_sections.push_back(telemetry_sections(telemetry->get()));
  if (auto scen = scenario_sections(cfg, &ctx.interrupted)) ctx.extra_sections.push_back(std::move(scen));
  ctx.export_http_trace = cfg.export_http_trace;
  ctx.http_trace.headers = exporter::redacted_headers(settings.headers);
  ctx.http_trace.session_header = cfg.session_header;
  const exporter::ExportOptions eo = make_export_options(cfg, artifacts->path);
  auto stream = exporter::RecordStream::open(ctx, eo, 1);
  if (!stream) return usage_error(stream.error().message + "; no load was sent");
  // Outage detection (load/unreachable.h) keeps 32 bytes per request, not the records.
  load::OutageTracker outages;
  // report.html's per-request facts (~100 bytes a request), so the page needs no re-read of the
  // JSONL.
  report_html::RequestColumns report_columns;
  const bool want_report = !cfg.no_report;
  // outputs.json and --otel-url ride on the records hook; MLflow uploads after the artifacts.
  SinkHooks sinks(cfg);
  if (auto st = sinks.open(artifacts->path, anchor.wall_ns); !st)
    return usage_error(st.error().message + "; no load was sent");
  const RunHooks sink_hooks = sinks.wrap(hooks);
  // --failed-request-threshold: the processor thread counts and stops the runner once.
  std::optional<load::FailureThreshold> threshold = make_failure_threshold(cfg, spec);
  std::atomic<load::Runner*> stop_target{nullptr};
  record::CountOptions counting{cfg.use_server_token_count, cfg.per_chunk_usage,
                               prep.work.input_counter};
  record::RecordProcessor processor(
      prep.tok, std::move(counting), 1,
      [&stream, &outages, &report_columns, want_report, anchor, &sink_hooks,
       &threshold, &stop_target](
          const std::vector<record::RequestRecord>& batch, size_t slot) {
        (*stream)->add_batch(batch, slot);
        for (const auto& r : batch) {
          if (threshold && threshold->add(r))
            if (load::Runner* target = stop_target.load()) target->interrupt();
          outages.add(r);  // one processor thread: no lock
          if (want_report) report_html::add_record(r, &report_columns, anchor);
        }
        if (sink_hooks.records) sink_hooks.records(batch);
      });
  load::Runner runner(plan, settings, workers, clock,
                      [&processor](std::vector<record::RequestRecord>&& batch) {
                        processor.submit(std::move(batch));
                      });
  stop_target.store(&runner);
  PhaseInfo info;
  info.artifact_dir = artifacts->path;
  info.anchor = anchor;
  info.random_seed = prep.seed;
  ServerMetricsHooks server_metrics(cfg);  // its own thread; never touches the workers
  RunHooks run_hooks = server_metrics.wrap(telemetry_hooks);
  if (profiler) run_hooks = profiler->wrap(run_hooks, spec.has_warmup());
  shard::ShardFacts shard_facts;  // --start-at: every shard starts its load together
  int64_t start_at = cfg.start_at_wall_ns.value_or(0);
  auto mpi = shard::MpiShardRun::maybe_open(cfg, &prep.warnings);  // inside mpirun (mpi_run.h)
  if (!mpi) return usage_error(mpi.error().message);
  if (*mpi) {
    auto offset = (*mpi)->meet(clock);
    if (!offset) return failed(3, offset.error().message + "; no load was sent");
    shard_facts.clock_offset_ns = *offset;
  }
  if (sharded && !cfg.rendezvous.empty()) {  // a TCP barrier with shard 0 (shard/rendezvous.h)
    auto met = shard::meet_shards(cfg, ctx, clock);
    if (core::interrupt_requested()) return interrupted_in_setup();
    if (!met) return failed(3, met.error().message + "; no load was sent");
    start_at = met->start_at_wall_ns;
    shard_facts.clock_offset_ns = met->clock_offset_ns;
  }
  shard_facts.start = shard::wait_until(start_at, clock);
  if (shard_facts.start.interrupted) return interrupted_in_setup();
  Result<load::RunOutcome> outcome = run_load(runner, run_hooks, spec, stream->get(), &info);
  stop_target.store(nullptr);
  result.sent = outcome.has_value();  // else no worker could be set up: nothing was sent
  processor.finish();
  // A threshold stop is a stop, not an interrupt: the artifacts are not marked interrupted.
  // Records still in the processor at the end count too (a short run may end first).
  const bool threshold_stop = threshold && threshold->tripped() && !core::interrupt_requested();
  if (outcome && threshold_stop) outcome->interrupted = false;
  const exporter::RunSummaries summaries = (*stream)->finish();
  sinks.finish_records(&prep.warnings);
  info.at_ns = clock.now_ns();
  if (run_hooks.after_grace) run_hooks.after_grace(info);
  for (auto& w : server_metrics.take_warnings()) prep.warnings.push_back(std::move(w));
  if (profiler)
    for (auto& w : profiler->take_warnings()) warn(w, &prep.warnings);
  if (!outcome) {
    // Worker set-up failed before any phase: nothing was measured.
    result.exit_code = outcome.error().is_usage() ? 2 : 3;
    result.error = outcome.error().message;
    return result;
  }
  cleanup.keep = true;
  // A server that died mid-run: say when (the rule is in load/unreachable.h).
  const load::UnreachableReport unreachable = outages.report();
  for (const auto& w : unreachable.warnings) warn(w, &prep.warnings);
  write_results(*outcome, summaries, ctx, eo, prep.warnings, &result);
  if (sharded && !result.artifact_dir.empty()) {
    shard_facts.load_start_wall_ns = anchor.to_wall_ns(info.load_start_ns);
    if (outcome->phases.size() > 1) shard_facts.warmup_start_wall_ns = anchor.to_wall_ns(outcome->phases.front().start_ns);
    shard_facts.workers = workers;
    auto m = shard::write_manifest(result.artifact_dir, shard::describe_shard(cfg, ctx, summaries, shard_facts));
    if (!m) warn(m.error().message, &prep.warnings);
  }
  server_metrics.finish(summaries, ctx, eo.print_console, &prep.warnings);
  // report.html is built from the files just written; failing to write it is a warning.
  if (!cfg.no_report && !result.artifact_dir.empty()) {
    auto report = report_html::write_report({result.artifact_dir, cfg.profile_export_prefix,
                                             report_html::kDefaultMaxRequests, &report_columns});
    if (!report) warn("report.html not written: " + report.error().message, &prep.warnings);
    if (report && cfg.verbosity > 0) SB_LOG_INFO("HTML report: {}", report->path);
  }
  if (*mpi && !result.artifact_dir.empty()) {
    const int gate = gather_mpi_shards(**mpi, cfg, result.artifact_dir, eo.print_console, &prep.warnings);
    if (gate != 0 && result.exit_code == 0) result.exit_code = gate;
  }
  if (threshold_stop && result.exit_code != 2) {
    result.exit_code = 3;
    result.failure_reason = threshold->reason();
  }
  if (result.exit_code == 0 && unreachable.fail_run) {
    result.exit_code = 3;
    result.failure_reason = "the server was unreachable at the end of the run";
  }
  sinks.finish_run(result, anchor.wall_ns, &prep.warnings);
  result.warnings = prep.warnings;
  return result;
}

}  // namespace servebench::app
