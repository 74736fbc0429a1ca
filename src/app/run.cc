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
#include <thread>

#include "app/agentic_setup.h"
#include "app/artifact_dir.h"
#include "app/load_monitor.h"
#include "app/load_setup.h"
#include "app/mpi_shards.h"
#include "app/parity_run.h"
#include "app/parity_setup.h"
#include "app/server_metrics_hooks.h"
#include "app/sink_hooks.h"
#include "app/telemetry_hooks.h"
#include "app/run_steps.h"
#include "app/workload_setup.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/rng.h"
#include "endpoints/endpoint.h"
#include "export/artifacts.h"
#include "export/record_stream.h"
#include "load/plan.h"
#include "load/runner.h"
#include "load/unreachable.h"
#include "record/record_processor.h"
#include "report_html/report_html.h"
#include "shard/shard_run.h"
#include "tokenizer/tokenizer.h"

namespace servebench::app {
namespace {

using namespace run_steps;  // the set-up steps (app/run_steps.h)

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
  // Reserved for --request-count, as the summary's columns are (capped the same way).
  const size_t expected = static_cast<size_t>(std::min(eo.expected_records, int64_t{1} << 24));
  outages.reserve(expected);
  if (want_report) report_columns.reserve(expected);
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
  // report.html's columns reuse the metric values the summary computed for the record's line.
  exporter::RecordStream::RecordVisitor to_report;
  if (want_report)
    to_report = [&report_columns, anchor, caps = ctx.capabilities](
                    const record::RequestRecord& r, const metrics::RecordValues& v) {
      report_html::add_record(r, &report_columns, anchor, &v, caps);
    };
  record::RecordProcessor processor(
      prep.tok, std::move(counting), 1,
      [&stream, &outages, &to_report, &sink_hooks,
       &threshold, &stop_target](
          const std::vector<record::RequestRecord>& batch, size_t slot) {
        (*stream)->add_batch(batch, slot, to_report);
        for (const auto& r : batch) {
          if (threshold && threshold->add(r))
            if (load::Runner* target = stop_target.load()) target->interrupt();
          outages.add(r);  // one processor thread: no lock
        }
        if (sink_hooks.records) sink_hooks.records(batch);
      });
  load::Runner runner(plan, settings, workers, clock,
                      [&processor](record::PackedRecords&& batch) {
                        processor.submit(std::move(batch));
                        batch = processor.spare_batch();
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
